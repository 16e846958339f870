// Fuzzes every /proc parser with the same bytes: none may crash, hang or read out of bounds.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "proc/proc_parse.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  using namespace spinup::proc;
  (void)ParseStat(text);
  (void)ParseStatus(text);
  (void)ParseIo(text);
  auto args = ParseCmdline(text, 64, 256);
  (void)JoinCmdline(args, 512);
  (void)ModelPathFromCmdline(args);
  (void)ClassifyWchan(text);
  (void)ParseFdinfoPos(text);
  (void)ParseNetTcp(text, false, 256);
  (void)ParseNetTcp(text, true, 256);
  (void)ParseSocketLink(text);
  (void)ParsePidList(text, 256);
  (void)ParseChildren(text, 256);
  (void)IsCompilerComm(text);
  return 0;
}

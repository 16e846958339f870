// The stall evidence parsers over any bytes: py-spy's output and kernel stacks come from
// processes spinup does not control. Never a crash, and the caps hold.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "proc/stall_evidence.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  auto threads = spinup::proc::ParsePySpyDump(in, 16, 8);
  if (threads.size() > 16) std::abort();
  for (const auto& t : threads) {
    if (t.frames.size() > 8) std::abort();
  }
  (void)spinup::proc::CollectiveOf(threads);
  if (spinup::proc::ParseKernelStack(in, 8).size() > 8) std::abort();
  (void)spinup::proc::RankOfProcess(in, in.substr(0, 16));
  return 0;
}

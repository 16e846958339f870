// Fuzzes the history's pure parsers: the server command line's startup flags (argv split at
// NUL bytes, as /proc/PID/cmdline), the engine version and SGLang's server_args line from a log
// line. Checks the caps the store relies on.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "history/server_flags.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> argv;
  for (size_t start = 0; start <= in.size();) {
    size_t nul = in.find('\0', start);
    if (nul == std::string_view::npos) nul = in.size();
    argv.emplace_back(in.substr(start, nul - start));
    start = nul + 1;
  }
  spinup::StartupFlags f = spinup::ParseStartupFlags(argv);
  if (f.quantization.size() > 128) __builtin_trap();
  if ((f.tp && *f.tp < 0) || (f.context_length && *f.context_length < 0)) __builtin_trap();
  (void)spinup::StartupFlagsKey(f);
  if (auto v = spinup::EngineVersionFromLine(in); v && v->size() > 64) __builtin_trap();
  if (auto a = spinup::ServerArgsFromLine(in); a && a->model.size() > 512) __builtin_trap();
  return 0;
}

// Fuzzes the --rules loader: arbitrary bytes as a rules file (RuleSet::AddFile, then Compile when
// it loaded), and as a second file over the embedded rules (duplicate ids, budgets, causes).
// Loading must never crash or hang: bad files are a Status naming file and line. The embedded
// files are added as text and compiled once, with the input, only when the input loaded: compiling
// the built-in rules twice per input took seconds under the sanitizers, near libFuzzer's timeout.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "logs/embedded_rules.h"
#include "logs/rules.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  {
    spinup::RuleSet rs;
    if (rs.AddFile("fuzz.json", in).ok()) (void)rs.Compile();
  }
  {
    spinup::RuleSet rs;
    bool embedded_ok = true;
    for (const auto& f : spinup::EmbeddedRulesFiles()) {
      embedded_ok =
          embedded_ok && rs.AddFile(std::string("rules/") + std::string(f.name), f.contents).ok();
    }
    if (!embedded_ok) __builtin_trap();  // the built-in rules always load
    if (rs.AddFile("extra.json", in).ok() && rs.Compile().ok()) {
      std::vector<int> matched;
      rs.Match("Load weight begin. avail mem=70.00 GB", &matched);
      // A file's "prefixes" run on lines no built-in parser knew: the input's own lines.
      size_t start = 0;
      for (int lines = 0; start < in.size() && lines < 64; ++lines) {
        size_t end = in.find('\n', start);
        if (end == std::string_view::npos) end = in.size();
        if (auto m = rs.prefixes().Match(in.substr(start, end - start))) {
          (void)m->message.size();
        }
        start = end + 1;
      }
    }
  }
  return 0;
}

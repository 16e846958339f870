// Fuzzes the --rules loader: arbitrary bytes as a rules file (RuleSet::AddFile, then Compile when
// it loaded), and as a second file over the embedded rules (duplicate ids, budgets, causes).
// Loading must never crash or hang: bad files are a Status naming file and line.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "logs/rules.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  {
    spinup::RuleSet rs;
    if (rs.AddFile("fuzz.json", in).ok()) (void)rs.Compile();
  }
  {
    auto rs = spinup::RuleSet::LoadEmbedded();
    if (rs.ok() && rs->AddFile("extra.json", in).ok() && rs->Compile().ok()) {
      std::vector<int> matched;
      rs->Match("Load weight begin. avail mem=70.00 GB", &matched);
      // A file's "prefixes" run on lines no built-in parser knew: the input's own lines.
      size_t start = 0;
      for (int lines = 0; start < in.size() && lines < 64; ++lines) {
        size_t end = in.find('\n', start);
        if (end == std::string_view::npos) end = in.size();
        if (auto m = rs->prefixes().Match(in.substr(start, end - start))) {
          (void)m->message.size();
        }
        start = end + 1;
      }
    }
  }
  return 0;
}

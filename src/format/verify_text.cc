// The human rendering of `spinup verify`: one line per problem, then a summary.
#include <fmt/format.h>

#include "base/one_line.h"
#include "base/units.h"
#include "spinup/checkpoint.h"

namespace spinup {

std::string VerifyReportText(const VerifyReport& r) {
  std::string out;
  for (const auto& p : r.problems) {
    if (p.tensor) {
      out += fmt::format("{}: {}: tensor {}: {}\n", OneLine(p.file), ProblemKindName(p.kind),
                         OneLine(*p.tensor), OneLine(p.message));
    } else {
      out +=
          fmt::format("{}: {}: {}\n", OneLine(p.file), ProblemKindName(p.kind), OneLine(p.message));
    }
  }
  for (const auto& d : r.digests) {
    out += fmt::format("{}  {}{}\n", d.sha256, OneLine(d.file),
                       d.expected ? (*d.expected == d.sha256 ? "  (matches HF cache blob)"
                                                             : "  (HF cache blob differs)")
                                  : "");
  }
  std::string hashed =
      r.hashed_bytes ? fmt::format(", {} hashed", FormatBytes(r.hashed_bytes)) : std::string();
  if (r.ok) {
    out += fmt::format("verify: ok: {} files checked{}\n", r.checked_files, hashed);
  } else {
    out += fmt::format("verify: {} {} in {} files checked{}\n", r.problems.size(),
                       r.problems.size() == 1 ? "problem" : "problems", r.checked_files, hashed);
  }
  return out;
}

}  // namespace spinup

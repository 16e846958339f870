// The JSON rendering of `spinup verify` (schema: docs/verify.md).
#include <nlohmann/json.hpp>

#include "base/json_dump.h"
#include "spinup/checkpoint.h"

namespace spinup {

std::string VerifyReportJson(const VerifyReport& r) {
  using nlohmann::ordered_json;
  ordered_json j;
  j["path"] = r.path;
  j["ok"] = r.ok;
  j["checked_files"] = r.checked_files;
  j["hashed_bytes"] = r.hashed_bytes;
  ordered_json problems = ordered_json::array();
  for (const auto& p : r.problems) {
    ordered_json o;
    o["file"] = p.file;
    o["tensor"] = p.tensor ? ordered_json(*p.tensor) : ordered_json(nullptr);
    o["kind"] = std::string(ProblemKindName(p.kind));
    o["message"] = p.message;
    problems.push_back(std::move(o));
  }
  j["problems"] = std::move(problems);
  ordered_json digests = ordered_json::array();
  for (const auto& d : r.digests) {
    ordered_json o;
    o["file"] = d.file;
    o["sha256"] = d.sha256;
    o["expected"] = d.expected ? ordered_json(*d.expected) : ordered_json(nullptr);
    digests.push_back(std::move(o));
  }
  j["digests"] = std::move(digests);
  // Error handler "replace": file and tensor names come from untrusted headers.
  return DumpJson(j, 2) + "\n";
}

}  // namespace spinup

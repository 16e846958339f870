// The one way spinup serialises JSON for output: never throws. Strings that are not valid UTF-8
// (a folder named in Latin-1, a log line cut mid-character) get U+FFFD where their bad bytes were,
// instead of nlohmann's type_error and an abort.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace spinup {

// `indent` < 0: one line.
std::string DumpJson(const nlohmann::json& j, int indent = -1);

}  // namespace spinup

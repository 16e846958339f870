// The `spinup explain --json` object (schema in docs/explain.md), built on the shared codec
// (sink/json_codec.h) so field names stay in one place.
#pragma once

#include <nlohmann/json.hpp>

#include "spinup/startup.h"

namespace spinup {

nlohmann::json ExplainJson(const Verdict& verdict);

}  // namespace spinup

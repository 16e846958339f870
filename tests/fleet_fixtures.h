// Synthetic `--json` event streams for the stand-in server's scenarios, in the format the live
// JSON-lines sink writes (docs/events.md): used by the report, browser and Prometheus tests so
// they do not depend on timing. Real recorded streams are used as well where the tests can run
// the stand-in server.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace spinup::testing {

// "healthy", "slow", "hung_distributed_init", "hung_cuda_graph", "crash_kv_cache", "crash_loop",
// "killed".
const std::vector<std::string>& ScenarioNames();
std::string ScenarioStream(std::string_view scenario, int ranks = 4);
// The state name the scenario's final verdict carries.
std::string ScenarioState(std::string_view scenario);

}  // namespace spinup::testing

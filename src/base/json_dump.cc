#include "base/json_dump.h"

namespace spinup {

std::string DumpJson(const nlohmann::json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace spinup

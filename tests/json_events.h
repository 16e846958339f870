// The JSON-lines events `spinup watch/run --json` prints (docs/events.md), read back by the
// end-to-end tests from output that also holds the server's own, non-JSON lines.
#pragma once

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace spinup::testing {

inline std::vector<nlohmann::json> JsonEvents(const std::string& text) {
  std::vector<nlohmann::json> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("{\"", 0) != 0) continue;
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_discarded() && j.is_object() && j.contains("type")) out.push_back(std::move(j));
  }
  return out;
}

// The last verdict marked final, or null when there is none.
inline nlohmann::json FinalVerdict(const std::vector<nlohmann::json>& events) {
  for (auto it = events.rbegin(); it != events.rend(); ++it) {
    if ((*it)["type"] == "verdict" && it->value("final", false)) return *it;
  }
  return nlohmann::json();
}

inline nlohmann::json FinalVerdict(const std::string& text) {
  return FinalVerdict(JsonEvents(text));
}

}  // namespace spinup::testing

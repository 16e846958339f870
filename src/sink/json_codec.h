// JSON forms of the shared startup structs (include/spinup/startup.h). One codec for every
// producer and consumer: `explain --json`, the `watch --json` event stream, and `spinup report`
// replaying a saved stream all go through here, so the field names live in one place
// (documented in docs/json.md). Optional values are written as null and read back as nullopt.
#pragma once

#include <nlohmann/json.hpp>

#include "spinup/startup.h"
#include "spinup/status.h"

namespace spinup {

nlohmann::json ToJson(const LogEvent& event);
nlohmann::json ToJson(const Sample& sample);
nlohmann::json ToJson(const Progress& progress);
nlohmann::json ToJson(const Finding& finding);
nlohmann::json ToJson(const TimelineEntry& entry);
nlohmann::json ToJson(const Verdict& verdict);
nlohmann::json ToJson(const WarmStatus& warm);

// Readers accept what the writers produce and tolerate missing keys (defaults); a wrong type or
// an unknown phase/state name is a Corrupt status naming the key.
Result<LogEvent> LogEventFromJson(const nlohmann::json& j);
Result<Sample> SampleFromJson(const nlohmann::json& j);
Result<Verdict> VerdictFromJson(const nlohmann::json& j);

std::string_view LogEventKindName(LogEvent::Kind kind);
std::optional<LogEvent::Kind> ParseLogEventKind(std::string_view name);

}  // namespace spinup

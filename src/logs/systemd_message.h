// What a line systemd printed about a unit means, read from its text: the lines people paste
// from `journalctl -u UNIT` ("sglang.service: Main process exited, code=exited,
// status=1/FAILURE", "Scheduled restart job, restart counter is at 3.", ...). The journal path
// reads the same facts from structured fields (live/journal_entry.h); pasted text has only the
// words, so this reads the wording systemd has used since v219. Pure and bounded.
#pragma once

#include <optional>
#include <string_view>

#include "spinup/startup.h"

namespace spinup {

// True for the identifiers systemd logs under ("systemd", "systemd[1]", "systemd[2417]").
bool IsSystemdIdent(std::string_view ident);

// The unit event in one systemd message, or nullopt for lines that say nothing about the start
// (CPU accounting, "Deactivated successfully", ...). time_ms is left unset.
std::optional<UnitEvent> ParseSystemdMessage(std::string_view message);

}  // namespace spinup

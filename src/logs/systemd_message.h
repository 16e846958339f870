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

// The host's own daemons in a journal read without -u (`journalctl -f`): cron, sudo, logins,
// time and name services. Their lines are no server's ("CRON[99120]: pam_unix(cron:session):
// session opened", "sudo[99180]: alice : ... COMMAND=/usr/bin/systemctl start vllm").
bool HostDaemonIdent(std::string_view ident);

// A bare line that is systemd's about a service unit, pasted without its journal prefix
// (`journalctl -o cat`): "vllm.service: Scheduled restart job, restart counter is at 2.",
// "Started vllm.service - vLLM server.".
bool BareUnitLine(std::string_view message);

// The ids under which the manager's facts about the unit count as rule hits, so a known cause in
// rules/*.json can ask for them like for a rule's ("systemd.oom_killed").
namespace unit_fact {
inline constexpr std::string_view kProcessExited = "systemd.process_exited";
inline constexpr std::string_view kSigkill = "systemd.sigkill";
inline constexpr std::string_view kSigill = "systemd.sigill";  // status=4/ILL: CPU instructions
inline constexpr std::string_view kFailed = "systemd.failed";
inline constexpr std::string_view kOomKilled = "systemd.oom_killed";
inline constexpr std::string_view kStopping = "systemd.stopping";
inline constexpr std::string_view kLeftOverProcess = "systemd.left_over_process";
}  // namespace unit_fact

// The fact an event counts as (an unclean exit by SIGKILL is kSigkill, by SIGILL kSigill), or ""
// for none.
std::string_view UnitFactId(const UnitEvent& event);

// True for the ids above.
bool IsUnitFactId(std::string_view id);

}  // namespace spinup

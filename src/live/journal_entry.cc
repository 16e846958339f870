#include "live/journal_entry.h"

#include <systemd/sd-messages.h>

#include <charconv>

namespace spinup {

namespace {

std::optional<int64_t> ParseInt(std::string_view s, int64_t lo, int64_t hi) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || v < lo || v > hi) return std::nullopt;
  return v;
}

std::string_view Cap(std::string_view s, size_t n) { return s.substr(0, std::min(s.size(), n)); }

// Signals systemd treats as a clean stop of a service (a `systemctl stop` or restart ends it so).
bool CleanStopSignal(int64_t sig) { return sig == 1 || sig == 2 || sig == 13 || sig == 15; }

std::optional<UnitEvent> ManagerEvent(const JournalFields& f, std::string_view unit) {
  const std::string_view id = f.Get("MESSAGE_ID").value_or("");
  const std::string_view message = f.Get("MESSAGE").value_or("");
  UnitEvent e;
  e.unit = std::string(unit);
  e.time_ms = f.realtime_ms;
  e.text = std::string(Cap(message, 1024));
  if (id == SD_MESSAGE_UNIT_RESTART_SCHEDULED_STR) {
    e.kind = UnitEvent::Kind::kRestartScheduled;
    // A missing or malformed counter still means one more restart (the tracker counts it so).
    e.restarts =
        static_cast<int>(ParseInt(f.Get("N_RESTARTS").value_or(""), 0, 1000000).value_or(0));
    return e;
  }
  if (id == SD_MESSAGE_UNIT_STARTING_STR) {
    e.kind = UnitEvent::Kind::kStarting;
    return e;
  }
  if (id == SD_MESSAGE_UNIT_FAILURE_RESULT_STR) {
    e.kind = UnitEvent::Kind::kFailed;
    e.result = std::string(Cap(f.Get("UNIT_RESULT").value_or(""), 64));
    return e;
  }
  if (id == SD_MESSAGE_UNIT_STOPPING_STR) {
    e.kind = UnitEvent::Kind::kStopping;
    return e;
  }
  if (id == SD_MESSAGE_UNIT_OUT_OF_MEMORY_STR) {
    e.kind = UnitEvent::Kind::kOomKilled;
    return e;
  }
  if (message.find(": Found left-over process ") != std::string_view::npos) {  // no MESSAGE_ID
    e.kind = UnitEvent::Kind::kLeftOverProcess;
    return e;
  }
  // Older systemd logs the main process's exit without a MESSAGE_ID, with the same fields.
  const auto code = f.Get("EXIT_CODE");
  const auto status = f.Get("EXIT_STATUS");
  if ((id == SD_MESSAGE_UNIT_PROCESS_EXIT_STR || id.empty()) && code && status) {
    // ExecStartPre= and other control processes: their failure shows up as kFailed.
    if (message.find("Control process exited") != std::string_view::npos) return std::nullopt;
    auto st = ParseInt(*status, -1000000, 1000000);
    if (!st) return std::nullopt;
    e.kind = UnitEvent::Kind::kProcessExited;
    e.exit_code = std::string(Cap(*code, 16));
    e.exit_status = static_cast<int>(*st);
    e.clean = (*code == "exited" && *st == 0) || (*code == "killed" && CleanStopSignal(*st));
    return e;
  }
  return std::nullopt;
}

}  // namespace

void JournalFields::Add(std::string_view data) {
  if (items.size() >= kMaxJournalFields) return;
  size_t eq = data.find('=');
  if (eq == std::string_view::npos || eq == 0) return;
  items.emplace_back(data.substr(0, eq), data.substr(eq + 1));
}

std::optional<std::string_view> JournalFields::Get(std::string_view key) const {
  for (const auto& [k, v] : items) {
    if (k == key) return v;
  }
  return std::nullopt;
}

std::string NormalizeUnitName(std::string_view unit) {
  std::string u(Cap(unit, 256));
  if (!u.empty() && u.find('.') == std::string::npos) u += ".service";
  return u;
}

JournalEntryFacts ClassifyJournalEntry(const JournalFields& f, std::string_view unit) {
  JournalEntryFacts out;
  const auto message = f.Get("MESSAGE");
  if (unit.empty()) {
    if (message) out.line = Cap(*message, kMaxJournalMessage);
    return out;
  }
  const bool manager = f.Get("_PID") == "1" || f.Get("_SYSTEMD_UNIT") == "init.scope";
  if ((manager && f.Get("UNIT") == unit) || f.Get("USER_UNIT") == unit) {
    out.event = ManagerEvent(f, unit);
    return out;
  }
  if (manager) return out;  // the manager about another unit, or about itself
  if (f.Get("_SYSTEMD_UNIT") == unit || f.Get("_SYSTEMD_USER_UNIT") == unit) {
    if (message) out.line = Cap(*message, kMaxJournalMessage);
  }
  return out;
}

}  // namespace spinup

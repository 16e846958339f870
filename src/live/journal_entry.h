// What one systemd journal entry means for a watched unit: a line of the server's own log, a
// fact from the service manager about the unit (start, exit, failure, scheduled restart, OOM
// kill), or nothing. Pure: fields in, facts out, no I/O (the sd-journal reader is in
// log_sources.cc), so it is unit-tested and fuzzed on any bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "spinup/startup.h"

namespace spinup {

// A message longer than this is cut (journald stores up to 48 KiB per line by default, a binary
// field can be larger).
inline constexpr size_t kMaxJournalMessage = 16 << 10;
// Fields looked at per entry; an entry with more is read up to this many.
inline constexpr size_t kMaxJournalFields = 256;

// One entry's data items, as sd_journal_enumerate_data yields them ("KEY=value"). Views into
// memory the caller keeps alive while the entry is classified.
struct JournalFields {
  std::vector<std::pair<std::string_view, std::string_view>> items;
  std::optional<int64_t> realtime_ms;  // __REALTIME_TIMESTAMP

  // Splits "KEY=value" and keeps it (items without '=' are ignored; at most kMaxJournalFields).
  void Add(std::string_view data);
  // The first value of `key`, or nullopt.
  std::optional<std::string_view> Get(std::string_view key) const;
};

// "sglang" → "sglang.service"; names with a type suffix are kept.
std::string NormalizeUnitName(std::string_view unit);

struct JournalEntryFacts {
  std::optional<std::string_view> line;  // the server's log line (MESSAGE), capped
  std::optional<UnitEvent> event;        // the manager's word about the unit
};

// `unit` is normalized ("sglang.service") or empty. Empty: every entry's MESSAGE is a line and
// there are no unit events (which unit would they be about?). Otherwise: entries of the unit's
// own processes (_SYSTEMD_UNIT= or _SYSTEMD_USER_UNIT= the unit) are lines; entries the manager
// logged about it (UNIT= the unit from _PID=1 / init.scope, or USER_UNIT= the unit) are events
// when their MESSAGE_ID is one spinup knows; everything else is ignored.
JournalEntryFacts ClassifyJournalEntry(const JournalFields& fields, std::string_view unit);

}  // namespace spinup

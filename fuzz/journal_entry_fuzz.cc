// Fuzzes the journal entry classifier and the tracker's handling of the unit events it yields:
// the input is split into "KEY=value" fields at newlines (journal export format), entries at
// blank lines; field values are arbitrary bytes, as a journal's can be.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "diagnose/tracker.h"
#include "live/journal_entry.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  spinup::StartupTracker tracker;
  spinup::JournalFields fields;
  int64_t t = 1'700'000'000'000;
  auto classify = [&] {
    fields.realtime_ms = t += 100;
    for (std::string_view unit : {std::string_view("sglang.service"), std::string_view()}) {
      spinup::JournalEntryFacts f = spinup::ClassifyJournalEntry(fields, unit);
      if (f.line && f.line->size() > spinup::kMaxJournalMessage) __builtin_trap();
      if (f.event && unit.empty()) __builtin_trap();  // no unit, no events
      if (f.event) {
        if (f.event->text.size() > 1024 || f.event->restarts < 0) __builtin_trap();
        tracker.OnUnitEvent(*f.event);
      }
    }
    fields = spinup::JournalFields();
  };
  while (!in.empty()) {
    size_t nl = in.find('\n');
    std::string_view line = in.substr(0, nl);
    in.remove_prefix(nl == std::string_view::npos ? in.size() : nl + 1);
    if (line.empty()) {
      classify();
    } else {
      fields.Add(line);
    }
  }
  classify();
  const auto& st = tracker.state();
  if (st.attempts.size() > spinup::StartupTracker::kMaxAttempts) __builtin_trap();
  if (st.crashed_attempts > st.total_attempts) __builtin_trap();
  return 0;
}

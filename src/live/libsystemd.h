// The journal reader's libsystemd, loaded at run time (dlopen "libsystemd.so.0") so the binary
// starts where libsystemd is absent (containers) and only `--unit` / `--journal-file` need it.
// Loaded once, thread-safe; never unloaded.
#pragma once

#include <systemd/sd-journal.h>

#include <cstddef>
#include <cstdint>

#include "spinup/status.h"

namespace spinup {

struct SdJournalApi {
  int (*open)(sd_journal** ret, int flags);
  int (*open_files)(sd_journal** ret, const char** paths, int flags);
  void (*close)(sd_journal* j);
  int (*process)(sd_journal* j);
  int (*next)(sd_journal* j);
  int (*get_realtime_usec)(sd_journal* j, uint64_t* ret);
  void (*restart_data)(sd_journal* j);
  int (*enumerate_available_data)(sd_journal* j, const void** data, size_t* l);
  int (*add_match)(sd_journal* j, const void* data, size_t size);
  int (*add_disjunction)(sd_journal* j);
  int (*set_data_threshold)(sd_journal* j, size_t sz);
  int (*seek_realtime_usec)(sd_journal* j, uint64_t usec);
  int (*seek_head)(sd_journal* j);
};

// The table, or kUnsupported with one line saying what is missing and what still works.
Result<const SdJournalApi*> LoadSdJournal();

}  // namespace spinup

#include "live/libsystemd.h"

#include <dlfcn.h>

#include <mutex>
#include <string>

namespace spinup {
namespace {

template <typename F>
bool Bind(void* lib, const char* name, F& fn) {
  fn = reinterpret_cast<F>(::dlsym(lib, name));
  return fn != nullptr;
}

Result<const SdJournalApi*> Load() {
  static SdJournalApi api;
  void* lib = ::dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    return Status::Unsupported(
        "the journal needs libsystemd.so.0, which is not installed here (install libsystemd0, "
        "or follow the server's log with --log FILE, --log - or --log-command)");
  }
  // sd_journal_enumerate_available_data is the newest (systemd 246); the rest are far older.
  bool ok = Bind(lib, "sd_journal_open", api.open) &&
            Bind(lib, "sd_journal_open_files", api.open_files) &&
            Bind(lib, "sd_journal_close", api.close) &&
            Bind(lib, "sd_journal_process", api.process) &&
            Bind(lib, "sd_journal_next", api.next) &&
            Bind(lib, "sd_journal_get_realtime_usec", api.get_realtime_usec) &&
            Bind(lib, "sd_journal_restart_data", api.restart_data) &&
            Bind(lib, "sd_journal_enumerate_available_data", api.enumerate_available_data) &&
            Bind(lib, "sd_journal_add_match", api.add_match) &&
            Bind(lib, "sd_journal_add_disjunction", api.add_disjunction) &&
            Bind(lib, "sd_journal_set_data_threshold", api.set_data_threshold) &&
            Bind(lib, "sd_journal_seek_realtime_usec", api.seek_realtime_usec) &&
            Bind(lib, "sd_journal_seek_head", api.seek_head);
  if (!ok) {
    return Status::Unsupported(
        "the journal needs libsystemd 246 or newer; this libsystemd.so.0 lacks " +
        std::string(::dlerror() ? "a function spinup uses" : "a function"));
  }
  return &api;
}

}  // namespace

Result<const SdJournalApi*> LoadSdJournal() {
  static std::once_flag once;
  static Result<const SdJournalApi*> result = Status::Internal("not loaded");
  std::call_once(once, [] { result = Load(); });
  return result;
}

}  // namespace spinup

// The history database: one SQLite file (schema in docs/history.md) that every spinup process on
// the host writes its starts into. WAL journal and a busy timeout let several processes (and
// threads, one HistoryStore each) write at once; each Add() is one short IMMEDIATE transaction
// that also prunes the model's oldest starts, so the file stays bounded.
//
// The store never decides anything; the learner (learner.h) reads what it returns. A failure
// here is a Status for the caller to print as one warning: history is optional, a start never
// waits on it for longer than the busy timeout.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "history/record.h"
#include "spinup/status.h"

struct sqlite3;

namespace spinup {

struct HistoryStoreOptions {
  int busy_timeout_ms = 5000;
  int keep_per_model = 200;  // newest starts kept per model path; older ones are pruned
  bool read_only = false;    // `spinup history`: never create or change the file
};

struct HistoryQuery {
  std::string model;        // "" = any; else the model path, or its last path element
  std::string header_hash;  // also match starts of this checkpoint fingerprint under any path
  std::string host;         // "" = any
  int limit = 100;
};

inline constexpr int kHistorySchemaVersion = 1;

class HistoryStore {
 public:
  // Creates the folder and the schema when missing (unless read_only). Fails on a file that is
  // not a SQLite database, a newer schema, a folder that cannot be written, or a lock held past
  // the busy timeout; the message names the file.
  static Result<std::unique_ptr<HistoryStore>> Open(const std::filesystem::path& path,
                                                    const HistoryStoreOptions& options = {});
  ~HistoryStore();
  HistoryStore(const HistoryStore&) = delete;
  HistoryStore& operator=(const HistoryStore&) = delete;

  // Inserts the start and its phase spans; returns its id.
  Result<int64_t> Add(const StartRecord& record);
  // Newest first, each with its phase spans.
  Result<std::vector<StartRecord>> Recent(const HistoryQuery& query);
  Result<std::optional<StartRecord>> Get(int64_t id);

  const std::filesystem::path& path() const { return path_; }

 private:
  HistoryStore(sqlite3* db, std::filesystem::path path, HistoryStoreOptions options)
      : db_(db), path_(std::move(path)), options_(options) {}
  Status Exec(const char* sql);
  Status Error(const std::string& what) const;
  Status LoadPhases(StartRecord& record);

  sqlite3* db_;
  std::filesystem::path path_;
  HistoryStoreOptions options_;
};

}  // namespace spinup

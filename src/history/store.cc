#include "history/store.h"

#include <chrono>
#include <thread>

#include <sqlite3.h>

#include <fmt/format.h>
#include <system_error>

namespace spinup {

namespace {

// The schema (docs/history.md). Times are Unix milliseconds; NULL where unknown.
constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS starts (
  id               INTEGER PRIMARY KEY AUTOINCREMENT,
  started_ms       INTEGER NOT NULL,
  ended_ms         INTEGER,
  ready_ms         INTEGER,
  host             TEXT NOT NULL,
  model            TEXT NOT NULL,
  ckpt_bytes       INTEGER,
  ckpt_shards      INTEGER,
  ckpt_hash        TEXT,
  engine           TEXT NOT NULL,
  engine_version   TEXT NOT NULL,
  flags            TEXT NOT NULL,
  tp               INTEGER,
  pp               INTEGER,
  dp               INTEGER,
  quantization     TEXT NOT NULL,
  context_length   INTEGER,
  speculative      TEXT NOT NULL,
  spinup_version   TEXT NOT NULL,
  resident_bytes   INTEGER,
  bytes_read       INTEGER,
  read_bytes_per_s REAL,
  restarts         INTEGER NOT NULL,
  state            TEXT NOT NULL,
  exit_status      INTEGER,
  source           TEXT NOT NULL,
  imported         INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS starts_by_model ON starts (model, started_ms);
CREATE INDEX IF NOT EXISTS starts_by_hash ON starts (ckpt_hash, started_ms);
CREATE TABLE IF NOT EXISTS phases (
  start_id INTEGER NOT NULL REFERENCES starts (id) ON DELETE CASCADE,
  rank     TEXT NOT NULL,
  phase    TEXT NOT NULL,
  start_ms INTEGER,
  end_ms   INTEGER,
  seconds  REAL
);
CREATE INDEX IF NOT EXISTS phases_by_start ON phases (start_id);
)sql";

constexpr const char* kColumns =
    "id, started_ms, ended_ms, ready_ms, host, model, ckpt_bytes, ckpt_shards, ckpt_hash, engine, "
    "engine_version, tp, pp, dp, quantization, context_length, speculative, spinup_version, "
    "resident_bytes, bytes_read, read_bytes_per_s, restarts, state, exit_status, source, imported";

// One prepared statement, finalized on scope exit; Bind* take 1-based indexes.
class Stmt {
 public:
  Stmt(sqlite3* db, const char* sql) { rc_ = sqlite3_prepare_v2(db, sql, -1, &s_, nullptr); }
  ~Stmt() { sqlite3_finalize(s_); }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;
  bool ok() const { return rc_ == SQLITE_OK; }
  void Text(int i, const std::string& v) {
    sqlite3_bind_text(s_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
  }
  template <typename T>
  void Int(int i, const std::optional<T>& v) {
    if (v) {
      sqlite3_bind_int64(s_, i, static_cast<sqlite3_int64>(*v));
    } else {
      sqlite3_bind_null(s_, i);
    }
  }
  void Int(int i, int64_t v) { sqlite3_bind_int64(s_, i, v); }
  void Real(int i, const std::optional<double>& v) {
    if (v) {
      sqlite3_bind_double(s_, i, *v);
    } else {
      sqlite3_bind_null(s_, i);
    }
  }
  int Step() { return sqlite3_step(s_); }
  void Reset() {
    sqlite3_reset(s_);
    sqlite3_clear_bindings(s_);
  }
  bool Null(int c) const { return sqlite3_column_type(s_, c) == SQLITE_NULL; }
  int64_t ColInt(int c) const { return sqlite3_column_int64(s_, c); }
  double ColReal(int c) const { return sqlite3_column_double(s_, c); }
  std::string ColText(int c) const {
    const auto* p = sqlite3_column_text(s_, c);
    return p ? std::string(reinterpret_cast<const char*>(p),
                           static_cast<size_t>(sqlite3_column_bytes(s_, c)))
             : std::string();
  }
  template <typename T>
  std::optional<T> OptInt(int c) const {
    if (Null(c)) return std::nullopt;
    return static_cast<T>(ColInt(c));
  }

 private:
  sqlite3_stmt* s_ = nullptr;
  int rc_ = SQLITE_ERROR;
};

StartRecord ReadStart(const Stmt& s) {
  StartRecord r;
  r.id = s.ColInt(0);
  r.started_ms = s.ColInt(1);
  r.ended_ms = s.OptInt<int64_t>(2);
  r.ready_ms = s.OptInt<int64_t>(3);
  r.host = s.ColText(4);
  r.model = s.ColText(5);
  if (!s.Null(8)) {
    r.fingerprint = CheckpointFingerprint{static_cast<uint64_t>(s.ColInt(6)),
                                          static_cast<int>(s.ColInt(7)), s.ColText(8)};
  }
  r.engine = s.ColText(9);
  r.engine_version = s.ColText(10);
  r.flags.tp = s.OptInt<int>(11);
  r.flags.pp = s.OptInt<int>(12);
  r.flags.dp = s.OptInt<int>(13);
  r.flags.quantization = s.ColText(14);
  r.flags.context_length = s.OptInt<int64_t>(15);
  r.flags.speculative = s.ColText(16);
  r.spinup_version = s.ColText(17);
  r.resident_bytes = s.OptInt<uint64_t>(18);
  r.bytes_read = s.OptInt<uint64_t>(19);
  if (!s.Null(20)) r.read_bytes_per_s = s.ColReal(20);
  r.restarts = static_cast<int>(s.ColInt(21));
  r.state = ParseState(s.ColText(22)).value_or(State::kUnknown);
  r.exit_status = s.OptInt<int>(23);
  r.source = s.ColText(24);
  r.imported = s.ColInt(25) != 0;
  return r;
}

}  // namespace

Status HistoryStore::Error(const std::string& what) const {
  return Status::Io(fmt::format("{}: {}: {}", path_.string(), what, sqlite3_errmsg(db_)));
}

Status HistoryStore::Exec(const char* sql) {
  char* msg = nullptr;
  int rc = sqlite3_exec(db_, sql, nullptr, nullptr, &msg);
  std::string text = msg ? msg : sqlite3_errstr(rc);
  sqlite3_free(msg);
  if (rc == SQLITE_OK) return Status::Ok();
  return Status::Io(fmt::format("{}: {}", path_.string(), text));
}

Result<std::unique_ptr<HistoryStore>> HistoryStore::Open(const std::filesystem::path& path,
                                                         const HistoryStoreOptions& options) {
  std::error_code ec;
  if (options.read_only && !std::filesystem::exists(path, ec)) {
    return Status::NotFound(path.string() + ": no history recorded yet (no such file)");
  }
  if (!options.read_only && path.has_parent_path()) {
    std::filesystem::create_directories(path.parent_path(), ec);
    if (ec) return Status::Io(fmt::format("{}: {}", path.parent_path().string(), ec.message()));
  }
  int flags =
      SQLITE_OPEN_NOMUTEX |
      (options.read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string msg = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close(db);
    return Status::Io(fmt::format("{}: {}", path.string(), msg));
  }
  std::unique_ptr<HistoryStore> store(new HistoryStore(db, path, options));
  sqlite3_busy_timeout(db, options.busy_timeout_ms);
  sqlite3_extended_result_codes(db, 1);
  // Another spinup opening the same file may be switching it to WAL, which needs the file to
  // itself for a moment and answers "locked" at once (no busy handler): wait, up to the timeout.
  auto busy = [db] { return (sqlite3_errcode(db) & 0xff) == SQLITE_BUSY; };
  auto retry_while_busy = [&](auto&& step) {
    bool ok = step();
    for (int waited = 0; !ok && busy() && waited < options.busy_timeout_ms; waited += 10) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      ok = step();
    }
    return ok;
  };
  // Reading the schema version is the first read of the file: a non-database fails here.
  int version = 0;
  if (!retry_while_busy([&] {
        Stmt s(db, "PRAGMA user_version");
        if (!s.ok() || s.Step() != SQLITE_ROW) return false;
        version = static_cast<int>(s.ColInt(0));
        return true;
      })) {
    return store->Error("not a usable history database");
  }
  if (version > kHistorySchemaVersion) {
    return Status::Unsupported(fmt::format("{}: schema version {} is newer than this spinup's {}",
                                           path.string(), version, kHistorySchemaVersion));
  }
  if (options.read_only) {
    if (version == 0) return Status::NotFound(path.string() + ": no history recorded yet");
    return store;
  }
  Status wal;
  retry_while_busy([&] {
    wal = store->Exec("PRAGMA journal_mode=WAL; PRAGMA foreign_keys=ON;");
    return wal.ok();
  });
  if (!wal.ok()) return wal;
  if (version < kHistorySchemaVersion) {
    std::string sql = fmt::format("BEGIN IMMEDIATE; {} PRAGMA user_version={}; COMMIT;", kSchema,
                                  kHistorySchemaVersion);
    if (Status st = store->Exec(sql.c_str()); !st.ok()) {
      (void)store->Exec("ROLLBACK");
      return st;
    }
  }
  return store;
}

HistoryStore::~HistoryStore() { sqlite3_close(db_); }

Result<int64_t> HistoryStore::Add(const StartRecord& r) {
  if (options_.read_only) return Status::InvalidArgument(path_.string() + ": opened read-only");
  if (Status st = Exec("BEGIN IMMEDIATE"); !st.ok()) return st;
  auto fail = [&](const std::string& what) -> Status {
    Status st = Error(what);
    (void)Exec("ROLLBACK");
    return st;
  };
  int64_t id = 0;
  {
    Stmt s(db_,
           "INSERT INTO starts (started_ms, ended_ms, ready_ms, host, model, ckpt_bytes, "
           "ckpt_shards, ckpt_hash, engine, engine_version, flags, tp, pp, dp, quantization, "
           "context_length, speculative, spinup_version, resident_bytes, bytes_read, "
           "read_bytes_per_s, restarts, state, exit_status, source, imported) VALUES "
           "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    if (!s.ok()) return fail("insert");
    s.Int(1, r.started_ms);
    s.Int(2, r.ended_ms);
    s.Int(3, r.ready_ms);
    s.Text(4, r.host);
    s.Text(5, r.model);
    const auto& f = r.fingerprint;
    s.Int(6, f ? std::optional<uint64_t>(f->bytes) : std::nullopt);
    s.Int(7, f ? std::optional<int>(f->shards) : std::nullopt);
    if (f) s.Text(8, f->header_hash);
    s.Text(9, r.engine);
    s.Text(10, r.engine_version);
    s.Text(11, StartupFlagsKey(r.flags));
    s.Int(12, r.flags.tp);
    s.Int(13, r.flags.pp);
    s.Int(14, r.flags.dp);
    s.Text(15, r.flags.quantization);
    s.Int(16, r.flags.context_length);
    s.Text(17, r.flags.speculative);
    s.Text(18, r.spinup_version);
    s.Int(19, r.resident_bytes);
    s.Int(20, r.bytes_read);
    s.Real(21, r.read_bytes_per_s);
    s.Int(22, int64_t{r.restarts});
    s.Text(23, std::string(StateName(r.state)));
    s.Int(24, r.exit_status);
    s.Text(25, r.source);
    s.Int(26, int64_t{r.imported ? 1 : 0});
    if (s.Step() != SQLITE_DONE) return fail("insert");
    id = sqlite3_last_insert_rowid(db_);
  }
  {
    Stmt s(db_,
           "INSERT INTO phases (start_id, rank, phase, start_ms, end_ms, seconds) "
           "VALUES (?,?,?,?,?,?)");
    if (!s.ok()) return fail("insert phases");
    for (const auto& p : r.phases) {
      s.Reset();
      s.Int(1, id);
      s.Text(2, p.rank);
      s.Text(3, std::string(PhaseName(p.phase)));
      s.Int(4, p.start_ms);
      s.Int(5, p.end_ms);
      s.Real(6, p.seconds);
      if (s.Step() != SQLITE_DONE) return fail("insert phases");
    }
  }
  {
    // Bounded: only the newest keep_per_model starts of this model stay (phases cascade).
    Stmt s(db_,
           "DELETE FROM starts WHERE model = ?1 AND id NOT IN (SELECT id FROM starts WHERE "
           "model = ?1 ORDER BY started_ms DESC, id DESC LIMIT ?2)");
    if (!s.ok()) return fail("prune");
    s.Text(1, r.model);
    s.Int(2, int64_t{options_.keep_per_model});
    if (s.Step() != SQLITE_DONE) return fail("prune");
  }
  if (Status st = Exec("COMMIT"); !st.ok()) {
    (void)Exec("ROLLBACK");
    return st;
  }
  return id;
}

Status HistoryStore::LoadPhases(StartRecord& r) {
  Stmt s(db_,
         "SELECT rank, phase, start_ms, end_ms, seconds FROM phases WHERE start_id = ? "
         "ORDER BY rowid");
  if (!s.ok()) return Error("read phases");
  s.Int(1, r.id);
  int rc;
  while ((rc = s.Step()) == SQLITE_ROW) {
    auto phase = ParsePhase(s.ColText(1));
    if (!phase) continue;
    RecordedSpan p;
    p.rank = s.ColText(0);
    p.phase = *phase;
    p.start_ms = s.OptInt<int64_t>(2);
    p.end_ms = s.OptInt<int64_t>(3);
    if (!s.Null(4)) p.seconds = s.ColReal(4);
    r.phases.push_back(std::move(p));
  }
  return rc == SQLITE_DONE ? Status::Ok() : Error("read phases");
}

Result<std::vector<StartRecord>> HistoryStore::Recent(const HistoryQuery& q) {
  std::string sql = fmt::format(
      "SELECT {} FROM starts WHERE (?1 = '' OR model = ?1 OR substr(model, -length(?1) - 1) = "
      "'/' || ?1 OR (?2 != '' AND ckpt_hash = ?2)) AND (?3 = '' OR host = ?3) "
      "ORDER BY started_ms DESC, id DESC LIMIT ?4",
      kColumns);
  std::vector<StartRecord> out;
  {
    // Reads see one snapshot: a writer committing meanwhile cannot tear starts from phases.
    if (Status st = Exec("BEGIN"); !st.ok()) return st;
    Stmt s(db_, sql.c_str());
    if (!s.ok()) {
      Status st = Error("read starts");
      (void)Exec("ROLLBACK");
      return st;
    }
    s.Text(1, q.model);
    s.Text(2, q.header_hash);
    s.Text(3, q.host);
    s.Int(4, int64_t{std::max(0, q.limit)});
    int rc;
    while ((rc = s.Step()) == SQLITE_ROW) out.push_back(ReadStart(s));
    if (rc != SQLITE_DONE) {
      Status st = Error("read starts");
      (void)Exec("ROLLBACK");
      return st;
    }
  }
  for (auto& r : out) {
    if (Status st = LoadPhases(r); !st.ok()) {
      (void)Exec("ROLLBACK");
      return st;
    }
  }
  (void)Exec("COMMIT");
  return out;
}

Result<std::optional<StartRecord>> HistoryStore::Get(int64_t id) {
  std::string sql = fmt::format("SELECT {} FROM starts WHERE id = ?", kColumns);
  Stmt s(db_, sql.c_str());
  if (!s.ok()) return Error("read start");
  s.Int(1, id);
  int rc = s.Step();
  if (rc == SQLITE_DONE) return std::optional<StartRecord>();
  if (rc != SQLITE_ROW) return Error("read start");
  StartRecord r = ReadStart(s);
  if (Status st = LoadPhases(r); !st.ok()) return st;
  return std::optional<StartRecord>(std::move(r));
}

}  // namespace spinup

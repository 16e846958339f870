// One recorded server start, as the history store keeps it: who started what where (host, model,
// checkpoint fingerprint, engine and version, the flags that change startup), how it went (per-rank
// phase spans, bytes read, restarts, verdict, exit status). Built from the plain structs the
// pipeline already produces (the final Verdict, the first Sample); nothing here does I/O.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "spinup/startup.h"

namespace spinup {

// What identifies a checkpoint's contents without reading tensor data: total bytes of the shard
// files, the shard count, and an XXH3-64 over every shard's parsed header (docs/history.md).
struct CheckpointFingerprint {
  uint64_t bytes = 0;
  int shards = 0;
  std::string header_hash;  // 16 lowercase hex digits
  bool operator==(const CheckpointFingerprint&) const = default;
};

// The server flags that change how long a start takes (parsed from its command line).
struct StartupFlags {
  std::optional<int> tp;
  std::optional<int> pp;
  std::optional<int> dp;
  std::string quantization;
  std::optional<int64_t> context_length;
  std::string speculative;  // every --speculative* / --num-speculative-tokens flag, "k=v;..."
  bool operator==(const StartupFlags&) const = default;
};
// Canonical text, the comparison key stored in the database: "tp=4 pp=1 ctx=32768 q=fp8".
// Absent values are left out.
std::string StartupFlagsKey(const StartupFlags& flags);

struct RecordedSpan {
  std::string rank;
  Phase phase = Phase::kLaunch;
  std::optional<int64_t> start_ms;
  std::optional<int64_t> end_ms;
  std::optional<double> seconds;
};

struct StartRecord {
  int64_t id = 0;  // assigned by the store
  int64_t started_ms = 0;
  std::optional<int64_t> ended_ms;
  std::optional<int64_t> ready_ms;  // when the start reached ready (nullopt: it never did)
  std::string host;
  std::string model;  // the model path (or hub id) as the server was given it
  std::optional<CheckpointFingerprint> fingerprint;
  std::string engine;
  std::string engine_version;
  StartupFlags flags;
  std::string spinup_version;
  std::optional<uint64_t> resident_bytes;  // page-cache residency of the checkpoint at launch
  std::optional<uint64_t> bytes_read;
  std::optional<double> read_bytes_per_s;
  int restarts = 0;
  State state = State::kUnknown;
  std::optional<int> exit_status;
  std::string source;     // "run", "watch" or "import"
  bool imported = false;  // from `explain --record`: a pasted log, not watched live
  std::vector<RecordedSpan> phases;
};

// How long each phase of the start took, start-wide: per phase, the longest rank (the start waits
// for its slowest rank). Only phases that ended are included.
std::map<Phase, double> PhaseSeconds(const StartRecord& record);
// When each phase ended, relative to the start (seconds), start-wide (latest rank).
std::map<Phase, double> PhaseEndOffsets(const StartRecord& record);
// Seconds from the start to ready, when the start reached it.
std::optional<double> SecondsToReady(const StartRecord& record);

// Everything a record needs that the verdict does not carry; resolved at the CLI edge.
struct RecordContext {
  std::string host;
  std::string model;
  std::optional<CheckpointFingerprint> fingerprint;
  std::string engine_version;
  StartupFlags flags;
  std::string spinup_version;
  std::string source = "run";
  bool imported = false;
  std::optional<int64_t> started_ms;       // first sample or event; else the timeline's first
  std::optional<int64_t> ended_ms;         // when the watch ended
  std::optional<uint64_t> resident_bytes;  // first sample's residency
  std::optional<uint64_t> checkpoint_bytes;
  int restarts = 0;  // the sources' count (systemd, run loop)
  std::optional<int> exit_status;
};

// Pure: the final verdict plus its context as a record.
StartRecord BuildRecord(const Verdict& verdict, const RecordContext& context);

}  // namespace spinup

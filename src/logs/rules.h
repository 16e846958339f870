// Rules are data: the per-engine phase patterns, the phase budgets and the known-cause knowledge
// base live in JSON files (rules/*.json, embedded into the binary; more with `--rules FILE`).
// A RuleSet parses those files, compiles every pattern once with RE2 (linear time: log text is
// untrusted) and answers "which rules match this message", running only the rules that cheap
// exact tests cannot rule out.
// The format is documented in docs/rules.md.
#pragma once

#include <re2/re2.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spinup/startup.h"
#include "spinup/status.h"

namespace spinup {

// What a matching line means. kNoise drops the line (it is not even log activity for the
// judge's evidence); kHint says "this line is printed inside `phase`" (traceback frames such as
// `in load_model`): it moves the rank forward to that phase but never back.
enum class RuleEmit {
  kPhaseBegin,
  kPhaseEnd,
  kProgress,
  kError,
  kFatal,
  kAttemptStart,
  kReady,
  kRequestServed,
  kHeartbeat,
  kInfo,
  kNoise,
  kHint,
  kFrame,     // a traceback frame naming its phase: the deepest frame of a crash says where
  kRestarts,  // a supervisor's restart count, captured by the rule's "n" group
};
std::optional<RuleEmit> ParseRuleEmit(std::string_view name);
std::string_view RuleEmitName(RuleEmit emit);

struct LogRule {
  std::string id;      // unique, e.g. "sglang.load_weight_begin"
  std::string engine;  // "sglang", "vllm", a user engine, or "generic" (applies to every engine)
  std::string regex;   // RE2 syntax, matched unanchored against the message (prefixes stripped)
  RuleEmit emit = RuleEmit::kInfo;
  std::optional<Phase> phase;
  // Capture group numbers (0 = none).
  int rank_group = 0;       // the rank is named inside the message (vLLM `world_size=2 rank=1`)
  std::string rank_prefix;  // prepended to the captured rank, e.g. "rank"
  int bar_group = 0;        // progress: the bar's description
  int n_group = 0;          // progress: n
  int total_group = 0;      // progress: total
  int elapsed_group = 0;    // phase_end: seconds the engine reports
  std::string bar;          // progress: fixed bar name when there is no bar_group
  bool detect = true;       // a match of an engine-specific rule identifies the engine
  std::string source;       // "file:line" where the rule was defined, for messages
};

// How long a phase normally takes and how long it may go without any progress signal.
// normal_s: over it the phase is marked slow. stall_s: no progress signal of any kind for this
// long means stalled. Weight loading scales with the checkpoint: normal = max(normal_s,
// GiB * per_gib_s) when the size is known.
struct PhaseBudget {
  std::string engine = "*";
  Phase phase = Phase::kLaunch;
  double normal_s = 60;
  double stall_s = 600;
  double per_gib_s = 0;
};

// The judge's thresholds for reading process signals and durations (a "thresholds" object in a
// rules file; later files override single keys).
struct JudgeThresholds {
  double cpu_idle_cores = 0.05;       // below: cpu_idle
  double cpu_busy_cores = 1.0;        // at or above: cpu_busy
  double wait_thread_fraction = 0.5;  // more threads than this in futex/poll waits: futex_waits
  int gpu_busy_percent = 90;          // utilisation at or above with flat memory: gpu_busy
  double quiet_log_s = 60;            // no log line for longer: no_log_lines
  double min_implicit_span_s = 0.5;   // shorter implied phases are left out of the timeline
  double error_quiet_s = 60;          // live: an error then silence this long means it died
};

// One way a known cause shows itself. Every non-empty group must hold:
//   rules / regex: any of these rule ids, or of these regexes (compiled as hidden rules
//            "cause.<id>.<n>"), matched in any attempt of the log;
//   phases:  the verdict's phase is one of these;
//   states:  the verdict's state is one of these;
//   signals: every named process signal holds (cpu_idle, cpu_busy, futex_waits, no_disk_reads,
//            disk_wait, reads_active, gpu_flat, gpu_busy, compiler_children, rank_lost: live
//            only; restarts, no_log_lines: offline too);
//   not_signals: none of these signals holds;
//   slow_phases: one of these phases is marked slow in the timeline.
// Signals from log lines: multi_node (a rule whose id starts with "multi_node." matched),
// oom_record (an OOM kill recorded by systemd or the kernel, or a SIGKILL: rules "oom_record.*",
// systemd.oom_killed, systemd.sigkill), stop_requested (systemd's "Stopping ...").
// Findings are ranked by how direct their evidence is: a cause regex or an error line first,
// then slow phases, then phase lines and process signals; file order breaks ties.
// A condition needs at least one of rules, regex, signals or slow_phases.
struct CauseCondition {
  std::vector<std::string> rules;  // after loading, regexes are here too (as hidden rule ids)
  std::vector<Phase> phases;
  std::vector<State> states;
  std::vector<std::string> signals;
  std::vector<std::string> not_signals;  // none of these may hold (e.g. multi_node for P2P)
  std::vector<Phase> slow_phases;
};

// A known cause of a slow, stuck or failed start (../shared/docs/hang-causes.md): offered as a
// Finding when any of its conditions holds.
struct KnownCause {
  std::string id;
  std::string title;
  std::string fix;
  std::string evidence;              // a sentence added to the evidence lines (may be empty)
  std::vector<std::string> engines;  // empty: any engine
  std::vector<CauseCondition> when;
  std::string source;
};

class RuleSet {
 public:
  RuleSet();
  ~RuleSet();
  RuleSet(RuleSet&&) noexcept;
  RuleSet& operator=(RuleSet&&) noexcept;

  // The longest regex a rule (or a cause's "when" regex) may have; longer ones are refused at
  // load with the file and line (docs/rules.md).
  static constexpr size_t kMaxRuleRegexBytes = 16 * 1024;

  // The rules compiled into the binary (rules/*.json), already compiled.
  static Result<RuleSet> LoadEmbedded();

  // Parses one rules file and appends its rules, budgets and causes. `name` is used in error
  // messages: "<name>:<line>: <problem>". Call Compile() after the last Add.
  Status AddFile(std::string_view name, std::string_view contents);
  // Reads `path` (read-only) and calls AddFile.
  Status AddPath(const std::string& path);
  // Compiles every regex (once) and builds the matcher. A bad regex names its file and line.
  Status Compile();

  // Indices (into rules()) of every rule whose regex matches `message`, ascending. Thread-safe.
  // Cheap exact tests pick the few rules that can match (see Compile) and only those run.
  void Match(std::string_view message, std::vector<int>* matched) const;
  // The same answer by running every rule's regex: the definition Match must agree with (tests
  // and the fuzz target compare the two).
  void MatchEveryRule(std::string_view message, std::vector<int>* matched) const;
  const RE2& regex(int i) const;

  const std::vector<LogRule>& rules() const { return rules_; }
  const std::vector<KnownCause>& causes() const { return causes_; }
  const std::vector<PhaseBudget>& budgets() const { return budgets_; }
  const JudgeThresholds& thresholds() const { return thresholds_; }
  // The budget for `phase` of `engine` (an engine-specific entry wins over "*"); a built-in
  // fallback when no file names the phase.
  PhaseBudget Budget(std::string_view engine, Phase phase) const;
  // The order an engine goes through the phases (a file's "phase_order"); the Phase enum order
  // when no file gives one.
  std::vector<Phase> PhaseOrder(std::string_view engine) const;
  // Engines that have at least one rule (generic excluded).
  std::vector<std::string> Engines() const;
  int FindRule(std::string_view id) const;  // -1 when absent

 private:
  std::vector<LogRule> rules_;
  std::vector<PhaseBudget> budgets_;
  std::vector<KnownCause> causes_;
  JudgeThresholds thresholds_;
  std::vector<std::pair<std::string, std::vector<Phase>>> orders_;
  std::vector<std::unique_ptr<RE2>> compiled_;
  // How Match tests one rule once it is a candidate. A regex made of plain literals ("Load
  // weight end\\.", "^Init nccl begin\\.", "^(?:Loading x|Multi-thread y)") needs no regex
  // engine: prefix compares and substring searches are exact.
  enum class Test : uint8_t { kRegex, kLiterals };
  struct Literal {
    bool prefix;  // '^': at the message start; else anywhere
    std::string text;
  };
  struct FastRule {
    Test test = Test::kRegex;
    bool anchored = false;    // starts with '^' outside any alternation
    bool ranged = false;      // min/max hold RE2::PossibleMatchRange of an anchored rule
    bool needs_atom = false;  // anchored with a loose range: one of its atoms must occur too
    // The rule's prefilter formula over its own atoms (at most kMaxFormulaAtoms of them), as a
    // truth table: bit m is set when the atoms in mask m occurring lets the rule through
    // (FilteredRE2's AND/OR, evaluated once per mask when compiling). 0: any one atom will do.
    uint64_t formula = 0;
    std::vector<Literal> literals;  // kLiterals: any one of them occurring is a match
    std::string min, max;           // every match m at the message start has min <= m <= max
    // min's first 8 bytes as a big-endian number (zero-padded), and whether max starts with the
    // same 8 bytes: a one-compare first check of the range (see Match).
    uint64_t min8 = 0;
    bool same8 = false;
  };
  std::vector<FastRule> fast_;
  // Anchored rules by the first byte of the message: a rule sits under every byte its matches
  // can start with (from its match range), so a message is tested against a handful of them.
  std::vector<std::vector<int>> anchored_by_byte_;  // 256 lists of rule indices
  // Unanchored rules (and anchored ones with a loose range, "^(?:Prefill|Decode) batch"): each
  // one's FilteredRE2 atoms (lowercase literals of 5+ bytes, at least one of which occurs in
  // every matching message). A trigram-indexed scan finds which atoms occur (one table lookup
  // per two bytes: each atom is indexed by two neighbouring trigrams, one of which starts at an
  // even offset of the message wherever the atom sits); only the rules of those atoms run.
  // Unanchored rules without atoms always run.
  // Small and contiguous so the scan's lookups stay in cache: entries grouped by slot
  // (hash & (kGramSlots - 1)), each carrying what the first check needs.
  struct GramEntry {
    uint64_t head;       // the atom's first 8 bytes (fewer: zero-padded)
    uint64_t head_mask;  // which bytes of head to compare
    uint32_t key;        // trigram hash
    uint32_t atom;
    uint32_t offset;  // where the trigram sits in the atom
    uint32_t size;    // the atom's length
  };
  static constexpr unsigned kGramSlots = 1024;
  std::vector<std::string> atoms_;
  struct AtomRule {
    int rule;
    int bit;  // the atom's position among the rule's own atoms
  };
  static constexpr size_t kMaxFormulaAtoms = 6;
  std::vector<std::vector<AtomRule>> atom_rules_;  // atom id → rules that have it
  std::vector<int> always_;                        // unanchored rules with no atom
  std::vector<GramEntry> gram_entries_;            // grouped by slot
  std::vector<uint32_t> gram_slot_start_;          // kGramSlots + 1 offsets into gram_entries_
  std::vector<uint64_t> gram_bits_;  // 65536 bits: some entry has a trigram of this hash
  bool compiled_ok_ = false;
};

}  // namespace spinup

// Rules are data: the per-engine phase patterns, the phase budgets and the known-cause knowledge
// base live in JSON files (rules/*.json, embedded into the binary; more with `--rules FILE`).
// A RuleSet parses and validates those files (the rule book), keeps the domain knowledge they
// carry (diagnose/knowledge.h) and answers "which rules match this message" through a
// PatternMatcher (logs/pattern_matcher.h: RE2, linear time, as log text is untrusted).
// The format is documented in docs/rules.md.
#pragma once

#include <re2/re2.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "diagnose/knowledge.h"
#include "logs/line_prefixes.h"
#include "logs/pattern_matcher.h"
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
  kFrame,        // a traceback frame naming its phase: the deepest frame of a crash says where
  kRestarts,     // a supervisor's restart count, captured by the rule's "n" group
  kEngineReady,  // the engine is ready, its HTTP server still starting: ready unless an error
                 // follows before the server says it is up or serves a request
  kStop,         // a stop was asked for (Ctrl+C, SIGTERM): the exit that follows is not a crash
  kForeign,      // another program's exception (an HTTP client's): the traceback it ends is not
                 // the server's
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
  // error/fatal: the line names the phase the failure is raised in (vLLM's free-memory check runs
  // after distributed init since 0.10 yet fails the device claim): the crash is judged in `phase`
  // even where phase lines went further.
  bool pin = false;
  // request_served: the HTTP server's answer to a request (an access-log line), which only a
  // server that was up prints, even after its engine died under the request.
  bool answer = false;
  // request_served: the line echoes a client's request (its prompt or parameters, as vLLM's
  // --enable-log-requests prints it): no other rule's match on it counts, the text is the client's.
  bool echo = false;
  // fatal: only a server that was up prints the line (a serving loop's death): the start had
  // succeeded (LogEvent::while_serving). attempt_start: the start serves HTTP (vLLM's API server
  // banner): an engine-only ready is its engine's, and the server's own line must follow.
  bool serving = false;
  // Any rule: on a node other than the head of a multi-node start (node_rank >= 1), the line is
  // that node's start done (SGLang's scheduler ready: a worker node serves no HTTP of its own).
  bool node_ready = false;
  // info: the engine runs inside the user's own program (sglang.Engine, vLLM's LLM()), which
  // starts no server: a node_ready line is then the start done, as on a worker node.
  bool in_process = false;
  // "relay" or "fallback": the line says less of where the failure was than other frames do.
  LogEvent::Role role = LogEvent::Role::kDirect;
  // noise: the info rules whose matches still count on its lines, by id or id prefix ending in
  // '.' ("multi_node."): a configuration dump is noise to every other rule, yet its multi-node
  // flags are facts.
  std::vector<std::string> keep;
  // Any rule: the line denies what these rules' matches on it assert, by id or id prefix ending
  // in '.' ("no OOMKilled in lastState" is no OOM record): their matches on it do not count.
  std::vector<std::string> cancels;
  // info: a fact the writer may state in their own sentences ("the weights are on our NFS
  // share"): those lines, read for no other rule, are read for these (RuleSet::ProseSubset).
  bool prose = false;
  std::string source;  // "file:line" where the rule was defined, for messages
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
  // Cheap exact tests pick the few rules that can match (see PatternMatcher) and only those run.
  // `subset` 0 is every rule; EngineSubset gives a smaller one.
  void Match(std::string_view message, std::vector<int>* matched, int subset = 0,
             std::vector<int>* regex_runs = nullptr) const {
    matcher_.Match(message, matched, subset, regex_runs);
  }
  // The matcher subset holding `engine`'s rules and the generic ones (only the generic ones when
  // no rule names `engine`). For a caller whose engine is settled, which ignores every other
  // engine's rules anyway (LogStream): Match with it answers as Match does, less those rules.
  int EngineSubset(std::string_view engine) const;
  // The matcher subset of the rules that read a writer's sentences (LogRule::prose); -1 if none.
  int ProseSubset() const { return prose_subset_; }
  // The same answer by running every rule's regex: the definition Match must agree with (tests
  // and the fuzz target compare the two).
  void MatchEveryRule(std::string_view message, std::vector<int>* matched) const {
    matcher_.MatchEveryRule(message, matched);
  }
  const RE2& regex(int i) const { return matcher_.regex(i); }
  // Rules tried on every line (PatternMatcher::TriedOnEveryMessage).
  std::vector<int> RulesTriedOnEveryLine() const { return matcher_.TriedOnEveryMessage(); }
  // Line prefixes taught by the files ("prefixes"), for engines the built-in parsers do not know.
  const PrefixBook& prefixes() const { return prefixes_; }

  const std::vector<LogRule>& rules() const { return rules_; }
  const std::vector<KnownCause>& causes() const { return knowledge_.causes; }
  const std::vector<PhaseBudget>& budgets() const { return knowledge_.budgets; }
  const JudgeThresholds& thresholds() const { return knowledge_.thresholds; }
  const StartupKnowledge& knowledge() const { return knowledge_; }
  // The budget for `phase` of `engine` (an engine-specific entry wins over "*"); a built-in
  // fallback when no file names the phase.
  PhaseBudget Budget(std::string_view engine, Phase phase) const {
    return knowledge_.Budget(engine, phase);
  }
  // The order an engine goes through the phases (a file's "phase_order"); the Phase enum order
  // when no file gives one.
  std::vector<Phase> PhaseOrder(std::string_view engine) const {
    return knowledge_.PhaseOrder(engine);
  }
  // Engines that have at least one rule (generic excluded).
  std::vector<std::string> Engines() const;
  int FindRule(std::string_view id) const;  // -1 when absent

 private:
  void BuildEngineSubsets();

  std::vector<LogRule> rules_;
  StartupKnowledge knowledge_;
  PatternMatcher matcher_;
  PrefixBook prefixes_;
  std::vector<std::pair<std::string, int>> engine_subsets_;  // engine → matcher subset
  int generic_subset_ = 0;
  int prose_subset_ = -1;
};

}  // namespace spinup

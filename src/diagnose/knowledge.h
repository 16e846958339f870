// The domain knowledge the judge reads: how long each phase may take, the thresholds for
// reading process signals, the known causes of slow or failed starts, and each engine's phase
// order. Plain data, loaded from rules/*.json by RuleSet (logs/rules.h); see docs/rules.md.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "spinup/startup.h"

namespace spinup {

// How long a phase normally takes and how long it may go without any progress signal.
// normal_s: over it the phase is marked slow. stall_s: no progress signal of any kind for this
// long means stalled. Weight loading and the download grow with the checkpoint: normal = normal_s
// + GiB * per_gib_s when the size is known.
struct PhaseBudget {
  std::string engine = "*";
  Phase phase = Phase::kLaunch;
  double normal_s = 60;
  double stall_s = 600;
  double per_gib_s = 0;
  double stall_per_gib_s = 0;  // likewise the stall time: max(stall_s, GiB * stall_per_gib_s)
};

// The judge's thresholds for reading process signals and durations (a "thresholds" object in a
// rules file; later files override single keys).
struct JudgeThresholds {
  double cpu_idle_cores = 0.05;        // below: cpu_idle
  double cpu_busy_cores = 1.0;         // at or above: cpu_busy
  double wait_thread_fraction = 0.5;   // more threads than this in futex/poll waits: futex_waits
  int gpu_busy_percent = 90;           // utilisation at or above with flat memory: gpu_busy
  double quiet_log_s = 60;             // no log line for longer: no_log_lines
  double min_implicit_span_s = 0.5;    // shorter implied phases are left out of the timeline
  double error_quiet_s = 60;           // live: an error then silence this long means it died
  double engine_ready_serving_s = 30;  // a failure this long after an engine-only ready: serving
  // A start whose banner says it serves HTTP, still without its server's line this long after its
  // engine said it was ready: the HTTP start hung (0: never).
  double server_start_wait_s = 120;
  int gpus_per_node = 8;  // a TP or global rank at or past this: several nodes
  // A GPU out-of-memory message whose figures leave at least this share of the device to other
  // processes: gpu_held_elsewhere (0: never).
  double gpu_held_elsewhere_fraction = 0.5;
  // A start that became ready names a cause for a slow phase only past this many times the
  // phase's normal time: a capture 10 s over its minute slowed nothing worth a cause. (Not for
  // budgets scaled by the checkpoint's size, which know what the start reads.)
  double ready_slow_factor = 1.25;
};

// One way a known cause shows itself. Every non-empty group must hold:
//   rules:   any of these rule ids matched in any attempt of the log;
//   regex:   any of these regexes (compiled as hidden rules "cause.<id>.<n>") matched in any
//            attempt; with "rules" both must hold (a CUDA OOM and a KV-allocation frame);
//   phases:  the verdict's phase is one of these;
//   states:  the verdict's state is one of these;
//   signals: every named process signal holds (cpu_idle, cpu_busy, futex_waits, no_disk_reads,
//            disk_wait, reads_active, gpu_flat, gpu_busy, compiler_children, rank_lost: live
//            only; restarts, no_log_lines: offline too);
//   not_signals: none of these signals holds;
//   not_rules: none of these rule ids matched in the attempt judged (a line that explains the
//            evidence away: vLLM's own "Got fatal signal ..." before the shell's "Killed");
//   slow_phases: one of these phases is marked slow in the timeline.
// Signals from log lines: multi_node (a rule whose id starts with "multi_node." matched),
// oom_record (an OOM kill recorded by systemd or the kernel, or a SIGKILL: rules "oom_record.*",
// systemd.oom_killed, systemd.sigkill), stop_requested (systemd's "Stopping ...").
// Findings are ranked by how direct their evidence is: a cause regex or an error line first,
// then slow phases, then phase lines and process signals; file order breaks ties.
// A condition needs at least one of rules, regex, signals or slow_phases.
struct CauseCondition {
  std::vector<std::string> rules;
  std::vector<std::string> regex_rules;  // the "regex" list, as hidden rule ids
  std::vector<Phase> phases;
  std::vector<State> states;
  std::vector<std::string> signals;
  std::vector<std::string> not_signals;  // none of these may hold (e.g. multi_node for P2P)
  std::vector<std::string> not_rules;    // none of these rules may have matched in the attempt
  std::vector<Phase> slow_phases;
  // The evidence says that something failed (a step failed, a peer timed out, the process was
  // killed), not what: a cause whose own evidence the verdict quotes comes first.
  bool consequence = false;
  // Its rules count only where their latest line came after the judged attempt's latest progress:
  // a wait that the start then got past (shared-memory broadcast waits during a compile that
  // finished) is no evidence of what holds it now.
  bool since_progress = false;
};

// A known cause of a slow, stuck or failed start (../shared/docs/hang-causes.md): offered as a
// Finding when any of its conditions holds.
struct KnownCause {
  std::string id;
  std::string title;
  std::string fix;
  std::string why;                   // why the evidence points at this cause (may be empty)
  std::vector<std::string> engines;  // empty: any engine
  // The cause can make a start slow without failing it (slow reads, a cold JIT): it may be named
  // on a start that became ready at its first attempt. A failure's cause is not (a warning that
  // an import failed, a download retried, before a server that came up).
  bool slows_a_start = false;
  // The cause's evidence is the root of the errors around it (a GPU's own fault record under the
  // CUDA error it raised): it is named before causes whose evidence is those errors.
  bool underlies = false;
  // Causes whose findings that only say a step failed ("consequence") this cause's own evidence
  // accounts for: /dev/shm too small is why NCCL's setup failed, so no P2P guess beside it.
  std::vector<std::string> explains;
  // Flags or settings (lowercase) whose use, the report's writer says, made the start work
  // ("with --disable-custom-all-reduce it comes up in 50 s"): the cause they work around is named.
  std::vector<std::string> confirmed_by;
  std::vector<CauseCondition> when;
  std::string source;
};

// How an engine's ranks move together (an engine file's "ranks" object). A rank whose name holds
// one of `coordinators` coordinates workers instead of running the model (vLLM's engine core and
// API server): a failure it relays happened where its workers were. From `lockstep_from` on,
// tensor-parallel ranks do each phase's collective work together (the profile run's and the
// graphs' all-reduces, a warm-up batch), so a rank seen in such a phase shows its peers got there.
struct EngineRanks {
  std::vector<std::string> coordinators;
  std::optional<Phase> lockstep_from;  // none: no phase is known to be done in lockstep
  // Name endings (after the rank number is dropped) of ranks that each run their own engine (a
  // data-parallel group: vLLM's EngineCore_DP0 and EngineCore_DP1): never in lockstep.
  std::vector<std::string> independent;
  // Each rank runs a main program of its own (TGI's shards, TensorRT-LLM's mpirun ranks): a
  // traceback that opens at a program's entry may be any rank's, so a second one is no restart.
  bool own_main = false;
};

// Words in the names wrappers give a log's programs (a compose service, a container, a journald
// ident), lowercase, from the files' "programs": a name holding an engine word runs an engine and
// is never another program's; one holding an "others" word is a known other program (a web UI, a
// proxy, a database) from its first line. Each file's words are added to the earlier ones'.
struct ProgramWords {
  std::vector<std::string> engines;
  std::vector<std::string> others;
};

// A model family whose names carry no parameter count ("DeepSeek-R1", "Kimi-K2-Instruct"), from
// the files' "model_sizes": a name holding `name` (lowercase) is a checkpoint of about this size
// when the name gives no count of its own ("DeepSeek-R1-Distill-Qwen-7B" is 7B).
struct ModelFamilySize {
  std::string name;
  double params_b = 0;          // billions of parameters, every expert counted
  double bytes_per_weight = 2;  // as published (DeepSeek-V3 ships FP8: 1)
};

// Everything above, as loaded from the rules files (later files override earlier ones).
struct StartupKnowledge {
  std::vector<PhaseBudget> budgets;
  std::vector<KnownCause> causes;
  JudgeThresholds thresholds;
  std::vector<std::pair<std::string, std::vector<Phase>>> orders;  // engine → phase order
  std::vector<std::pair<std::string, EngineRanks>> ranks;          // engine → how its ranks move
  ProgramWords programs;
  std::vector<ModelFamilySize> model_sizes;  // longer names first (a later file's first on ties)

  // The budget for `phase` of `engine` (an engine-specific entry wins over "*"); a built-in
  // fallback when no file names the phase.
  PhaseBudget Budget(std::string_view engine, Phase phase) const;
  // The order an engine goes through the phases (a file's "phase_order"); the Phase enum order
  // when no file gives one.
  std::vector<Phase> PhaseOrder(std::string_view engine) const;
  // The engine's "ranks" (the last file's); none known when no file gives them.
  EngineRanks Ranks(std::string_view engine) const;
};

}  // namespace spinup

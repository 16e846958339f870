// The corpus measurement shared by the corpus test (tests/explain_corpus_test.cc) and
// bench/diagnosis-accuracy: every labelled real log in ../shared/corpus is judged through
// `explain`'s path (and replayed through `watch`'s), and compared with its label.
//
// Halves: cases are split by the parity of their number. Rules are written looking only at the
// even half ("dev"); the odd half ("held_out") is only measured. See docs/accuracy.md.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "logs/rules.h"
#include "spinup/startup.h"

namespace spinup::corpus {

struct Case {
  std::string file;
  int number = 0;
  std::string engine;       // from the file name ("sglang", "vllm", "tgi", "tensorrt_llm")
  std::string outcome;      // label: ready, slow_then_ready, hung, crashed, crash_loop, unknown
  std::string stuck_phase;  // label phase word, "" for null
  std::string root_cause;   // label text, "" for null
  // The excerpt itself shows the outcome (labels' excerpt_supports; older cases: true unless
  // listed in tests/data/corpus_notes.json as beyond the excerpt).
  bool excerpt_supports = true;
  std::vector<std::string> causes;  // acceptable cause ids (tests/data/corpus_causes.json)
  bool cause_in_log = false;        // the excerpt shows the cause (same file)
  bool held_out() const { return number % 2 == 1; }
};

// Label phase words → spinup's phases ("model_init" → weight_load, "http_warmup" → warmup, ...).
std::string MapPhase(const std::string& label);

// Cases from `shared/corpus/labels.jsonl` and the annotation files under `source/tests/data`.
std::vector<Case> LoadCases(const std::filesystem::path& shared,
                            const std::filesystem::path& source);

struct Judged {
  std::string outcome;  // spinup's state name
  std::string phase;    // spinup's phase name
  std::string slowest;  // slowest timed phase ("" when none)
  bool any_slow = false;
  std::string engine;
  int attempts = 0;
  std::string first_cause;  // first finding's id, "" when none
  std::string headline;
  std::optional<double> stalled_seconds, phase_seconds;  // as the verdict states them
  std::optional<double> log_seconds;  // from the log's first to its last timestamp (Explain only)
};

// `explain` on the log text (offline; the log's own clock).
Judged Explain(const RuleSet& rules, const std::string& text);
// `watch --log` on the same text, replayed line by line with the log's own timestamps as the
// clock, judged when the log ends. Live states map to offline words (progressing → in_progress).
Judged WatchReplay(const RuleSet& rules, const std::string& text);

struct Score {
  bool outcome_ok = false;
  bool phase_ok = false;         // outcome and phase
  std::optional<bool> cause_ok;  // set when the case has a cause shown in the log
};
Score ScoreCase(const Case& c, const Judged& j);

}  // namespace spinup::corpus

// bench/diagnosis-accuracy: agreement of spinup's verdicts with the labelled real logs in
// ../shared/corpus, per half (even case numbers: dev, looked at while writing rules; odd:
// held_out, only measured), per engine and per outcome. Only cases whose excerpt supports the
// label count; the first-cause column counts cases whose log shows the cause.
//   spinup_diagnosis_accuracy SHARED_DIR SOURCE_DIR [--list]   (--list: the dev half's misses)
#include <fmt/format.h>

#include <map>
#include <string>

#include "corpus_eval.h"
#include "diagnose/startup_session.h"

namespace {

struct Tally {
  int n = 0, outcome = 0, phase = 0, cause_n = 0, cause = 0;
  void Add(const spinup::corpus::Score& s) {
    ++n;
    outcome += s.outcome_ok;
    phase += s.phase_ok;
    if (s.cause_ok) {
      ++cause_n;
      cause += *s.cause_ok;
    }
  }
};

std::string Pct(int a, int b) {
  return b == 0 ? "-" : fmt::format("{}/{} {:.0f}%", a, b, 100.0 * a / b);
}

void Print(const std::string& title, const std::map<std::string, Tally>& rows) {
  fmt::print("  {:<22} {:>12} {:>16} {:>14}\n", title, "outcome", "outcome+phase", "first cause");
  for (const auto& [k, t] : rows) {
    fmt::print("  {:<22} {:>12} {:>16} {:>14}\n", k, Pct(t.outcome, t.n), Pct(t.phase, t.n),
               Pct(t.cause, t.cause_n));
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    fmt::print(stderr, "usage: {} SHARED_DIR SOURCE_DIR [--list]\n", argv[0]);
    return 2;
  }
  const bool list = argc > 3 && std::string(argv[3]) == "--list";
  auto rules = spinup::LoadRules({});
  if (!rules.ok()) {
    fmt::print(stderr, "{}\n", rules.status().message());
    return 1;
  }
  auto cases = spinup::corpus::LoadCases(argv[1], argv[2]);
  if (cases.empty()) {
    fmt::print(stderr, "no corpus at {}/corpus\n", argv[1]);
    return 1;
  }
  int skipped = 0;
  for (const char* half : {"dev", "held_out"}) {
    std::map<std::string, Tally> by_engine, by_outcome;
    Tally all;
    for (const auto& c : cases) {
      if (c.held_out() != (std::string(half) == "held_out")) continue;
      if (!c.excerpt_supports) {
        skipped += std::string(half) == "dev";
        continue;
      }
      std::string text;
      {
        std::FILE* f = std::fopen((std::string(argv[1]) + "/corpus/" + c.file).c_str(), "rb");
        if (!f) continue;
        char buf[65536];
        size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
        std::fclose(f);
      }
      auto j = spinup::corpus::Explain(*rules, text);
      auto s = spinup::corpus::ScoreCase(c, j);
      by_engine[c.engine].Add(s);
      by_outcome[c.outcome].Add(s);
      all.Add(s);
      // Only the dev half is ever listed: the held-out half is measured, not read.
      if (list && !c.held_out() && (!s.phase_ok || (s.cause_ok && !*s.cause_ok))) {
        fmt::print("    {:<44} label {}/{} → {}/{} slowest {} cause {} (want {})\n", c.file,
                   c.outcome, c.stuck_phase, j.outcome, j.phase, j.slowest,
                   j.first_cause.empty() ? "-" : j.first_cause,
                   c.causes.empty() ? "-" : c.causes.front());
      }
    }
    fmt::print("{} half ({} cases whose excerpt supports the label)\n", half, all.n);
    Print("engine", by_engine);
    Print("outcome", by_outcome);
    Print("all", {{"all", all}});
    fmt::print("\n");
  }
  return 0;
}

// The knowledge a rules file carries beside its rules: phase orders, how ranks move, budgets,
// thresholds and known causes (knowledge.h), validated with the file's name and line.
#include <set>
#include <utility>

#include "base/ascii.h"
#include "logs/rules_parse.h"

namespace spinup::rules_parse {
namespace {

const std::set<std::string>& KnownSignals() {
  static const std::set<std::string> s = {"multi_node",
                                          "oom_record",
                                          "stop_requested",
                                          "cpu_idle",
                                          "futex_waits",
                                          "no_disk_reads",
                                          "disk_wait",
                                          "reads_active",
                                          "gpu_flat",
                                          "gpu_busy",
                                          "compiler_children",
                                          "rank_lost",
                                          "restarts",
                                          "cpu_busy",
                                          "no_log_lines",
                                          "rank_behind",
                                          "killed_after_stall",
                                          "killed_after_error",
                                          "collectives_differ",
                                          "engine_behind",
                                          "gpu_held_elsewhere",
                                          "nvlink",
                                          "start_timed_out",
                                          "timed_out_when_up",
                                          "compile_done_then_progress"};
  return s;
}

// Every key is optional; an unknown key or a negative value is an error (a typo must not
// silently keep the default).
JudgeThresholds ParseThresholds(const json& j, JudgeThresholds t, int line) {
  for (const auto& [key, value] : j.items()) {
    if (!value.is_number() || value.get<double>() < 0) {
      throw FileError{line, "threshold \"" + key + "\" must be a non-negative number"};
    }
    const double x = value.get<double>();
    if (key == "cpu_idle_cores") {
      t.cpu_idle_cores = x;
    } else if (key == "cpu_busy_cores") {
      t.cpu_busy_cores = x;
    } else if (key == "wait_thread_fraction") {
      t.wait_thread_fraction = x;
    } else if (key == "gpu_busy_percent") {
      t.gpu_busy_percent = static_cast<int>(std::min(x, 100.0));
    } else if (key == "quiet_log_s") {
      t.quiet_log_s = x;
    } else if (key == "min_implicit_span_s") {
      t.min_implicit_span_s = x;
    } else if (key == "error_quiet_s") {
      t.error_quiet_s = x;
    } else if (key == "engine_ready_serving_s") {
      t.engine_ready_serving_s = x;
    } else if (key == "server_start_wait_s") {
      t.server_start_wait_s = x;
    } else if (key == "gpus_per_node") {
      t.gpus_per_node = static_cast<int>(std::min(x, 1e6));
    } else if (key == "gpu_held_elsewhere_fraction") {
      t.gpu_held_elsewhere_fraction = x;
    } else if (key == "ready_slow_factor") {
      t.ready_slow_factor = x;
    } else {
      throw FileError{line, "unknown threshold \"" + key + "\""};
    }
  }
  return t;
}

// A condition's regexes become one hidden rule ("cause.<id>.<n>"), their alternation: one
// candidate for the matcher instead of one per pattern.
void AddHiddenRules(const json& w, const KnownCause& kc, int cline, int& hidden_n,
                    CauseCondition& cond, FileParse& f) {
  const std::vector<std::string> patterns = StrList(w, "regex", cline);
  if (patterns.empty()) return;
  std::string alternation;
  for (const auto& re : patterns) {
    CheckRegexLength(re, "cause \"" + kc.id + "\"", cline);
    if (!alternation.empty()) alternation += '|';
    alternation += "(?:" + re + ")";
  }
  LogRule hidden;
  hidden.id = "cause." + kc.id + "." + std::to_string(hidden_n++);
  hidden.engine = "generic";
  hidden.regex = std::move(alternation);
  hidden.emit = RuleEmit::kInfo;
  hidden.detect = false;
  hidden.source = f.fname + ":" + std::to_string(cline);
  cond.regex_rules.push_back(hidden.id);
  f.out.rules.push_back(std::move(hidden));
}

CauseCondition ParseCondition(const json& w, const KnownCause& kc, int cline, int& hidden_n,
                              FileParse& f) {
  if (!w.is_object()) throw FileError{cline, "each \"when\" entry must be an object"};
  CauseCondition cond;
  cond.rules = StrList(w, "rules", cline);
  AddHiddenRules(w, kc, cline, hidden_n, cond, f);
  for (const auto& p : StrList(w, "phases", cline)) cond.phases.push_back(PhaseOf(p, cline));
  for (const auto& p : StrList(w, "slow_phases", cline)) {
    cond.slow_phases.push_back(PhaseOf(p, cline));
  }
  for (const auto& sname : StrList(w, "states", cline)) {
    auto st = ParseState(sname);
    if (!st) {
      throw FileError{cline, "cause \"" + kc.id + "\": unknown state \"" + sname + "\""};
    }
    cond.states.push_back(*st);
  }
  cond.signals = StrList(w, "signals", cline);
  cond.not_signals = StrList(w, "not_signals", cline);
  cond.not_rules = StrList(w, "not_rules", cline);
  cond.consequence = Bool(w, "consequence", cline).value_or(false);
  cond.since_progress = Bool(w, "since_progress", cline).value_or(false);
  std::vector<std::string> all_signals = cond.signals;
  all_signals.insert(all_signals.end(), cond.not_signals.begin(), cond.not_signals.end());
  for (const auto& sname : all_signals) {
    if (!KnownSignals().count(sname)) {
      throw FileError{cline, "cause \"" + kc.id + "\": unknown signal \"" + sname + "\""};
    }
  }
  if (cond.rules.empty() && cond.regex_rules.empty() && cond.signals.empty() &&
      cond.slow_phases.empty()) {
    throw FileError{cline, "cause \"" + kc.id +
                               "\": each \"when\" entry needs rules, regex, signals or "
                               "slow_phases"};
  }
  return cond;
}

}  // namespace

void ParsePhaseOrder(const json& doc, FileParse& f) {
  auto o = doc.find("phase_order");
  if (o == doc.end()) return;
  int line = f.lines.FindKey("phase_order");
  if (f.file_engine.empty()) throw FileError{line, "\"phase_order\" needs a file \"engine\""};
  std::vector<Phase> order;
  for (const auto& name : StrList(doc, "phase_order", line)) {
    Phase p = PhaseOf(name, line);
    // An order is a sequence of distinct phases that starts with launch and ends at ready:
    // anything else would make "the next phase" and "how far it got" meaningless.
    if (std::find(order.begin(), order.end(), p) != order.end()) {
      throw FileError{line, "\"phase_order\" lists \"" + name + "\" twice"};
    }
    order.push_back(p);
  }
  if (order.empty() || order.front() != Phase::kLaunch || order.back() != Phase::kReady) {
    throw FileError{line, "\"phase_order\" must start with \"launch\" and end with \"ready\""};
  }
  f.out.orders.emplace_back(f.file_engine, std::move(order));
}

// "ranks": {"coordinators": ["EngineCore"], "lockstep_from": "kv_cache"} (knowledge.h).
void ParseRanks(const json& doc, FileParse& f) {
  auto o = doc.find("ranks");
  if (o == doc.end()) return;
  const int line = f.lines.FindKey("ranks");
  if (f.file_engine.empty()) throw FileError{line, "\"ranks\" needs a file \"engine\""};
  if (!o->is_object()) throw FileError{line, "\"ranks\" must be an object"};
  for (const auto& [key, value] : o->items()) {
    if (key != "coordinators" && key != "lockstep_from" && key != "independent" &&
        key != "own_main") {
      throw FileError{line, "unknown \"ranks\" key \"" + key + "\""};
    }
  }
  EngineRanks r;
  r.coordinators = StrList(*o, "coordinators", line);
  for (const auto& name : r.coordinators) {
    if (name.empty()) throw FileError{line, "an empty coordinator name matches every rank"};
  }
  r.independent = StrList(*o, "independent", line);
  for (const auto& end : r.independent) {
    if (end.empty()) throw FileError{line, "an empty \"independent\" ending matches every rank"};
  }
  if (std::string from = Str(*o, "lockstep_from", line); !from.empty()) {
    r.lockstep_from = PhaseOf(from, line);
  }
  r.own_main = Bool(*o, "own_main", line).value_or(false);
  f.out.ranks = std::move(r);
}

void ParseBudgets(const json& doc, FileParse& f) {
  auto budgets_it = doc.find("budgets");
  if (budgets_it == doc.end()) return;
  int line = f.lines.FindKey("budgets");
  if (!budgets_it->is_array()) throw FileError{line, "\"budgets\" must be a list"};
  for (const auto& b : *budgets_it) {
    if (!b.is_object()) throw FileError{line, "each budget must be an object"};
    PhaseBudget pb;
    pb.engine = Str(b, "engine", line);
    if (pb.engine.empty()) pb.engine = f.file_engine.empty() ? "*" : f.file_engine;
    pb.phase = PhaseOf(Str(b, "phase", line, true), line);
    pb.normal_s = Num(b, "normal_s", line, 60);
    pb.stall_s = Num(b, "stall_s", line, 600);
    pb.per_gib_s = Num(b, "per_gib_s", line, 0);
    pb.stall_per_gib_s = Num(b, "stall_per_gib_s", line, 0);
    f.out.budgets.push_back(pb);
  }
}

// "programs": {"engines": ["vllm"], "others": ["nginx"]}: words of program names (knowledge.h),
// matched as lowercase substrings, so a word is lowercased here and must not be empty.
void ParsePrograms(const json& doc, FileParse& f) {
  auto o = doc.find("programs");
  if (o == doc.end()) return;
  const int line = f.lines.FindKey("programs");
  if (!o->is_object()) throw FileError{line, "\"programs\" must be an object"};
  for (const auto& [key, value] : o->items()) {
    if (key != "engines" && key != "others") {
      throw FileError{line, "unknown \"programs\" key \"" + key + "\""};
    }
  }
  for (const char* key : {"engines", "others"}) {
    std::vector<std::string> words = StrList(*o, key, line);
    for (std::string& w : words) {
      if (w.empty() || w.size() > 64) {
        throw FileError{line, std::string("a \"programs\" word must have 1 to 64 characters")};
      }
      w = AsciiLower(w);
    }
    (key[0] == 'e' ? f.out.programs.engines : f.out.programs.others) = std::move(words);
  }
}

// "model_sizes": [{"name": "deepseek-r1", "params_b": 671, "bytes_per_weight": 1}] (knowledge.h).
void ParseModelSizes(const json& doc, FileParse& f) {
  auto list = doc.find("model_sizes");
  if (list == doc.end()) return;
  const int line = f.lines.FindKey("model_sizes");
  if (!list->is_array()) throw FileError{line, "\"model_sizes\" must be a list"};
  for (const auto& m : *list) {
    if (!m.is_object()) throw FileError{line, "each model size must be an object"};
    ModelFamilySize s;
    s.name = AsciiLower(Str(m, "name", line, true));
    s.params_b = Num(m, "params_b", line, 0);
    s.bytes_per_weight = Num(m, "bytes_per_weight", line, 2);
    if (s.name.size() < 3 || s.name.size() > 64) {
      throw FileError{line, "a model size's \"name\" must have 3 to 64 characters"};
    }
    if (!(s.params_b > 0 && s.params_b <= 10000) ||
        !(s.bytes_per_weight > 0 && s.bytes_per_weight <= 4)) {
      throw FileError{line, "model size \"" + s.name +
                                "\": params_b must be in (0, 10000], bytes_per_weight in (0, 4]"};
    }
    f.out.model_sizes.push_back(std::move(s));
  }
}

void ParseThresholdsKey(const json& doc, const JudgeThresholds& current, FileParse& f) {
  auto th = doc.find("thresholds");
  if (th == doc.end()) return;
  int line = f.lines.FindKey("thresholds");
  if (!th->is_object()) throw FileError{line, "\"thresholds\" must be an object"};
  f.out.thresholds = ParseThresholds(*th, current, line);
}

void ParseCauses(const json& doc, FileParse& f) {
  auto causes_it = doc.find("causes");
  if (causes_it == doc.end()) return;
  int line = f.lines.FindKey("causes");
  if (!causes_it->is_array()) throw FileError{line, "\"causes\" must be a list"};
  for (const auto& c : *causes_it) {
    if (!c.is_object()) throw FileError{line, "each cause must be an object"};
    KnownCause kc;
    kc.id = Str(c, "id", line, true);
    int cline = f.lines.Find(kc.id);
    kc.title = Str(c, "title", cline, true);
    kc.fix = Str(c, "fix", cline, true);
    // "evidence" is this key's old name, still read.
    kc.why = c.contains("why") ? Str(c, "why", cline) : Str(c, "evidence", cline);
    kc.engines = StrList(c, "engines", cline);
    kc.slows_a_start = Bool(c, "slows_a_start", cline).value_or(false);
    kc.underlies = Bool(c, "underlies", cline).value_or(false);
    kc.explains = StrList(c, "explains", cline);
    kc.confirmed_by = StrList(c, "confirmed_by", cline);
    for (std::string& flag : kc.confirmed_by) {
      // A flag or a setting: the sentence's check only looks at lines that hold one.
      if (flag.find_first_of("-_=") == std::string::npos) {
        throw FileError{cline,
                        "\"confirmed_by\" entries must be flags or settings (with -, _ or =)"};
      }
      flag = AsciiLower(flag);
    }
    auto when_it = c.find("when");
    if (when_it == c.end() || !when_it->is_array() || when_it->empty()) {
      throw FileError{cline, "cause \"" + kc.id + "\" needs a non-empty \"when\" list"};
    }
    int hidden_n = 0;
    for (const auto& w : *when_it) kc.when.push_back(ParseCondition(w, kc, cline, hidden_n, f));
    kc.source = f.fname + ":" + std::to_string(cline);
    f.out.causes.push_back(std::move(kc));
  }
}

}  // namespace spinup::rules_parse

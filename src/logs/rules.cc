#include "logs/rules.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <nlohmann/json.hpp>
#include <set>
#include <unordered_set>

#include "logs/embedded_rules.h"

namespace spinup {
namespace {

using nlohmann::json;

constexpr std::array<std::string_view, 16> kEmitNames = {
    "phase_begin", "phase_end",      "progress",     "error", "fatal", "attempt_start",
    "ready",       "request_served", "heartbeat",    "info",  "noise", "hint",
    "frame",       "restarts",       "engine_ready", "stop"};

// 1-based line of byte offset `pos` in `text`.
int LineOf(std::string_view text, size_t pos) {
  pos = std::min(pos, text.size());
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + pos, '\n'));
}

// Where `"needle"` appears, so semantic errors can point into the file even though the JSON
// parser keeps no positions for values. Linear over a whole file: lines come from a table of
// newline offsets (binary search), and each search starts where the previous one ended, because
// ids are looked up in file order. A needle not found after the cursor (a "causes" list before
// the "rules", an id written with escapes) is searched from the start a bounded number of times,
// then gets the cursor's line: 20,000 rules used to cost 20,000 scans of the file.
class LineFinder {
 public:
  explicit LineFinder(std::string_view text) : text_(text) {
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') newlines_.push_back(i);
    }
  }
  int LineAt(size_t pos) const {
    return 1 + static_cast<int>(std::lower_bound(newlines_.begin(), newlines_.end(), pos) -
                                newlines_.begin());
  }
  int Find(std::string_view needle) {
    quoted_.assign(1, '"').append(needle).push_back('"');
    size_t pos = text_.find(quoted_, cursor_);
    if (pos == std::string_view::npos && rescans_left_ > 0) {
      --rescans_left_;
      pos = text_.find(quoted_);
    }
    if (pos == std::string_view::npos) return LineAt(cursor_);
    cursor_ = pos + quoted_.size();
    return LineAt(pos);
  }
  // A top-level key: searched from the start (a handful per file).
  int FindKey(std::string_view key) const {
    size_t pos = text_.find("\"" + std::string(key) + "\"");
    return pos == std::string_view::npos ? 1 : LineAt(pos);
  }

 private:
  std::string_view text_;
  std::vector<size_t> newlines_;
  size_t cursor_ = 0;
  int rescans_left_ = 16;
  std::string quoted_;
};

struct FileError {
  int line;
  std::string message;
};

// A regex longer than kMaxRuleRegexBytes is refused at load (RE2's compile and the matcher's
// atom analysis grow with it: one 5 MB regex took over a minute).
void CheckRegexLength(const std::string& regex, const std::string& owner, int line) {
  if (regex.size() > RuleSet::kMaxRuleRegexBytes) {
    throw FileError{line, owner + ": regex of " + std::to_string(regex.size()) +
                              " bytes is over the " + std::to_string(RuleSet::kMaxRuleRegexBytes) +
                              "-byte cap"};
  }
}

std::string Str(const json& j, const char* key, int line, bool required = false) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) {
    if (required) throw FileError{line, std::string("missing \"") + key + "\""};
    return {};
  }
  if (!it->is_string()) throw FileError{line, std::string("\"") + key + "\" must be a string"};
  return it->get<std::string>();
}

int Int(const json& j, const char* key, int line) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return 0;
  if (!it->is_number_integer() || it->get<int64_t>() < 0 || it->get<int64_t>() > 64) {
    throw FileError{line, std::string("\"") + key + "\" must be a capture group number 0-64"};
  }
  return it->get<int>();
}

double Num(const json& j, const char* key, int line, double fallback) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return fallback;
  if (!it->is_number() || it->get<double>() < 0) {
    throw FileError{line, std::string("\"") + key + "\" must be a non-negative number"};
  }
  return it->get<double>();
}

Phase PhaseOf(const std::string& name, int line) {
  auto p = ParsePhase(name);
  if (!p) throw FileError{line, "unknown phase \"" + name + "\""};
  return *p;
}

std::vector<std::string> StrList(const json& j, const char* key, int line) {
  std::vector<std::string> out;
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return out;
  if (it->is_string()) return {it->get<std::string>()};
  if (!it->is_array()) throw FileError{line, std::string("\"") + key + "\" must be a list"};
  for (const auto& v : *it) {
    if (!v.is_string()) {
      throw FileError{line, std::string("\"") + key + "\" must hold strings"};
    }
    out.push_back(v.get<std::string>());
  }
  return out;
}

const std::set<std::string>& KnownSignals() {
  static const std::set<std::string> s = {
      "multi_node",        "oom_record", "stop_requested", "cpu_idle", "futex_waits",
      "no_disk_reads",     "disk_wait",  "reads_active",   "gpu_flat", "gpu_busy",
      "compiler_children", "rank_lost",  "restarts",       "cpu_busy", "no_log_lines"};
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
    } else {
      throw FileError{line, "unknown threshold \"" + key + "\""};
    }
  }
  return t;
}

// What one file adds, kept apart until the whole file is valid (a bad file adds nothing).
struct FileContents {
  std::vector<LogRule> rules;
  std::vector<PhaseBudget> budgets;
  std::vector<KnownCause> causes;
  std::vector<std::pair<std::string, std::vector<Phase>>> orders;
  std::optional<EngineRanks> ranks;
  std::optional<JudgeThresholds> thresholds;
  std::vector<LinePrefix> prefixes;
};

// One file being parsed: its name, its default engine, positions for messages, what it adds.
struct FileParse {
  const std::string& fname;
  std::string file_engine;
  LineFinder& lines;
  FileContents out;
};

// "prefixes": [{"regex": "..."}]: how the file's engine prefixes its lines (line_prefixes.h).
void ParsePrefixes(const json& doc, FileParse& f) {
  auto o = doc.find("prefixes");
  if (o == doc.end()) return;
  int line = f.lines.FindKey("prefixes");
  if (f.file_engine.empty()) throw FileError{line, "\"prefixes\" needs a file \"engine\""};
  if (!o->is_array()) throw FileError{line, "\"prefixes\" must be a list"};
  for (const auto& p : *o) {
    if (!p.is_object()) throw FileError{line, "a prefix must be an object with a \"regex\""};
    LinePrefix lp;
    lp.engine = f.file_engine;
    lp.regex = Str(p, "regex", line, /*required=*/true);
    if (lp.regex.size() > RuleSet::kMaxRuleRegexBytes) throw FileError{line, "prefix too long"};
    lp.source = f.fname + ":" + std::to_string(line);
    f.out.prefixes.push_back(std::move(lp));
  }
}

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
    if (key != "coordinators" && key != "lockstep_from") {
      throw FileError{line, "unknown \"ranks\" key \"" + key + "\""};
    }
  }
  EngineRanks r;
  r.coordinators = StrList(*o, "coordinators", line);
  for (const auto& name : r.coordinators) {
    if (name.empty()) throw FileError{line, "an empty coordinator name matches every rank"};
  }
  if (std::string from = Str(*o, "lockstep_from", line); !from.empty()) {
    r.lockstep_from = PhaseOf(from, line);
  }
  f.out.ranks = std::move(r);
}

LogRule ParseRule(const json& r, FileParse& f) {
  int line = f.lines.FindKey("rules");
  if (!r.is_object()) throw FileError{line, "each rule must be an object"};
  LogRule rule;
  rule.id = Str(r, "id", line, true);
  line = f.lines.Find(rule.id);
  rule.engine = Str(r, "engine", line);
  if (rule.engine.empty()) rule.engine = f.file_engine.empty() ? "generic" : f.file_engine;
  rule.regex = Str(r, "regex", line, true);
  CheckRegexLength(rule.regex, "rule \"" + rule.id + "\"", line);
  std::string emit = Str(r, "emit", line, true);
  auto e = ParseRuleEmit(emit);
  if (!e) throw FileError{line, "rule \"" + rule.id + "\": unknown emit \"" + emit + "\""};
  rule.emit = *e;
  std::string phase = Str(r, "phase", line);
  if (!phase.empty()) rule.phase = PhaseOf(phase, line);
  if ((rule.emit == RuleEmit::kPhaseBegin || rule.emit == RuleEmit::kPhaseEnd ||
       rule.emit == RuleEmit::kHint) &&
      !rule.phase) {
    throw FileError{line, "rule \"" + rule.id + "\": " + emit + " needs a \"phase\""};
  }
  rule.rank_group = Int(r, "rank", line);
  rule.rank_prefix = Str(r, "rank_prefix", line);
  rule.bar_group = Int(r, "bar", line);
  rule.n_group = Int(r, "n", line);
  rule.total_group = Int(r, "total", line);
  rule.elapsed_group = Int(r, "elapsed", line);
  rule.bar = Str(r, "bar_name", line);
  if (auto d = r.find("detect"); d != r.end()) {
    if (!d->is_boolean()) throw FileError{line, "\"detect\" must be true or false"};
    rule.detect = d->get<bool>();
  }
  if (auto d = r.find("pin"); d != r.end()) {
    if (!d->is_boolean()) throw FileError{line, "\"pin\" must be true or false"};
    rule.pin = d->get<bool>();
    if (rule.pin && (!rule.phase || (emit != "error" && emit != "fatal" && emit != "frame"))) {
      throw FileError{line, "rule \"" + rule.id +
                                "\": \"pin\" needs an error, fatal or frame rule with a \"phase\""};
    }
  }
  rule.source = f.fname + ":" + std::to_string(line);
  return rule;
}

void ParseRules(const json& doc, FileParse& f) {
  auto rules_it = doc.find("rules");
  if (rules_it == doc.end()) return;
  if (!rules_it->is_array()) throw FileError{f.lines.FindKey("rules"), "\"rules\" must be a list"};
  for (const auto& r : *rules_it) f.out.rules.push_back(ParseRule(r, f));
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
    f.out.budgets.push_back(pb);
  }
}

void ParseThresholdsKey(const json& doc, const JudgeThresholds& current, FileParse& f) {
  auto th = doc.find("thresholds");
  if (th == doc.end()) return;
  int line = f.lines.FindKey("thresholds");
  if (!th->is_object()) throw FileError{line, "\"thresholds\" must be an object"};
  f.out.thresholds = ParseThresholds(*th, current, line);
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
  if (auto c = w.find("consequence"); c != w.end()) {
    if (!c->is_boolean()) throw FileError{cline, "\"consequence\" must be true or false"};
    cond.consequence = c->get<bool>();
  }
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
    kc.evidence = Str(c, "evidence", cline);
    kc.engines = StrList(c, "engines", cline);
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

}  // namespace

std::optional<RuleEmit> ParseRuleEmit(std::string_view name) {
  for (size_t i = 0; i < kEmitNames.size(); ++i) {
    if (kEmitNames[i] == name) return static_cast<RuleEmit>(i);
  }
  return std::nullopt;
}

std::string_view RuleEmitName(RuleEmit emit) { return kEmitNames[static_cast<size_t>(emit)]; }

RuleSet::RuleSet() = default;
RuleSet::~RuleSet() = default;
RuleSet::RuleSet(RuleSet&&) noexcept = default;
RuleSet& RuleSet::operator=(RuleSet&&) noexcept = default;

Result<RuleSet> RuleSet::LoadEmbedded() {
  RuleSet rs;
  for (const auto& f : EmbeddedRulesFiles()) {
    Status st = rs.AddFile(std::string("rules/") + std::string(f.name), f.contents);
    if (!st.ok()) return st;
  }
  Status st = rs.Compile();
  if (!st.ok()) return st;
  return rs;
}

Status RuleSet::AddPath(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::FromErrno(errno, path + ": cannot open rules file");
  std::string data;
  char buf[65536];
  constexpr size_t kMaxRulesBytes = 16u << 20;
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      ::close(fd);
      return Status::FromErrno(e, path + ": cannot read rules file");
    }
    if (n == 0) break;
    data.append(buf, static_cast<size_t>(n));
    if (data.size() > kMaxRulesBytes) {
      ::close(fd);
      return Status::Corrupt(path + ": rules file larger than 16 MiB");
    }
  }
  ::close(fd);
  return AddFile(path, data);
}

Status RuleSet::AddFile(std::string_view name, std::string_view contents) {
  const std::string fname(name);
  json doc;
  try {
    doc = json::parse(contents.begin(), contents.end());
  } catch (const json::parse_error& e) {
    // nlohmann reports a byte offset; people fix files by line.
    size_t byte = e.byte > 0 ? e.byte - 1 : 0;
    std::string what = e.what();
    auto colon = what.find("syntax error");
    if (colon != std::string::npos) what = what.substr(colon);
    return Status::Corrupt(fname + ":" + std::to_string(LineOf(contents, byte)) + ": " + what);
  }
  LineFinder lines(contents);
  FileParse f{fname, {}, lines, {}};
  try {
    if (!doc.is_object()) throw FileError{1, "top level must be an object"};
    f.file_engine = Str(doc, "engine", 1);
    // In this order: LineFinder looks ids up from where the previous one was found.
    ParsePhaseOrder(doc, f);
    ParseRanks(doc, f);
    ParsePrefixes(doc, f);
    ParseRules(doc, f);
    ParseBudgets(doc, f);
    ParseThresholdsKey(doc, knowledge_.thresholds, f);
    ParseCauses(doc, f);
  } catch (const FileError& e) {
    return Status::Corrupt(fname + ":" + std::to_string(e.line) + ": " + e.message);
  } catch (const json::exception& e) {
    return Status::Corrupt(fname + ":1: " + e.what());
  }
  // Duplicate ids through one hash set (a FindRule per new rule was quadratic).
  std::unordered_set<std::string> ids;
  ids.reserve(rules_.size() + f.out.rules.size());
  for (const auto& r : rules_) ids.insert(r.id);
  for (const auto& r : f.out.rules) {
    if (!ids.insert(r.id).second) {
      return Status::Corrupt(r.source + ": duplicate rule id \"" + r.id + "\"");
    }
  }
  for (auto& r : f.out.rules) rules_.push_back(std::move(r));
  for (auto& b : f.out.budgets) knowledge_.budgets.push_back(b);
  for (auto& c : f.out.causes) knowledge_.causes.push_back(std::move(c));
  matcher_.Invalidate();
  for (auto& o : f.out.orders) knowledge_.orders.push_back(std::move(o));
  if (f.out.ranks) knowledge_.ranks.emplace_back(f.file_engine, std::move(*f.out.ranks));
  if (f.out.thresholds) knowledge_.thresholds = *f.out.thresholds;
  for (auto& p : f.out.prefixes) prefixes_.Add(std::move(p));
  return Status::Ok();
}

Status RuleSet::Compile() {
  std::vector<std::string> regexes;
  regexes.reserve(rules_.size());
  for (const auto& r : rules_) regexes.push_back(r.regex);
  if (Status ps = prefixes_.Compile(); !ps.ok()) return ps;
  Status st = matcher_.Compile(
      regexes, [this](size_t i) { return rules_[i].source + ": rule \"" + rules_[i].id + "\""; });
  if (!st.ok()) return st;
  for (size_t i = 0; i < rules_.size(); ++i) {
    const LogRule& r = rules_[i];
    int groups = matcher_.regex(static_cast<int>(i)).NumberOfCapturingGroups();
    for (int g : {r.rank_group, r.bar_group, r.n_group, r.total_group, r.elapsed_group}) {
      if (g > groups) {
        matcher_.Invalidate();
        return Status::Corrupt(r.source + ": rule \"" + r.id + "\": capture group " +
                               std::to_string(g) + " does not exist");
      }
    }
  }
  for (const auto& c : knowledge_.causes) {
    for (const auto& w : c.when) {
      std::vector<std::string> ids = w.rules;
      ids.insert(ids.end(), w.not_rules.begin(), w.not_rules.end());
      for (const auto& id : ids) {
        if (FindRule(id) < 0) {
          matcher_.Invalidate();
          return Status::Corrupt(c.source + ": cause \"" + c.id + "\" names unknown rule \"" + id +
                                 "\"");
        }
      }
    }
  }
  BuildEngineSubsets();
  return Status::Ok();
}

// One matcher subset per engine (its rules and the generic ones) and one of the generic rules
// alone, for an engine no rule names.
void RuleSet::BuildEngineSubsets() {
  engine_subsets_.clear();
  auto subset_of = [&](std::string_view engine) {
    std::vector<bool> keep(rules_.size());
    for (size_t i = 0; i < rules_.size(); ++i) {
      keep[i] = rules_[i].engine == "generic" || rules_[i].engine == engine;
    }
    return matcher_.AddSubset(keep);
  };
  generic_subset_ = subset_of("generic");
  for (const auto& e : Engines()) engine_subsets_.emplace_back(e, subset_of(e));
}

int RuleSet::EngineSubset(std::string_view engine) const {
  for (const auto& [name, subset] : engine_subsets_) {
    if (name == engine) return subset;
  }
  return generic_subset_;
}

std::vector<std::string> RuleSet::Engines() const {
  std::vector<std::string> out;
  for (const auto& r : rules_) {
    if (r.engine == "generic") continue;
    if (std::find(out.begin(), out.end(), r.engine) == out.end()) out.push_back(r.engine);
  }
  return out;
}

int RuleSet::FindRule(std::string_view id) const {
  for (size_t i = 0; i < rules_.size(); ++i) {
    if (rules_[i].id == id) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace spinup

#include "logs/rules.h"

#include <fcntl.h>
#include <unistd.h>

#include <re2/filtered_re2.h>
#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>
#include <set>
#include <unordered_set>

#include "logs/embedded_rules.h"

namespace spinup {
namespace {

using nlohmann::json;

constexpr std::array<std::string_view, 14> kEmitNames = {
    "phase_begin", "phase_end", "progress", "error", "fatal", "attempt_start", "ready",
    "request_served", "heartbeat", "info", "noise", "hint", "frame", "restarts"};

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
  static const std::set<std::string> s = {"multi_node", "oom_record", "stop_requested",
                                          "cpu_idle",  "futex_waits",       "no_disk_reads",
                                          "disk_wait", "reads_active",      "gpu_flat",
                                          "gpu_busy",  "compiler_children", "rank_lost",
                                          "restarts",  "cpu_busy",          "no_log_lines"};
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
    } else {
      throw FileError{line, "unknown threshold \"" + key + "\""};
    }
  }
  return t;
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
  std::vector<LogRule> new_rules;
  std::vector<PhaseBudget> new_budgets;
  std::vector<KnownCause> new_causes;
  std::vector<std::pair<std::string, std::vector<Phase>>> new_orders;
  std::optional<JudgeThresholds> new_thresholds;
  try {
    if (!doc.is_object()) throw FileError{1, "top level must be an object"};
    const std::string file_engine = Str(doc, "engine", 1);
    if (auto o = doc.find("phase_order"); o != doc.end()) {
      int line = lines.FindKey("phase_order");
      if (file_engine.empty()) throw FileError{line, "\"phase_order\" needs a file \"engine\""};
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
      new_orders.emplace_back(file_engine, std::move(order));
    }
    auto rules_it = doc.find("rules");
    if (rules_it != doc.end()) {
      if (!rules_it->is_array())
        throw FileError{lines.FindKey("rules"), "\"rules\" must be a list"};
      for (const auto& r : *rules_it) {
        int line = lines.FindKey("rules");
        if (!r.is_object()) throw FileError{line, "each rule must be an object"};
        LogRule rule;
        rule.id = Str(r, "id", line, true);
        line = lines.Find(rule.id);
        rule.engine = Str(r, "engine", line);
        if (rule.engine.empty()) rule.engine = file_engine.empty() ? "generic" : file_engine;
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
        rule.source = fname + ":" + std::to_string(line);
        new_rules.push_back(std::move(rule));
      }
    }
    auto budgets_it = doc.find("budgets");
    if (budgets_it != doc.end()) {
      int line = lines.FindKey("budgets");
      if (!budgets_it->is_array()) throw FileError{line, "\"budgets\" must be a list"};
      for (const auto& b : *budgets_it) {
        if (!b.is_object()) throw FileError{line, "each budget must be an object"};
        PhaseBudget pb;
        pb.engine = Str(b, "engine", line);
        if (pb.engine.empty()) pb.engine = file_engine.empty() ? "*" : file_engine;
        pb.phase = PhaseOf(Str(b, "phase", line, true), line);
        pb.normal_s = Num(b, "normal_s", line, 60);
        pb.stall_s = Num(b, "stall_s", line, 600);
        pb.per_gib_s = Num(b, "per_gib_s", line, 0);
        new_budgets.push_back(pb);
      }
    }
    if (auto th = doc.find("thresholds"); th != doc.end()) {
      int line = lines.FindKey("thresholds");
      if (!th->is_object()) throw FileError{line, "\"thresholds\" must be an object"};
      new_thresholds = ParseThresholds(*th, thresholds_, line);
    }
    auto causes_it = doc.find("causes");
    if (causes_it != doc.end()) {
      int line = lines.FindKey("causes");
      if (!causes_it->is_array()) throw FileError{line, "\"causes\" must be a list"};
      for (const auto& c : *causes_it) {
        if (!c.is_object()) throw FileError{line, "each cause must be an object"};
        KnownCause kc;
        kc.id = Str(c, "id", line, true);
        int cline = lines.Find(kc.id);
        kc.title = Str(c, "title", cline, true);
        kc.fix = Str(c, "fix", cline, true);
        kc.evidence = Str(c, "evidence", cline);
        kc.engines = StrList(c, "engines", cline);
        auto when_it = c.find("when");
        if (when_it == c.end() || !when_it->is_array() || when_it->empty()) {
          throw FileError{cline, "cause \"" + kc.id + "\" needs a non-empty \"when\" list"};
        }
        int hidden_n = 0;
        for (const auto& w : *when_it) {
          if (!w.is_object()) throw FileError{cline, "each \"when\" entry must be an object"};
          CauseCondition cond;
          cond.rules = StrList(w, "rules", cline);
          for (const auto& re : StrList(w, "regex", cline)) {
            CheckRegexLength(re, "cause \"" + kc.id + "\"", cline);
            LogRule hidden;
            hidden.id = "cause." + kc.id + "." + std::to_string(hidden_n++);
            hidden.engine = "generic";
            hidden.regex = re;
            hidden.emit = RuleEmit::kInfo;
            hidden.detect = false;
            hidden.source = fname + ":" + std::to_string(cline);
            cond.rules.push_back(hidden.id);
            new_rules.push_back(std::move(hidden));
          }
          for (const auto& p : StrList(w, "phases", cline))
            cond.phases.push_back(PhaseOf(p, cline));
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
          std::vector<std::string> all_signals = cond.signals;
          all_signals.insert(all_signals.end(), cond.not_signals.begin(), cond.not_signals.end());
          for (const auto& sname : all_signals) {
            if (!KnownSignals().count(sname)) {
              throw FileError{cline, "cause \"" + kc.id + "\": unknown signal \"" + sname + "\""};
            }
          }
          if (cond.rules.empty() && cond.signals.empty() && cond.slow_phases.empty()) {
            throw FileError{cline, "cause \"" + kc.id +
                                       "\": each \"when\" entry needs rules, regex, signals or "
                                       "slow_phases"};
          }
          kc.when.push_back(std::move(cond));
        }
        kc.source = fname + ":" + std::to_string(cline);
        new_causes.push_back(std::move(kc));
      }
    }
  } catch (const FileError& e) {
    return Status::Corrupt(fname + ":" + std::to_string(e.line) + ": " + e.message);
  } catch (const json::exception& e) {
    return Status::Corrupt(fname + ":1: " + e.what());
  }
  // Duplicate ids through one hash set (a FindRule per new rule was quadratic).
  std::unordered_set<std::string> ids;
  ids.reserve(rules_.size() + new_rules.size());
  for (const auto& r : rules_) ids.insert(r.id);
  for (const auto& r : new_rules) {
    if (!ids.insert(r.id).second) {
      return Status::Corrupt(r.source + ": duplicate rule id \"" + r.id + "\"");
    }
  }
  for (auto& r : new_rules) rules_.push_back(std::move(r));
  for (auto& b : new_budgets) budgets_.push_back(b);
  for (auto& c : new_causes) causes_.push_back(std::move(c));
  compiled_ok_ = false;
  for (auto& o : new_orders) orders_.push_back(std::move(o));
  if (new_thresholds) thresholds_ = *new_thresholds;
  return Status::Ok();
}

namespace {

// Splits a regex at its top-level '|' (outside groups and character classes). Empty when the
// parentheses do not balance (RE2 rejects such a regex anyway).
std::vector<std::string_view> TopLevelAlternatives(std::string_view regex) {
  std::vector<std::string_view> parts;
  int depth = 0;
  size_t from = 0;
  for (size_t k = 0; k < regex.size(); ++k) {
    const char c = regex[k];
    if (c == '\\') {
      ++k;
    } else if (c == '[') {
      // "[]x]" and "[^]x]" hold a literal ']'; "[[:alpha:]]" a named class.
      size_t j = k + 1;
      if (j < regex.size() && regex[j] == '^') ++j;
      if (j < regex.size() && regex[j] == ']') ++j;
      while (j < regex.size() && regex[j] != ']') {
        if (regex[j] == '\\') {
          ++j;
        } else if (regex.substr(j, 2) == "[:") {
          size_t end = regex.find(":]", j + 2);
          if (end != std::string_view::npos) j = end + 1;
        }
        ++j;
      }
      k = j;
    } else if (c == '(') {
      ++depth;
    } else if (c == ')') {
      if (--depth < 0) return {};
    } else if (c == '|' && depth == 0) {
      parts.push_back(regex.substr(from, k - from));
      from = k + 1;
    }
  }
  if (depth != 0) return {};
  parts.push_back(regex.substr(std::min(from, regex.size())));
  return parts;
}

// "^a" and "^a|^b" are anchored; "^a|b" is not: every top-level alternative starts with '^'.
bool IsAnchored(std::string_view regex) {
  auto parts = TopLevelAlternatives(regex);
  if (parts.empty()) return false;
  for (auto part : parts) {
    if (part.empty() || part[0] != '^') return false;
  }
  return true;
}

// The literal a regex stands for when it is nothing but literal bytes (after an optional
// leading '^'): ASCII other than metacharacters, and metacharacters escaped with '\'. Anything
// else (classes, repeats, groups, flags, escapes such as \d or \b, non-ASCII) is not plain.
std::optional<std::string> PlainLiteral(std::string_view re) {
  static constexpr std::string_view kMeta = "\\^$.|?*+()[]{}";
  std::string lit;
  for (size_t k = 0; k < re.size(); ++k) {
    const auto c = static_cast<unsigned char>(re[k]);
    if (c < 0x20 || c >= 0x7f) return std::nullopt;
    if (c == '\\') {
      if (k + 1 >= re.size()) return std::nullopt;
      const char e = re[k + 1];
      if (kMeta.find(e) == std::string_view::npos && e != '/' && e != '-' && e != '"') {
        return std::nullopt;
      }
      lit.push_back(e);
      ++k;
      continue;
    }
    if (kMeta.find(static_cast<char>(c)) != std::string_view::npos) return std::nullopt;
    lit.push_back(static_cast<char>(c));
  }
  if (lit.empty()) return std::nullopt;
  return lit;
}

struct PlainLiteralPart {
  bool prefix = false;
  std::string text;
};

// The literals a regex stands for when it is an alternation of plain literals, each maybe
// anchored: "lit", "^lit", "^a|b|^c", "^(?:a|b)" (one group around everything after '^').
std::optional<std::vector<PlainLiteralPart>> PlainLiterals(std::string_view regex) {
  std::vector<std::string_view> parts = TopLevelAlternatives(regex);
  bool all_prefix = false;
  if (parts.size() == 1 && regex.size() > 3 && regex.substr(0, 2) == "^(" && regex.back() == ')') {
    // "^(?:a|b)" / "^(a|b)": the group must close only at the very end.
    std::string_view inner = regex.substr(2, regex.size() - 3);
    if (inner.substr(0, 2) == "?:") {
      inner.remove_prefix(2);
    } else if (!inner.empty() && inner[0] == '?') {
      return std::nullopt;  // flags or a named group
    }
    // The inner text balancing on its own means the first '(' closes at the end ("^(a)(b)"
    // does not).
    auto inner_parts = TopLevelAlternatives(inner);
    if (inner_parts.empty()) return std::nullopt;
    parts = std::move(inner_parts);
    all_prefix = true;
  }
  std::vector<PlainLiteralPart> out;
  for (std::string_view part : parts) {
    PlainLiteralPart lit;
    lit.prefix = all_prefix;
    if (!part.empty() && part[0] == '^') {
      if (all_prefix) return std::nullopt;
      lit.prefix = true;
      part.remove_prefix(1);
    }
    auto text = PlainLiteral(part);
    if (!text) return std::nullopt;
    lit.text = std::move(*text);
    out.push_back(std::move(lit));
  }
  if (out.empty()) return std::nullopt;
  return out;
}

// Whether some prefix p of `text` has min <= p <= max (bytes compared unsigned, as RE2 does):
// the prefixes of a text grow in order, so it is enough to test the shortest one >= min.
bool PrefixInRange(std::string_view text, const std::string& min, const std::string& max) {
  const auto* t = reinterpret_cast<const unsigned char*>(text.data());
  const auto* lo = reinterpret_cast<const unsigned char*>(min.data());
  size_t k = 0;
  while (k < min.size() && k < text.size() && t[k] == lo[k]) ++k;
  size_t len;  // length of the shortest prefix >= min
  if (k == min.size()) {
    len = k;
  } else if (k < text.size() && t[k] > lo[k]) {
    len = k + 1;
  } else {
    return false;  // every prefix sorts below min
  }
  // text[0, len) <= max: compare byte by byte (short: the range strings are at most 40 bytes).
  const auto* hi = reinterpret_cast<const unsigned char*>(max.data());
  for (size_t j = 0; j < len; ++j) {
    if (j == max.size() || t[j] > hi[j]) return false;
    if (t[j] < hi[j]) return true;
  }
  return true;
}

constexpr int kMatchRangeBytes = 40;

// The first 8 bytes of s (zero-padded) as a big-endian number: numbers compare as the bytes do.
inline uint64_t BigEndian8(std::string_view s) {
  uint64_t v = 0;
  const size_t n = std::min<size_t>(s.size(), 8);
  for (size_t k = 0; k < 8; ++k) {
    v = v << 8 | (k < n ? static_cast<unsigned char>(s[k]) : 0u);
  }
  return v;
}

// A 16-bit hash of the three bytes at q, each ORed with 0x20 (ASCII letters lowercased; a few
// punctuation pairs such as '[' and '{' fold together, which only costs a rare extra check):
// the scan's table index. `room` says whether a fourth byte may be read.
inline unsigned GramHash(const unsigned char* q, bool room) {
  uint32_t w;
  if (std::endian::native == std::endian::little && room) {
    std::memcpy(&w, q, 4);
    w &= 0xffffffu;
  } else {
    w = uint32_t{q[0]} | uint32_t{q[1]} << 8 | uint32_t{q[2]} << 16;
  }
  return ((w | 0x202020u) * 2654435761u) >> 16;
}

// 8 bytes with ASCII A-Z lowercased, a word at a time (FilteredRE2 atoms are lowercase).
inline uint64_t LowerAscii8(uint64_t x) {
  constexpr uint64_t kHigh = 0x8080808080808080ull;
  const uint64_t seven = x & ~kHigh;
  const uint64_t ge_a = seven + 0x3f3f3f3f3f3f3f3full;  // high bit set where byte >= 'A'
  const uint64_t gt_z = seven + 0x2525252525252525ull;  // high bit set where byte > 'Z'
  const uint64_t upper = ge_a & ~gt_z & ~x & kHigh;
  return x | (upper >> 2);
}

}  // namespace

Status RuleSet::Compile() {
  compiled_.clear();
  fast_.clear();
  RE2::Options opt;
  opt.set_log_errors(false);
  opt.set_max_mem(64 << 20);
  opt.set_encoding(RE2::Options::EncodingLatin1);  // bytes in, no UTF-8 decoding cost
  for (size_t i = 0; i < rules_.size(); ++i) {
    const LogRule& r = rules_[i];
    auto re = std::make_unique<RE2>(r.regex, opt);
    if (!re->ok()) {
      return Status::Corrupt(r.source + ": rule \"" + r.id + "\": bad regex: " + re->error());
    }
    int groups = re->NumberOfCapturingGroups();
    for (int g : {r.rank_group, r.bar_group, r.n_group, r.total_group, r.elapsed_group}) {
      if (g > groups) {
        return Status::Corrupt(r.source + ": rule \"" + r.id + "\": capture group " +
                               std::to_string(g) + " does not exist");
      }
    }
    compiled_.push_back(std::move(re));
  }
  for (const auto& c : causes_) {
    for (const auto& w : c.when) {
      for (const auto& id : w.rules) {
        if (FindRule(id) < 0) {
          return Status::Corrupt(c.source + ": cause \"" + c.id + "\" names unknown rule \"" + id +
                                 "\"");
        }
      }
    }
  }

  // How each rule is tested, and which cheap exact test selects it as a candidate.
  fast_.resize(rules_.size());
  anchored_by_byte_.assign(256, {});
  atoms_.clear();
  atom_rules_.clear();
  always_.clear();
  std::vector<std::vector<std::string>> rule_atoms(rules_.size());
  // This rule's own prefilter: when it has atoms, a match needs at least one of them (the
  // prefilter is an AND/OR formula over them that is false when none occurs). False when the
  // rule has none (or one too short to index).
  auto atoms_of = [&](size_t i) -> Result<bool> {
    re2::FilteredRE2 filter(5);
    int id = 0;
    if (filter.Add(rules_[i].regex, opt, &id) != RE2::NoError) {
      return Status::Internal("rules: prefilter rejected rule " + rules_[i].id);
    }
    filter.Compile(&rule_atoms[i]);
    bool usable = !rule_atoms[i].empty();
    for (const auto& atom : rule_atoms[i]) usable = usable && atom.size() >= 4;
    const size_t k = rule_atoms[i].size();
    if (usable && k >= 2 && k <= kMaxFormulaAtoms) {
      // Which combinations of occurring atoms let the rule through, asked of FilteredRE2.
      uint64_t formula = 0;
      std::vector<int> ids, passed;
      for (uint64_t mask = 0; mask < (uint64_t{1} << k); ++mask) {
        ids.clear();
        for (size_t b = 0; b < k; ++b) {
          if (mask >> b & 1) ids.push_back(static_cast<int>(b));
        }
        filter.AllPotentials(ids, &passed);
        if (!passed.empty()) formula |= uint64_t{1} << mask;
      }
      if (formula & 1) usable = false;  // passes with no atom at all: not filtered
      fast_[i].formula = usable ? formula : 0;
    }
    if (!usable) rule_atoms[i].clear();
    return usable;
  };
  for (size_t i = 0; i < rules_.size(); ++i) {
    const std::string& regex = rules_[i].regex;
    FastRule& f = fast_[i];
    f.anchored = IsAnchored(regex);
    const int idx = static_cast<int>(i);
    if (f.anchored) {
      if (auto lits = PlainLiterals(regex)) {
        f.test = Test::kLiterals;
        for (auto& l : *lits) f.literals.push_back({l.prefix, std::move(l.text)});
      }
      std::string lo, hi;
      f.ranged = compiled_[i]->PossibleMatchRange(&lo, &hi, kMatchRangeBytes) && !lo.empty() &&
                 !hi.empty() && lo <= hi;
      size_t common = 0;
      if (f.ranged) {
        f.min = lo;
        f.min8 = BigEndian8(lo);
        f.same8 = lo.size() >= 8 && hi.size() >= 8 && lo.compare(0, 8, hi, 0, 8) == 0;
        f.max = hi;
        while (common < lo.size() && common < hi.size() && lo[common] == hi[common]) ++common;
        // A match (nonempty, as lo is) starts with a byte between lo[0] and hi[0].
        for (unsigned b = static_cast<unsigned char>(lo[0]); b <= static_cast<unsigned char>(hi[0]);
             ++b) {
          anchored_by_byte_[b].push_back(idx);
        }
      } else {
        for (auto& list : anchored_by_byte_) list.push_back(idx);
      }
      // A range that pins only a byte or two ("^\\s*warnings", "^(?:Prefill|Decode)") lets most
      // messages through: ask for an atom as well.
      if (common < 3) {
        auto usable = atoms_of(i);
        if (!usable.ok()) return usable.status();
        f.needs_atom = *usable;
      }
      continue;
    }
    if (auto lits = PlainLiterals(regex)) {
      f.test = Test::kLiterals;
      for (auto& l : *lits) f.literals.push_back({l.prefix, std::move(l.text)});
    }
    auto usable = atoms_of(i);
    if (!usable.ok()) return usable.status();
    if (!*usable) always_.push_back(idx);
  }
  for (size_t i = 0; i < rules_.size(); ++i) {
    for (const auto& atom : rule_atoms[i]) {
      auto it = std::find(atoms_.begin(), atoms_.end(), atom);
      size_t a = static_cast<size_t>(it - atoms_.begin());
      if (it == atoms_.end()) {
        atoms_.push_back(atom);
        atom_rules_.emplace_back();
      }
      // Bits beyond the formula's atoms are never read (formula 0): keep the shift defined.
      const int bit = std::min(static_cast<int>(&atom - rule_atoms[i].data()), 63);
      atom_rules_[a].push_back({static_cast<int>(i), bit});
    }
  }

  // Index each atom by its rarest pair of neighbouring trigrams (common letters and spaces score
  // high), so the scan stops rarely: ", in load_model" is indexed by "_mo" and "mod", not by
  // ", i" and " in".
  gram_bits_.assign(65536 / 64, 0);
  std::vector<uint16_t> per_key(65536, 0);
  std::vector<GramEntry> entries;
  auto common = [](unsigned char c) -> long {
    static constexpr std::string_view kByFrequency = " etaoinsrhldcu.,mpfgy-/:wb_=v[]()k0123456789";
    size_t k = kByFrequency.find(static_cast<char>(c));
    return k == std::string_view::npos ? 1 : static_cast<long>(kByFrequency.size() - k + 1);
  };
  for (size_t a = 0; a < atoms_.size(); ++a) {
    const std::string& atom = atoms_[a];  // 4 bytes or more: two trigrams
    const auto* u = reinterpret_cast<const unsigned char*>(atom.data());
    auto key_at = [&](size_t k) { return GramHash(u + k, false); };
    auto score_at = [&](size_t k) {
      return common(u[k]) * common(u[k + 1]) * common(u[k + 2]) + long{per_key[key_at(k)]} * 5000;
    };
    size_t best = 0;
    long best_score = -1;
    for (size_t k = 0; k + 3 < atom.size(); ++k) {
      const long score = score_at(k) + score_at(k + 1);
      if (best_score < 0 || score < best_score) {
        best_score = score;
        best = k;
      }
    }
    GramEntry e{};
    const size_t head = std::min<size_t>(atom.size(), 8);
    std::memcpy(&e.head, atom.data(), head);
    const unsigned char ones[8] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    std::memcpy(&e.head_mask, ones, head);  // byte order as the text word's
    e.atom = static_cast<uint32_t>(a);
    e.size = static_cast<uint32_t>(atom.size());
    for (size_t k : {best, best + 1}) {
      e.key = key_at(k);
      e.offset = static_cast<uint32_t>(k);
      entries.push_back(e);
      ++per_key[e.key];
      gram_bits_[e.key / 64] |= uint64_t{1} << (e.key % 64);
    }
  }
  std::stable_sort(entries.begin(), entries.end(), [](const GramEntry& x, const GramEntry& y) {
    return (x.key & (kGramSlots - 1)) < (y.key & (kGramSlots - 1));
  });
  gram_entries_ = std::move(entries);
  gram_slot_start_.assign(kGramSlots + 1, 0);
  for (const auto& e : gram_entries_) ++gram_slot_start_[(e.key & (kGramSlots - 1)) + 1];
  for (unsigned k = 0; k < kGramSlots; ++k) gram_slot_start_[k + 1] += gram_slot_start_[k];
  compiled_ok_ = true;
  return Status::Ok();
}

namespace {

struct Lower {
  unsigned char t[256];
  Lower() {
    for (int i = 0; i < 256; ++i)
      t[i] = static_cast<unsigned char>(i >= 'A' && i <= 'Z' ? i + 32 : i);
  }
};
const Lower kLower;

}  // namespace

void RuleSet::Match(std::string_view message, std::vector<int>* matched) const {
  matched->clear();
  if (!compiled_ok_) return;
  if (message.empty()) return MatchEveryRule(message, matched);
  const re2::StringPiece text(message.data(), message.size());
  auto run = [&](int idx) {
    const FastRule& f = fast_[static_cast<size_t>(idx)];
    bool hit;
    switch (f.test) {
      case Test::kLiterals:
        hit = false;
        for (const Literal& lit : f.literals) {
          hit = lit.prefix ? message.substr(0, lit.text.size()) == lit.text
                           : message.find(lit.text) != std::string_view::npos;
          if (hit) break;
        }
        break;
      default:
        // Unanchored even for '^' rules: RE2 anchors those itself.
        hit = compiled_[static_cast<size_t>(idx)]->Match(text, 0, message.size(), RE2::UNANCHORED,
                                                         nullptr, 0);
        break;
    }
    if (hit) matched->push_back(idx);
  };
  // Which atoms occur: the rules of every atom found are candidates. `seen` marks them (by a
  // per-call stamp, so it never needs clearing) for the anchored rules that need an atom.
  thread_local std::vector<int> candidates;
  thread_local std::vector<uint32_t> seen;
  thread_local uint32_t stamp = 0;
  thread_local std::vector<uint64_t> found;  // per rule: which of its atoms occur (valid if seen)
  if (seen.size() < rules_.size()) seen.resize(rules_.size(), 0);
  if (found.size() < rules_.size()) found.resize(rules_.size(), 0);
  if (++stamp == 0) {
    std::fill(seen.begin(), seen.end(), 0);
    stamp = 1;
  }
  candidates.clear();
  const auto* p = reinterpret_cast<const unsigned char*>(message.data());
  const size_t n = message.size();
  if (!atoms_.empty() && n >= 4) {
    // Two passes per block: the first only notes the positions whose trigram is in the table
    // (no branch, as such log text hits often and unpredictably), the second checks those.
    constexpr size_t kBlock = 512;
    uint32_t hit_pos[kBlock / 2];
    for (size_t start = 0; start + 2 < n; start += kBlock) {
      const size_t end = std::min(n - 2, start + kBlock);
      size_t hits = 0;
      for (size_t i = start; i < end; i += 2) {
        const unsigned key = GramHash(p + i, i + 3 < n);
        hit_pos[hits] = static_cast<uint32_t>(i);
        hits += (gram_bits_[key >> 6] >> (key & 63)) & 1;
      }
      for (size_t h = 0; h < hits; ++h) {
        const size_t i = hit_pos[h];
        const unsigned key = GramHash(p + i, i + 3 < n);
        const unsigned slot = key & (kGramSlots - 1);
        for (uint32_t x = gram_slot_start_[slot]; x < gram_slot_start_[slot + 1]; ++x) {
          const GramEntry& g = gram_entries_[x];
          if (g.key != key || g.offset > i || g.size - g.offset > n - i) continue;
          const unsigned char* q = p + (i - g.offset);
          size_t k = 0;
          if (q + 8 <= p + n) {
            uint64_t w;
            std::memcpy(&w, q, 8);
            if ((LowerAscii8(w) & g.head_mask) != g.head) continue;
            k = std::min<size_t>(g.size, 8);
          }
          const auto ua = static_cast<size_t>(g.atom);
          const std::string& atom = atoms_[ua];
          while (k < atom.size() && kLower.t[q[k]] == static_cast<unsigned char>(atom[k])) ++k;
          if (k < atom.size()) continue;
          for (const AtomRule& ar : atom_rules_[ua]) {
            const auto r = static_cast<size_t>(ar.rule);
            if (seen[r] != stamp) {
              seen[r] = stamp;
              found[r] = 0;
              if (!fast_[r].anchored) candidates.push_back(ar.rule);
            }
            found[r] |= uint64_t{1} << ar.bit;
          }
        }
      }
    }
  }
  // Whether the atoms found satisfy the rule's prefilter formula.
  auto passes = [&](int idx) {
    const auto r = static_cast<size_t>(idx);
    if (seen[r] != stamp) return false;
    const uint64_t formula = fast_[r].formula;
    return formula == 0 || (formula >> found[r] & 1) != 0;
  };
  const uint64_t head8 = BigEndian8(message);
  // Anchored rules whose matches can start with this byte and whose range admits the message.
  for (int idx : anchored_by_byte_[p[0]]) {
    const FastRule& f = fast_[static_cast<size_t>(idx)];
    if (f.needs_atom && !passes(idx)) continue;
    if (f.ranged) {
      // A message whose first 8 bytes sort below min's has no prefix >= min; when min and max
      // share their first 8 bytes, every prefix in range starts with them.
      if (f.same8 ? head8 != f.min8 : head8 < f.min8) continue;
      if (!PrefixInRange(message, f.min, f.max)) continue;
    }
    run(idx);
  }
  for (int idx : always_) run(idx);
  for (int idx : candidates) {
    if (passes(idx)) run(idx);
  }
  std::sort(matched->begin(), matched->end());
}

void RuleSet::MatchEveryRule(std::string_view message, std::vector<int>* matched) const {
  matched->clear();
  if (!compiled_ok_) return;
  const re2::StringPiece text(message.data(), message.size());
  for (size_t i = 0; i < compiled_.size(); ++i) {
    if (RE2::PartialMatch(text, *compiled_[i])) matched->push_back(static_cast<int>(i));
  }
}

const RE2& RuleSet::regex(int i) const { return *compiled_[static_cast<size_t>(i)]; }

PhaseBudget RuleSet::Budget(std::string_view engine, Phase phase) const {
  const PhaseBudget* any = nullptr;
  const PhaseBudget* specific = nullptr;
  for (const auto& b : budgets_) {
    if (b.phase != phase) continue;
    if (b.engine == engine) specific = &b;  // later files override earlier ones
    if (b.engine == "*") any = &b;
  }
  if (specific) return *specific;
  if (any) return *any;
  PhaseBudget fallback;
  fallback.phase = phase;
  return fallback;
}

std::vector<Phase> RuleSet::PhaseOrder(std::string_view engine) const {
  for (auto it = orders_.rbegin(); it != orders_.rend(); ++it) {
    if (it->first == engine) return it->second;
  }
  std::vector<Phase> order;
  for (int i = 0; i < kPhaseCount; ++i) order.push_back(static_cast<Phase>(i));
  return order;
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

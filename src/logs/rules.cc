#include "logs/rules.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <unordered_set>

#include "logs/embedded_rules.h"
#include "logs/rules_parse.h"
#include "logs/systemd_message.h"

namespace spinup {
namespace {

using rules_parse::Bool;
using rules_parse::CheckRegexLength;
using rules_parse::FileError;
using rules_parse::FileParse;
using rules_parse::Int;
using rules_parse::json;
using rules_parse::LineFinder;
using rules_parse::ParseBudgets;
using rules_parse::ParseCauses;
using rules_parse::ParseModelSizes;
using rules_parse::ParsePhaseOrder;
using rules_parse::ParsePrograms;
using rules_parse::ParseRanks;
using rules_parse::ParseThresholdsKey;
using rules_parse::PhaseOf;
using rules_parse::Str;
using rules_parse::StrList;

constexpr std::array<std::string_view, 17> kEmitNames = {
    "phase_begin", "phase_end",      "progress",     "error", "fatal",  "attempt_start",
    "ready",       "request_served", "heartbeat",    "info",  "noise",  "hint",
    "frame",       "restarts",       "engine_ready", "stop",  "foreign"};

// 1-based line of byte offset `pos` in `text`.
int LineOf(std::string_view text, size_t pos) {
  pos = std::min(pos, text.size());
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + pos, '\n'));
}

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

// "keep": only on a noise rule (LogRule::keep).
std::vector<std::string> ParseKeep(const json& r, const LogRule& rule, int line) {
  std::vector<std::string> keep = StrList(r, "keep", line);
  if (!keep.empty() && rule.emit != RuleEmit::kNoise) {
    throw FileError{line, "rule \"" + rule.id + "\": \"keep\" needs a noise rule"};
  }
  return keep;
}

// "role": how much the line says of where the failure was (LogEvent::Role).
LogEvent::Role ParseRole(const json& r, const LogRule& rule, const std::string& emit, int line) {
  const std::string role = Str(r, "role", line);
  if (role.empty()) return LogEvent::Role::kDirect;
  if (role == "relay" && (emit == "frame" || emit == "fatal" || emit == "error")) {
    return LogEvent::Role::kRelay;
  }
  if (role == "fallback" && emit == "frame") return LogEvent::Role::kFallback;
  if (role != "relay" && role != "fallback") {
    throw FileError{line, "rule \"" + rule.id + "\": unknown role \"" + role + "\""};
  }
  throw FileError{line, "rule \"" + rule.id + "\": role \"" + role + "\" needs " +
                            (role == "relay" ? "a frame, fatal or error rule" : "a frame rule")};
}

// A flag set on a rule of a kind it means nothing for.
void RequireKind(bool set, bool kind_ok, const LogRule& rule, const char* key, const char* kind,
                 int line) {
  if (set && !kind_ok) {
    throw FileError{line, "rule \"" + rule.id + "\": \"" + std::string(key) + "\" needs " + kind};
  }
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
  rule.detect = Bool(r, "detect", line).value_or(true);
  rule.role = ParseRole(r, rule, emit, line);
  rule.keep = ParseKeep(r, rule, line);
  rule.cancels = StrList(r, "cancels", line);
  rule.prose = Bool(r, "prose", line).value_or(false);
  RequireKind(rule.prose, rule.emit == RuleEmit::kInfo, rule, "prose", "an info rule", line);
  if (const std::optional<bool> pin = Bool(r, "pin", line)) {
    rule.pin = *pin;
    // On a phase_end without a duration: the line comes before the phase's last work (vLLM logs
    // the KV-cache size, then allocates it), so a crash right after it with no frame is still
    // there.
    const bool kind_ok = emit == "error" || emit == "fatal" || emit == "frame" ||
                         (emit == "phase_end" && rule.elapsed_group == 0);
    if (rule.pin && (!rule.phase || !kind_ok)) {
      throw FileError{line, "rule \"" + rule.id +
                                "\": \"pin\" needs an error, fatal or frame rule with a \"phase\""
                                " (or a phase_end with no \"elapsed\")"};
    }
  }
  const bool served = rule.emit == RuleEmit::kRequestServed;
  rule.answer = Bool(r, "answer", line).value_or(false);
  RequireKind(rule.answer, served, rule, "answer", "a request_served rule", line);
  rule.echo = Bool(r, "echo", line).value_or(false);
  RequireKind(rule.echo, served, rule, "echo", "a request_served rule", line);
  rule.serving = Bool(r, "serving", line).value_or(false);
  RequireKind(rule.serving, rule.emit == RuleEmit::kFatal || rule.emit == RuleEmit::kAttemptStart,
              rule, "serving", "a fatal or attempt_start rule", line);
  rule.node_ready = Bool(r, "node_ready", line).value_or(false);
  rule.in_process = Bool(r, "in_process", line).value_or(false);
  RequireKind(rule.in_process, rule.emit == RuleEmit::kInfo, rule, "in_process", "an info rule",
              line);
  rule.source = f.fname + ":" + std::to_string(line);
  return rule;
}

void ParseRules(const json& doc, FileParse& f) {
  auto rules_it = doc.find("rules");
  if (rules_it == doc.end()) return;
  if (!rules_it->is_array()) throw FileError{f.lines.FindKey("rules"), "\"rules\" must be a list"};
  for (const auto& r : *rules_it) f.out.rules.push_back(ParseRule(r, f));
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
    ParsePrograms(doc, f);
    ParseModelSizes(doc, f);
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
  ProgramWords& words = knowledge_.programs;
  words.engines.insert(words.engines.end(), f.out.programs.engines.begin(),
                       f.out.programs.engines.end());
  words.others.insert(words.others.end(), f.out.programs.others.begin(),
                      f.out.programs.others.end());
  // The most specific name first ("deepseek-v2-lite" before "deepseek-v2"), a later file's first.
  auto& sizes = knowledge_.model_sizes;
  sizes.insert(sizes.begin(), f.out.model_sizes.begin(), f.out.model_sizes.end());
  std::stable_sort(sizes.begin(), sizes.end(),
                   [](const auto& x, const auto& y) { return x.name.size() > y.name.size(); });
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
        if (FindRule(id) < 0 && !IsUnitFactId(id)) {
          matcher_.Invalidate();
          return Status::Corrupt(c.source + ": cause \"" + c.id + "\" names unknown rule \"" + id +
                                 "\"");
        }
      }
    }
    for (const auto& id : c.explains) {
      const bool known = std::any_of(knowledge_.causes.begin(), knowledge_.causes.end(),
                                     [&](const KnownCause& k) { return k.id == id; });
      if (!known) {
        matcher_.Invalidate();
        return Status::Corrupt(c.source + ": cause \"" + c.id + "\" explains unknown cause \"" +
                               id + "\"");
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
  std::vector<bool> prose(rules_.size());
  for (size_t i = 0; i < rules_.size(); ++i) prose[i] = rules_[i].prose;
  prose_subset_ =
      std::find(prose.begin(), prose.end(), true) == prose.end() ? -1 : matcher_.AddSubset(prose);
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

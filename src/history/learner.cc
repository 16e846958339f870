#include "history/learner.h"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

#include "base/duration.h"

namespace spinup {

namespace {

bool SameCheckpoint(const StartKey& a, const StartKey& b) {
  if (a.fingerprint && b.fingerprint)
    return a.fingerprint->header_hash == b.fingerprint->header_hash;
  return a.model == b.model;
}

bool SameModel(const StartKey& a, const StartKey& b) {
  return a.model == b.model || (a.fingerprint && b.fingerprint &&
                                a.fingerprint->header_hash == b.fingerprint->header_hash);
}

// A field unknown for the start being judged matches anything.
bool Matches(const std::string& now, const std::string& past) { return now.empty() || now == past; }

struct Diff {
  bool host = false, checkpoint = false, version = false, flags = false;
  int Score() const { return 8 * !checkpoint + 4 * !flags + 2 * !host + 1 * !version; }
  bool none() const { return !host && !checkpoint && !version && !flags; }
};

Diff Compare(const StartKey& now, const StartKey& past) {
  Diff d;
  d.host = !Matches(now.host, past.host);
  d.checkpoint = !SameCheckpoint(now, past);
  d.version = !Matches(now.engine_version, past.engine_version);
  d.flags = !(now.flags == past.flags);
  return d;
}

bool Usable(const StartRecord& r, const StartKey& key) {
  if (!key.engine.empty() && !r.engine.empty() && key.engine != r.engine) return false;
  return SameModel(key, KeyOf(r)) && !PhaseSeconds(r).empty();
}

std::optional<double> Median(std::vector<double> v) { return Quantile(std::move(v), 0.5); }

}  // namespace

StartKey KeyOf(const StartRecord& r) {
  return StartKey{r.host, r.model, r.fingerprint, r.engine, r.engine_version, r.flags};
}

std::optional<double> Quantile(std::vector<double> v, double q) {
  if (v.empty()) return std::nullopt;
  std::sort(v.begin(), v.end());
  double pos = std::clamp(q, 0.0, 1.0) * static_cast<double>(v.size() - 1);
  auto lo = static_cast<size_t>(std::floor(pos));
  size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
}

std::string NowEvidence(const LearnedBudget& b, double now_s) {
  return fmt::format("{}; now {}", b.evidence, FormatDuration(now_s));
}

std::optional<LearnedBudget> BudgetBook::For(Phase phase) const {
  auto it = budgets_.find(phase);
  if (it == budgets_.end()) return std::nullopt;
  return it->second;
}

std::optional<double> BudgetBook::AfterPhase(Phase phase) const {
  auto it = after_.find(phase);
  if (it == after_.end()) return std::nullopt;
  return it->second;
}

ComparableStarts SelectComparable(const std::vector<StartRecord>& past, const StartKey& key,
                                  const LearnerOptions& o) {
  std::vector<std::pair<const StartRecord*, Diff>> cands;
  for (const auto& r : past) {
    if (Usable(r, key)) cands.emplace_back(&r, Compare(key, KeyOf(r)));
  }
  std::stable_sort(cands.begin(), cands.end(), [](const auto& a, const auto& b) {
    return a.first->started_ms > b.first->started_ms;
  });
  ComparableStarts out;
  const auto window = static_cast<size_t>(std::max(1, o.window));
  for (const auto& [r, d] : cands) {
    if (d.none() && out.starts.size() < window) out.starts.push_back(r);
  }
  const auto need = static_cast<size_t>(std::max(1, o.min_starts));
  if (out.starts.size() >= need) return out;
  out.starts.clear();
  if (cands.size() < need) return out;
  // Nearest: the best-scoring starts, newest first among equals; the k-th best sets the bar.
  std::stable_sort(cands.begin(), cands.end(), [](const auto& a, const auto& b) {
    return a.second.Score() > b.second.Score();
  });
  const int bar = cands[need - 1].second.Score();
  Diff any;
  for (const auto& [r, d] : cands) {
    if (d.Score() < bar || out.starts.size() >= window) continue;
    out.starts.push_back(r);
    any.host |= d.host;
    any.checkpoint |= d.checkpoint;
    any.version |= d.version;
    any.flags |= d.flags;
  }
  std::stable_sort(
      out.starts.begin(), out.starts.end(),
      [](const StartRecord* a, const StartRecord* b) { return a->started_ms > b->started_ms; });
  std::vector<std::string> what;
  if (any.host) what.push_back("host");
  if (any.checkpoint) what.push_back("checkpoint");
  if (any.version) what.push_back("engine version");
  if (any.flags) what.push_back("flags");
  out.nearest = true;
  out.note = fmt::format("nearest match: {} earlier starts with a different {}", out.starts.size(),
                         fmt::join(what, ", "));
  return out;
}

BudgetBook LearnBudgets(const std::vector<StartRecord>& past, const StartKey& key,
                        const LearnerOptions& o) {
  BudgetBook book;
  ComparableStarts cmp = SelectComparable(past, key, o);
  if (cmp.starts.empty()) return book;
  book.nearest_ = cmp.nearest;
  book.note_ = cmp.note;
  std::map<Phase, std::vector<double>> durations;
  std::map<Phase, std::vector<double>> after;
  std::vector<double> ready;
  std::vector<double> resident;
  for (const StartRecord* r : cmp.starts) {
    book.ids_.push_back(r->id);
    for (const auto& [phase, s] : PhaseSeconds(*r)) durations[phase].push_back(s);
    if (auto to_ready = SecondsToReady(*r)) {
      ready.push_back(*to_ready);
      for (const auto& [phase, end] : PhaseEndOffsets(*r)) {
        after[phase].push_back(std::max(0.0, *to_ready - end));
      }
    }
    if (r->resident_bytes && r->fingerprint && r->fingerprint->bytes > 0) {
      resident.push_back(std::min(1.0, static_cast<double>(*r->resident_bytes) /
                                           static_cast<double>(r->fingerprint->bytes)));
    }
  }
  const auto need = static_cast<size_t>(std::max(1, o.min_starts));
  for (const auto& [phase, v] : durations) {
    if (v.size() < need) continue;
    LearnedBudget b;
    b.phase = phase;
    b.starts = static_cast<int>(v.size());
    b.typical_s = *Median(v);
    b.longest_s = *std::max_element(v.begin(), v.end());
    const double p = *Quantile(v, o.slow_percentile);
    b.slow_s = std::max(o.slow_margin * p, p + o.slow_floor_s);
    b.stall_s = o.stall_multiple * b.longest_s + o.stall_floor_s;
    b.evidence = fmt::format("{} usually {} (last {} starts, at most {})", PhaseName(phase),
                             FormatDuration(b.typical_s), b.starts, FormatDuration(b.longest_s));
    book.budgets_[phase] = std::move(b);
  }
  for (const auto& [phase, v] : after) {
    if (v.size() >= need) book.after_[phase] = *Median(v);
  }
  if (ready.size() >= need) book.ready_s_ = Median(ready);
  book.resident_fraction_ = Median(resident);
  return book;
}

}  // namespace spinup

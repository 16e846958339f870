#include "history/predict.h"

#include "base/duration.h"

#include <fmt/format.h>
#include <algorithm>

#include "base/units.h"
#include "diagnose/judge.h"

namespace spinup {

namespace {

// Weight-load time scales with the part of the checkpoint that must come from storage. Only
// when the earlier starts themselves read most of it from storage is the ratio meaningful.
double ResidencyScale(const BudgetBook& book, const PredictionInput& in) {
  auto then = book.typical_resident_fraction();
  if (!then || !in.resident_fraction || *then > 0.95) return 1.0;
  return std::clamp((1.0 - *in.resident_fraction) / (1.0 - *then), 0.1, 10.0);
}

}  // namespace

Prediction PredictReady(const BudgetBook& book, const PredictionInput& in) {
  Prediction p;
  if (book.empty()) return p;
  p.basis = fmt::format("from {} earlier starts", book.starts());
  if (book.nearest_match()) p.basis += " (" + book.match_note() + ")";
  const bool before_load = in.phase < Phase::kWeightLoad;
  const double scale = ResidencyScale(book, in);
  for (const auto& [phase, b] : book.budgets()) {
    p.expected_s[phase] = b.typical_s * (phase == Phase::kWeightLoad && before_load ? scale : 1.0);
  }
  if (in.ready) {
    p.eta_s = 0;
    p.total_s = in.since_start_s;
    return p;
  }
  std::optional<double> after = book.AfterPhase(in.phase);
  double left_in_phase = 0;
  if (auto it = p.expected_s.find(in.phase); it != p.expected_s.end()) {
    left_in_phase = std::max(0.0, it->second - in.phase_elapsed_s);
  }
  if (in.phase == Phase::kWeightLoad && in.read_eta_s) left_in_phase = *in.read_eta_s;
  if (after) {
    double eta = left_in_phase + *after;
    // A weight_load still ahead: its part of `after` is the typical one, replace it by the scaled.
    if (before_load) {
      if (auto wl = book.For(Phase::kWeightLoad)) eta += wl->typical_s * (scale - 1.0);
    }
    p.eta_s = std::max(0.0, eta);
  } else if (auto total = book.typical_ready_s()) {
    // A phase the earlier starts never logged (launch, before the first line): by the clock.
    double eta = *total - in.since_start_s;
    if (before_load) {
      if (auto wl = book.For(Phase::kWeightLoad)) eta += wl->typical_s * (scale - 1.0);
    }
    p.eta_s = std::max(0.0, eta);
  }
  if (p.eta_s) p.total_s = in.since_start_s + *p.eta_s;
  return p;
}

std::vector<std::string> DescribeChanges(const StartRecord& a, const StartRecord& b) {
  std::vector<std::string> out;
  auto diff = [&](std::string_view what, const std::string& x, const std::string& y) {
    if (x != y) {
      out.push_back(fmt::format("{} {} -> {}", what, x.empty() ? "(unknown)" : x,
                                y.empty() ? "(unknown)" : y));
    }
  };
  diff("host", a.host, b.host);
  diff("engine version", a.engine_version, b.engine_version);
  diff("flags", StartupFlagsKey(a.flags), StartupFlagsKey(b.flags));
  diff("spinup version", a.spinup_version, b.spinup_version);
  auto fp = [](const StartRecord& r) {
    return r.fingerprint ? fmt::format("{} in {} shards ({})", FormatBytes(r.fingerprint->bytes),
                                       r.fingerprint->shards, r.fingerprint->header_hash)
                         : std::string();
  };
  diff("checkpoint", fp(a), fp(b));
  auto warm = [](const StartRecord& r) -> std::optional<double> {
    if (!r.resident_bytes || !r.fingerprint || r.fingerprint->bytes == 0) return std::nullopt;
    return static_cast<double>(*r.resident_bytes) / static_cast<double>(r.fingerprint->bytes);
  };
  auto wa = warm(a);
  auto wb = warm(b);
  if (wa && wb && std::abs(*wa - *wb) > 0.25) {
    out.push_back(fmt::format("page cache at launch {:.0f}% -> {:.0f}%", *wa * 100, *wb * 100));
  }
  return out;
}

RegressionReport FindRegressions(const StartRecord& ended, const std::vector<StartRecord>& past,
                                 const LearnerOptions& o) {
  RegressionReport rep;
  std::vector<StartRecord> earlier;
  for (const auto& r : past) {
    if (r.id != ended.id && r.started_ms < ended.started_ms) earlier.push_back(r);
  }
  StartKey key = KeyOf(ended);
  BudgetBook book = LearnBudgets(earlier, key, o);
  for (const auto& [phase, secs] : PhaseSeconds(ended)) {
    auto b = book.For(phase);
    if (!b) continue;
    const double bar = std::max(b->slow_s, o.regression_ratio * b->typical_s);
    if (secs <= bar || secs - b->typical_s < o.regression_floor_s) continue;
    rep.phases.push_back(PhaseRegression{
        phase, secs, b->typical_s,
        fmt::format("{} took {}; {}", PhaseName(phase), FormatDuration(secs), b->evidence)});
  }
  if (!rep.any()) return rep;
  // The last earlier start of the same model, comparable or not: what changed since.
  const StartRecord* last = nullptr;
  for (const auto& r : earlier) {
    bool same =
        r.model == ended.model || (r.fingerprint && ended.fingerprint &&
                                   r.fingerprint->header_hash == ended.fingerprint->header_hash);
    if (same && (!last || r.started_ms > last->started_ms)) last = &r;
  }
  if (last) rep.changes = DescribeChanges(*last, ended);
  return rep;
}

}  // namespace spinup

#include "sink/plain_sink.h"

#include <fmt/format.h>

#include "sink/live_format.h"

namespace spinup {

void WriteVerdictReport(std::ostream& out, const Verdict& raw) {
  const Verdict v = ForTerminal(raw);
  out << "verdict: " << StateName(v.state) << " in " << PhaseName(v.phase);
  if (!v.headline.empty()) out << " — " << v.headline;
  out << "\n";
  for (const auto& e : v.evidence) out << "  evidence: " << e << "\n";
  for (const auto& e : v.errors) out << "  error: " << e << "\n";
  for (const auto& f : v.findings) {
    out << "  cause: " << f.title;
    if (!f.id.empty()) out << " [" << f.id << "]";
    out << "\n";
    for (const auto& e : f.evidence) out << "    because: " << e << "\n";
    if (!f.fix.empty()) out << "    fix: " << f.fix << "\n";
  }
  if (v.first_request_seconds) {
    out << fmt::format("  first request served in {:.3f} s\n", *v.first_request_seconds);
  }
  if (v.warm) out << "  " << WarmText(*v.warm) << "\n";
  if (v.stall_evidence) {
    out << fmt::format("  at the stall (gathered in {:.1f} s):\n",
                       v.stall_evidence->gather_seconds);
    for (const auto& l : StallEvidenceLines(*v.stall_evidence, 40)) out << "    " << l << "\n";
  }
}

void PlainLinesSink::OnVerdict(const Verdict& raw) {
  const Verdict v = ForTerminal(raw);
  // A state or phase change, or every further 10% of the checkpoint: enough to follow a long load
  // in a log file without a line per second.
  if (v.warm) {
    std::string wkey =
        v.warm->state +
        std::to_string(v.warm->bytes_total ? 10 * v.warm->bytes_done / v.warm->bytes_total : 0);
    if (wkey != last_warm_key_) {
      last_warm_key_ = wkey;
      out_ << ClockText(clock_.NowMs()) << " " << WarmText(*v.warm) << "\n";
    }
  }
  if (v.stall_evidence && !evidence_shown_) {
    evidence_shown_ = true;
    for (const auto& l : StallEvidenceLines(*v.stall_evidence, 12)) out_ << "  " << l << "\n";
  }
  double f = ProgressFraction(v.progress);
  int decile = f >= 0 ? static_cast<int>(f * 10) : -1;
  std::string key = std::string(StateName(v.state)) + "|" + std::string(PhaseName(v.phase));
  if (key == last_key_ && decile == last_percent_decile_) return;
  last_key_ = key;
  last_percent_decile_ = decile;
  out_ << ClockText(clock_.NowMs()) << " " << StateName(v.state) << " " << StatusText(v);
  if (v.state == State::kStalled) {
    for (const auto& e : v.evidence) out_ << "\n  evidence: " << e;
  }
  out_ << "\n";
  out_.flush();
}

void PlainLinesSink::Finish(const Verdict& v) {
  WriteVerdictReport(out_, v);
  out_.flush();
}

}  // namespace spinup

#include "sink/terminal_sink.h"

#include <fmt/format.h>

#include "base/duration.h"
#include "sink/live_format.h"
#include "sink/plain_sink.h"

namespace spinup {

namespace {

std::string Bar(double fraction, int width) {
  int filled = static_cast<int>(fraction * width + 0.5);
  std::string s = "[";
  for (int i = 0; i < width; ++i) s += i < filled ? "#" : ".";
  return s + "]";
}

std::string Fit(std::string s, int width) {
  if (width > 4 && static_cast<int>(s.size()) > width) {
    s.resize(static_cast<size_t>(width - 3));
    s += "...";
  }
  return s;
}

}  // namespace

void TerminalSink::OnSample(const Sample& s) {
  if (!s.gpu_available) {
    gpu_line_ = s.gpu_message.empty() ? "GPU: no NVML" : s.gpu_message;
    return;
  }
  std::string line = "GPU:";
  for (const auto& g : s.gpus) {
    line += fmt::format(" {}:{:.1f}GiB", g.index, static_cast<double>(g.used_bytes) / (1 << 30));
  }
  gpu_line_ = line;
}

std::vector<std::string> TerminalSink::Render(const Verdict& raw) const {
  const Verdict v = ForTerminal(raw);
  std::vector<std::string> lines;
  int64_t now = clock_.NowMs();
  std::string head = fmt::format("spinup  {:<11} {}", StateName(v.state), StatusText(v));
  if (v.stalled_seconds && v.state != State::kReady) {
    head += fmt::format("  (no progress for {})", FormatDurationShort(*v.stalled_seconds));
  }
  lines.push_back(head);
  size_t shown = 0;
  for (const auto& r : v.ranks) {
    if (++shown > 16) {
      lines.push_back(fmt::format("  ... {} more ranks", v.ranks.size() - 16));
      break;
    }
    std::string elapsed = r.since_ms ? FormatDurationShort((now - *r.since_ms) / 1000.0) : "";
    lines.push_back(fmt::format("  {:<12} {:<16} {}", r.rank.empty() ? "main" : r.rank,
                                PhaseName(r.phase), elapsed));
  }
  double f = ProgressFraction(v.progress);
  if (f >= 0) {
    lines.push_back(fmt::format("  checkpoint {} {}", Bar(f, 30), ProgressText(v.progress)));
  }
  if (v.warm) lines.push_back("  " + WarmText(*v.warm));
  if (!gpu_line_.empty()) lines.push_back("  " + gpu_line_);
  if (v.state == State::kStalled || v.state == State::kCrashed || v.state == State::kCrashLoop) {
    for (const auto& e : v.evidence) lines.push_back("  evidence: " + e);
    for (const auto& e : v.errors) lines.push_back("  error: " + e);
    for (const auto& fd : v.findings) lines.push_back("  cause: " + fd.title + " — fix: " + fd.fix);
  }
  if (v.stall_evidence && v.state == State::kStalled) {
    for (const auto& l : StallEvidenceLines(*v.stall_evidence, 3)) lines.push_back("  " + l);
  }
  for (auto& l : lines) l = Fit(std::move(l), width_);
  return lines;
}

void TerminalSink::Clear() {
  if (drawn_lines_ == 0) return;
  // Up to the first line of the block, then erase to the end of the screen.
  out_ << "\r\x1b[" << drawn_lines_ << "A\x1b[J";
  out_.flush();
  drawn_lines_ = 0;
}

void TerminalSink::Redraw() {
  if (!have_verdict_) return;
  Clear();
  auto lines = Render(last_);
  for (const auto& l : lines) out_ << l << "\x1b[K\n";
  drawn_lines_ = static_cast<int>(lines.size());
  out_.flush();
}

void TerminalSink::OnVerdict(const Verdict& v) {
  last_ = v;
  have_verdict_ = true;
  Redraw();
}

void TerminalSink::Finish(const Verdict& v) {
  last_ = v;
  have_verdict_ = true;
  Redraw();
  drawn_lines_ = 0;  // leave the last view on screen
  WriteVerdictReport(out_, v);
  out_.flush();
}

}  // namespace spinup

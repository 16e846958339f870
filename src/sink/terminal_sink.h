// The live view on a terminal, redrawn in place: the verdict line, one line per rank with its
// phase and elapsed time, one progress bar for the checkpoint with rate and ETA, the GPU line,
// and the evidence when stalled. Under `spinup run` the server's own output scrolls above it:
// the loop calls Clear() before passing output through and Redraw() after.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "live/clock.h"
#include "spinup/sink.h"

namespace spinup {

class TerminalSink final : public Sink {
 public:
  TerminalSink(std::ostream& out, Clock& clock, int width = 100)
      : out_(out), clock_(clock), width_(width) {}
  void OnSample(const Sample& sample) override;
  void OnVerdict(const Verdict& verdict) override;
  void Finish(const Verdict& final_verdict) override;

  // Erases the drawn block (cursor ends where it began).
  void Clear();
  // Draws the last verdict again.
  void Redraw();
  // The block's lines for a verdict (pure, for tests).
  std::vector<std::string> Render(const Verdict& v) const;

 private:
  std::ostream& out_;
  Clock& clock_;
  int width_;
  int drawn_lines_ = 0;
  bool have_verdict_ = false;
  Verdict last_;
  std::string gpu_line_;
};

}  // namespace spinup

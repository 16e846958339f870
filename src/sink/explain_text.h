// The terminal rendering of a Verdict for `spinup explain`: the verdict line first, then the
// per-rank timeline with durations and slow marks, the decisive lines, the known causes with
// their fixes, and what the evidence cannot tell.
#pragma once

#include <ostream>

#include "spinup/startup.h"

namespace spinup {

struct ExplainTextOptions {
  bool color = false;  // ANSI colours (only when writing to a terminal)
  size_t max_timeline_rows = 200;
};

void WriteExplainText(const Verdict& verdict, const ExplainTextOptions& options, std::ostream& out);

}  // namespace spinup

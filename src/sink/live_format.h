// Short texts shared by the live sinks (terminal, plain lines, sd_notify STATUS=): progress as
// "weight_load 45% 105/234 GB 780 MB/s ETA 2m10s", sizes, rates. Pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spinup/startup.h"

namespace spinup {

// "234 GB", "105 GB", "780 MB", "512 B" (decimal units, no decimals above 10).
std::string LiveBytes(uint64_t bytes);
// "780 MB/s", "2.2 GB/s".
std::string LiveRate(double bytes_per_second);
// Percentage of the checkpoint read, from measured bytes or else the engine's bar; nullopt-like
// -1 when unknown.
double ProgressFraction(const Progress& p);
// "45% 105/234 GB 780 MB/s ETA 2m10s" (parts that are unknown are left out; "" when none).
std::string ProgressText(const Progress& p);
// The STATUS= text: "<phase> <progress>" while starting, the headline otherwise.
std::string StatusText(const Verdict& v);
// The verdict with every text that can come from a log or a process (headline, evidence, decisive
// lines, rank names, findings) passed through OneLine: what the text renderers (terminal, plain
// lines, explain's text) print, so no log line reaches a terminal with its control characters.
Verdict ForTerminal(Verdict v);
// "HH:MM:SS" (UTC) of a Unix-ms time.
std::string ClockText(int64_t time_ms);
// --warm: "warm 1.2 GB of 3.5 GB into the page cache (34%) 1.1 GB/s" plus the state and its note.
std::string WarmText(const WarmStatus& w);
// The stall evidence as indented lines: the behind sentence, per rank its source, wait channels
// and the first `stack_lines` lines of its stack, the GPUs, the notes.
std::vector<std::string> StallEvidenceLines(const StallEvidence& e, size_t stack_lines);

}  // namespace spinup

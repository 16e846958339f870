// Rank names as people read them in a headline: "TP0–TP3" for a contiguous run, "main" for the
// untagged main process.
#pragma once

#include <string>
#include <vector>

namespace spinup {

// "TP0–TP3" for a contiguous run of similarly named ranks, else a comma list (capped).
std::string FormatRanks(const std::vector<std::string>& ranks);

}  // namespace spinup

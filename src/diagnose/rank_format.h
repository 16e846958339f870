// Rank names as people read them in a headline: "TP0–TP3" for a contiguous run, "main" for the
// untagged main process.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace spinup {

// "TP0–TP3" for a contiguous run of similarly named ranks, else a comma list (capped).
std::string FormatRanks(const std::vector<std::string>& ranks);

// A rank's group: its name without the trailing index ("TP3" → "TP", "EngineCore_DP1" →
// "EngineCore_DP"). Ranks of one group are peers.
std::string_view PeerGroup(std::string_view rank);

// Whether ranks of `group` each run an engine of their own (the engine's "ranks.independent"
// endings: vLLM's data-parallel EngineCore_DP0 and EngineCore_DP1), never in lockstep.
bool IndependentGroup(std::string_view group, const std::vector<std::string>& independent);

// The index after `word` where it starts one of the rank's words ("DP0_TP3", word "TP" → 3;
// "rank10" → 10), or -1 when no word of the rank is `word` and a number.
int RankIndex(std::string_view rank, std::string_view word);

}  // namespace spinup

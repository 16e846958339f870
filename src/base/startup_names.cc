#include <array>
#include <string_view>

#include "spinup/startup.h"

namespace spinup {
namespace {

constexpr std::array<std::string_view, kPhaseCount> kPhaseNames = {
    "launch",   "download",   "distributed_init", "weight_load", "compile",
    "kv_cache", "cuda_graph", "http_start",       "warmup",      "ready"};

constexpr std::array<std::string_view, 10> kStateNames = {
    "starting", "progressing", "in_progress", "slow",    "stalled",
    "crashed",  "crash_loop",  "ready",       "unknown", "stopped"};

}  // namespace

std::string_view PhaseName(Phase phase) { return kPhaseNames[static_cast<size_t>(phase)]; }

std::optional<Phase> ParsePhase(std::string_view name) {
  for (size_t i = 0; i < kPhaseNames.size(); ++i) {
    if (kPhaseNames[i] == name) return static_cast<Phase>(i);
  }
  return std::nullopt;
}

std::string_view StateName(State state) { return kStateNames[static_cast<size_t>(state)]; }

std::optional<State> ParseState(std::string_view name) {
  for (size_t i = 0; i < kStateNames.size(); ++i) {
    if (kStateNames[i] == name) return static_cast<State>(i);
  }
  return std::nullopt;
}

int ExitCodeForState(State state) {
  switch (state) {
    case State::kReady:
      return 0;
    case State::kCrashed:
    case State::kCrashLoop:
      return 1;
    case State::kStalled:
      return 3;
    default:
      return 5;
  }
}

}  // namespace spinup

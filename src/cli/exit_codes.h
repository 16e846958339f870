// spinup's exit codes, shared by every subcommand (documented in docs/exit-codes.md).
#pragma once

namespace spinup {

inline constexpr int kExitOk = 0;       // ready / whole / done
inline constexpr int kExitProblem = 1;  // crashed, crash loop, or problems found (verify)
inline constexpr int kExitUsage = 2;    // usage error, unreadable path
inline constexpr int kExitStalled = 3;  // a startup stalled
inline constexpr int kExitTimeout = 4;  // --timeout passed before a verdict
inline constexpr int kExitInProgress =
    5;  // still in progress (--once, explain of an unfinished log)

}  // namespace spinup

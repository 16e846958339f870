// `spinup run` must not leave the server's tree running when spinup itself dies by a signal no
// handler sees (SIGKILL from the OOM killer or `kill -9`). Three measures, together:
//
//  - The keeper: the process the operator started (its PID is the one a shell or supervisor
//    knows) becomes a child subreaper, forks, and from then on only waits. It forwards SIGINT,
//    SIGTERM and SIGHUP sent to it (not the terminal's, which reach the whole foreground group
//    anyway), and exits with the monitor's status.
//  - The monitor: the keeper's child, which runs the watch and starts the server. Its
//    PR_SET_PDEATHSIG is SIGTERM: if the keeper is killed, the monitor ends the tree exactly as
//    on any SIGTERM (forward, grace, SIGKILL).
//  - The server: its PR_SET_PDEATHSIG is SIGKILL (SpawnChild), so the monitor's death takes it
//    at once. Its descendants (ranks, compiler workers), orphaned, are re-parented to the nearest
//    living subreaper, the keeper, which SIGKILLs every process still below it and reaps them
//    all before it exits.
#pragma once

#include "spinup/status.h"

namespace spinup {

// Returns in the monitor; never returns in the keeper (it _exits with the monitor's status).
// Call before any thread is started. When the fork fails, returns an error in the original
// process, which then runs without a keeper.
Status SplitOffTreeKeeper();

}  // namespace spinup

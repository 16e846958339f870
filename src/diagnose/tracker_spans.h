// The open span of a rank and the bounded push of a new one: shared by the tracker's files.
// Internal to src/diagnose.
#pragma once

#include <string>

#include "diagnose/tracker.h"

namespace spinup::tracker_internal {

// The rank's latest span when it has not ended, else nullptr.
PhaseSpan* OpenSpan(AttemptFacts& a, const std::string& rank);
// Appends `span`, dropping the older half of the closed spans once the timeline is full.
void PushSpan(AttemptFacts& a, PhaseSpan span);

}  // namespace spinup::tracker_internal

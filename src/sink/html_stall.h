// The HTML report's "At the stall" section: which rank is behind, each rank's stack (py-spy or
// kernel) and threads by wait channel, the GPUs at that moment. A pure function; every string
// from the server (stacks, names) is escaped.
#pragma once

#include <string>

#include "spinup/startup.h"

namespace spinup {

std::string StallEvidenceHtml(const StallEvidence& evidence);

}  // namespace spinup

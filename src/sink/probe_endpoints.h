// /livez and /readyz for Kubernetes httpGet probes, as a Sink that remembers the last verdict's
// state (written by the watch loop's thread, read by the HTTP server's thread).
//   /livez:  200 while starting, progressing, slow or ready; 503 while stalled, crashed or in a
//            crash loop (a liveness probe then restarts a hung start, never a slow one).
//   /readyz: 200 only when ready.
// The body is one line: the state and the headline, so `curl` shows why.
#pragma once

#include <mutex>
#include <string>

#include "sink/metrics_server.h"
#include "spinup/sink.h"

namespace spinup {

class ProbeEndpoints final : public Sink {
 public:
  void OnVerdict(const Verdict& verdict) override;
  void Finish(const Verdict& verdict) override { OnVerdict(verdict); }

  HttpResponse Livez() const;
  HttpResponse Readyz() const;
  // Adds /livez and /readyz to `server` (before it starts).
  void AddRoutes(MetricsServer& server);

 private:
  mutable std::mutex mu_;
  State state_ = State::kStarting;
  std::string headline_;
};

// The state's answer on /livez (pure).
bool LiveState(State state);

}  // namespace spinup

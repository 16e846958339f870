#include "sink/probe_endpoints.h"

namespace spinup {

bool LiveState(State state) {
  switch (state) {
    case State::kStalled:
    case State::kCrashed:
    case State::kCrashLoop:
      return false;
    default:
      return true;
  }
}

void ProbeEndpoints::OnVerdict(const Verdict& verdict) {
  std::lock_guard lock(mu_);
  state_ = verdict.state;
  headline_ = verdict.headline;
}

namespace {

HttpResponse Answer(bool ok, State state, const std::string& headline) {
  std::string body(StateName(state));
  if (!headline.empty()) body += ": " + headline;
  // A headline quotes log text: keep the one line one line.
  for (char& c : body) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return HttpResponse{ok ? 200 : 503, "text/plain; charset=utf-8", body + "\n"};
}

}  // namespace

HttpResponse ProbeEndpoints::Livez() const {
  std::lock_guard lock(mu_);
  return Answer(LiveState(state_), state_, headline_);
}

HttpResponse ProbeEndpoints::Readyz() const {
  std::lock_guard lock(mu_);
  return Answer(state_ == State::kReady, state_, headline_);
}

void ProbeEndpoints::AddRoutes(MetricsServer& server) {
  server.Route("/livez", [this] { return Livez(); });
  server.Route("/readyz", [this] { return Readyz(); });
}

}  // namespace spinup

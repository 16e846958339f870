#include "sink/notify_sink.h"

#include <systemd/sd-daemon.h>

#include "base/units.h"
#include "sink/live_format.h"

namespace spinup {

NotifySink::NotifySink(SendFn send, EtaFn ready_eta)
    : send_(std::move(send)), ready_eta_(std::move(ready_eta)) {
  if (!send_) {
    send_ = [](const std::string& msg) { sd_notify(0, msg.c_str()); };
  }
}

std::string NotifySink::Status(const Verdict& v) const {
  std::string status = "STATUS=" + StatusText(v);
  const bool on_its_way = v.state == State::kStarting || v.state == State::kProgressing ||
                          v.state == State::kInProgress || v.state == State::kSlow;
  if (on_its_way && ready_eta_) {
    if (auto eta = ready_eta_()) status += ", ready in " + FormatApproxDuration(*eta);
  }
  return status;
}

void NotifySink::OnVerdict(const Verdict& v) {
  std::string status = Status(v);
  if (status != last_status_) {
    last_status_ = status;
    send_(status);
  }
  if (v.state == State::kReady && !ready_sent_) {
    ready_sent_ = true;
    send_("READY=1");
  }
  switch (v.state) {
    case State::kStarting:
    case State::kProgressing:
    case State::kInProgress:
    case State::kSlow:
    case State::kReady:
      // Keep-alive: the startup moves (or the server is up). Nothing while stalled, crashed or
      // unknown, so systemd's watchdog ends a stuck start.
      send_("WATCHDOG=1");
      break;
    default:
      break;
  }
}

void NotifySink::Finish(const Verdict& v) {
  std::string status = Status(v);
  if (status != last_status_) {
    last_status_ = status;
    send_(status);
  }
  send_("STOPPING=1");
}

}  // namespace spinup

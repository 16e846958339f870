// Under systemd (NOTIFY_SOCKET set; the CLI decides): STATUS= lines so `systemctl status` shows
// "weight_load 45% 105/234 GB 780 MB/s ETA 2m10s", READY=1 once the server is ready, and
// WATCHDOG=1 only while the startup is not stalled (and after ready, while the server lives), so a
// unit with WatchdogSec= is restarted when a startup stalls instead of hanging forever.
// See docs/systemd.md.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "spinup/status.h"

#include "spinup/sink.h"

namespace spinup {

class NotifySink final : public Sink {
 public:
  // `send` delivers one notification ("STATUS=...", "READY=1", "WATCHDOG=1").
  using SendFn = std::function<void(const std::string&)>;
  // The predicted seconds to ready from the startup history (src/history), if any: added to the
  // STATUS line of a start that is still on its way ("..., ready in about 2 min").
  using EtaFn = std::function<std::optional<double>()>;
  explicit NotifySink(SendFn send, EtaFn ready_eta = {});
  void OnVerdict(const Verdict& verdict) override;
  void Finish(const Verdict& final_verdict) override;

 private:
  std::string Status(const Verdict& verdict) const;
  SendFn send_;
  EtaFn ready_eta_;
  std::string last_status_;
  bool ready_sent_ = false;
};

// The sd_notify protocol without libsystemd: one datagram to the AF_UNIX socket systemd named in
// NOTIFY_SOCKET (a path, or "@name" for the abstract namespace). The CLI reads the variable.
Status SendNotify(const std::string& socket, std::string_view message);

}  // namespace spinup

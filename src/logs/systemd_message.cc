#include "logs/systemd_message.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace spinup {
namespace {

constexpr size_t kMaxText = 400;

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// "sglang.service: rest" → ("sglang.service", "rest"); messages about the manager itself have no
// unit prefix.
std::pair<std::string_view, std::string_view> SplitUnit(std::string_view m) {
  size_t colon = m.find(": ");
  if (colon == std::string_view::npos || colon > 256) return {{}, m};
  std::string_view unit = m.substr(0, colon);
  if (unit.find(' ') != std::string_view::npos || unit.find('.') == std::string_view::npos) {
    return {{}, m};
  }
  return {unit, m.substr(colon + 2)};
}

// Units an unfiltered journal (`journalctl --since`, /var/log/syslog) shows beside the server's:
// user sessions, timers and the distribution's housekeeping services. Their starts and exits are
// no start of the server. `subject` is a unit's name, or what "Starting "/"Started " named (a
// unit's description, "unit - description" since systemd 250).
bool IsHousekeeping(std::string_view subject) {
  const std::string_view name = subject.substr(0, subject.find(' '));
  if (const size_t dot = name.rfind('.'); dot != std::string_view::npos) {
    const std::string_view type = name.substr(dot);
    if (type != ".service") return type.size() > 1;  // a scope, timer, slice, mount, target, ...
  }
  static constexpr std::string_view kHousekeeping[] = {
      // unit names
      "session-", "user@", "user-runtime-dir@", "systemd-", "logrotate", "apt-daily", "man-db",
      "cron", "anacron", "sysstat", "fstrim", "motd-news", "e2scrub", "dpkg-db-backup",
      "unattended-upgrades", "packagekit", "fwupd", "snapd", "ssh", "getty@", "certbot",
      "phpsessionclean", "plocate", "update-notifier", "ua-timer", "apt-news",
      // descriptions
      "Session ", "User Manager for UID", "User Runtime Directory", "Rotate log files", "Daily apt",
      "Daily man-db", "Cleanup of Temporary Directories", "Discard unused blocks",
      "Message of the Day", "Regular background program processing daemon", "Download data for",
      "Update APT News", "Update the plocate database", "Refresh fwupd", "Clean php session"};
  return std::any_of(std::begin(kHousekeeping), std::end(kHousekeeping),
                     [&](std::string_view p) { return StartsWith(subject, p); });
}

int LeadingNumber(std::string_view s) {
  int n = 0;
  size_t i = 0;
  while (i < s.size() && i < 9 && s[i] >= '0' && s[i] <= '9') n = n * 10 + (s[i++] - '0');
  return i == 0 ? -1 : n;
}

// "code=exited, status=1/FAILURE" / "code=killed, status=9/KILL" / "code=dumped, status=6/ABRT".
void ReadExit(std::string_view rest, UnitEvent& e) {
  size_t code = rest.find("code=");
  if (code != std::string_view::npos) {
    std::string_view c = rest.substr(code + 5);
    e.exit_code = std::string(c.substr(0, std::min(c.find(','), size_t{16})));
  }
  size_t st = rest.find("status=");
  std::string_view name;
  if (st != std::string_view::npos) {
    std::string_view v = rest.substr(st + 7);
    e.exit_status = std::max(0, LeadingNumber(v));
    size_t slash = v.find('/');
    if (slash != std::string_view::npos && slash < 12) {
      name = v.substr(slash + 1, 8);
      while (!name.empty() && !(name.back() >= 'A' && name.back() <= 'Z')) name.remove_suffix(1);
    }
  }
  if (e.exit_code == "exited") {
    e.clean = e.exit_status == 0;
  } else {
    // A stop signal is how systemd (or a person) ends a service: not a crash.
    e.clean = name == "TERM" || name == "INT" || name == "HUP" || name == "PIPE" ||
              e.exit_status == 15 || e.exit_status == 2 || e.exit_status == 1;
  }
}

}  // namespace

bool IsSystemdIdent(std::string_view ident) {
  return ident == "systemd" || (StartsWith(ident, "systemd[") && ident.back() == ']');
}

std::optional<UnitEvent> ParseSystemdMessage(std::string_view message) {
  if (message.size() > 4096) message = message.substr(0, 4096);
  auto [unit, rest] = SplitUnit(message);
  if (!unit.empty() && IsHousekeeping(unit)) return std::nullopt;
  for (std::string_view verb : {"Starting ", "Started ", "Stopping "}) {
    if (unit.empty() && StartsWith(rest, verb) && IsHousekeeping(rest.substr(verb.size()))) {
      return std::nullopt;
    }
  }
  UnitEvent e;
  e.unit = std::string(unit);
  e.text = std::string(message.substr(0, kMaxText));
  if (StartsWith(rest, "Main process exited,")) {
    e.kind = UnitEvent::Kind::kProcessExited;
    ReadExit(rest, e);
    return e;
  }
  if (StartsWith(rest, "Failed with result '")) {
    e.kind = UnitEvent::Kind::kFailed;
    std::string_view r = rest.substr(20);
    e.result = std::string(r.substr(0, std::min(r.find('\''), size_t{32})));
    return e;
  }
  if (StartsWith(rest, "Start request repeated too quickly")) {
    // systemd refused one more start after a burst of failed ones (StartLimitBurst): a loop.
    e.kind = UnitEvent::Kind::kFailed;
    e.result = "start-limit-hit";
    return e;
  }
  // Before systemd 236 a restart said only that its hold-off time was over.
  if (StartsWith(rest, "Scheduled restart job") ||
      (rest.find("scheduling restart") != std::string_view::npos &&
       (StartsWith(rest, "Service hold-off time over") ||
        StartsWith(rest, "Service RestartSec=")))) {
    e.kind = UnitEvent::Kind::kRestartScheduled;
    size_t at = rest.find("counter is at ");
    if (at != std::string_view::npos) e.restarts = std::max(0, LeadingNumber(rest.substr(at + 14)));
    return e;
  }
  if (rest.find("killed by the OOM killer") != std::string_view::npos) {
    e.kind = UnitEvent::Kind::kOomKilled;
    return e;
  }
  if (unit.empty() && (StartsWith(rest, "Starting ") || StartsWith(rest, "Started "))) {
    e.kind = UnitEvent::Kind::kStarting;
    return e;
  }
  if (StartsWith(rest, "Found left-over process")) {
    e.kind = UnitEvent::Kind::kLeftOverProcess;
    return e;
  }
  if (unit.empty() && StartsWith(rest, "Stopping ")) {
    e.kind = UnitEvent::Kind::kStopping;
    return e;
  }
  return std::nullopt;
}

bool HostDaemonIdent(std::string_view ident) {
  ident = ident.substr(0, ident.find('['));
  static constexpr std::string_view kDaemons[] = {"CRON",
                                                  "cron",
                                                  "crond",
                                                  "anacron",
                                                  "sudo",
                                                  "su",
                                                  "sshd",
                                                  "login",
                                                  "systemd-logind",
                                                  "dbus-daemon",
                                                  "dbus-broker",
                                                  "polkitd",
                                                  "chronyd",
                                                  "systemd-timesyncd",
                                                  "systemd-resolved",
                                                  "rsyslogd",
                                                  "(sd-pam)",
                                                  "systemd-journald",
                                                  "snapd",
                                                  "packagekitd"};
  return std::find(std::begin(kDaemons), std::end(kDaemons), ident) != std::end(kDaemons);
}

bool BareUnitLine(std::string_view message) {
  const size_t service = message.find(".service");
  if (service == std::string_view::npos || service > 120) return false;
  const std::string_view after = message.substr(service + 8);
  if (after.starts_with(": ")) {
    const std::string_view unit = message.substr(0, service);
    return std::all_of(unit.begin(), unit.end(),
                       [](char c) {
                         return std::isalnum(static_cast<unsigned char>(c)) || c == '-' ||
                                c == '_' || c == '@' || c == '.' || c == '\\';
                       }) &&
           ParseSystemdMessage(message).has_value();
  }
  // "Started vllm.service - vLLM server." (systemd 249 and later name the unit and its
  // description), "Stopped vllm.service.".
  for (std::string_view verb : {"Started ", "Starting ", "Stopping ", "Stopped "}) {
    if (message.starts_with(verb) && message.find(' ', verb.size()) >= service &&
        (after.empty() || after.starts_with(" - ") || after == ".")) {
      return true;
    }
  }
  return false;
}

std::string_view UnitFactId(const UnitEvent& event) {
  switch (event.kind) {
    case UnitEvent::Kind::kProcessExited:
      if (event.clean) return {};
      if (event.exit_code == "killed" && event.exit_status == 9) return unit_fact::kSigkill;
      // (SIGILL dumps core where core dumps are on: "code=dumped, status=4/ILL".)
      if (event.exit_code != "exited" && event.exit_status == 4) return unit_fact::kSigill;
      return unit_fact::kProcessExited;
    case UnitEvent::Kind::kFailed:
      return unit_fact::kFailed;
    case UnitEvent::Kind::kOomKilled:
      return unit_fact::kOomKilled;
    case UnitEvent::Kind::kStopping:
      return unit_fact::kStopping;
    case UnitEvent::Kind::kLeftOverProcess:
      return unit_fact::kLeftOverProcess;
    case UnitEvent::Kind::kStarting:
    case UnitEvent::Kind::kRestartScheduled:
      break;
  }
  return {};
}

bool IsUnitFactId(std::string_view id) {
  static constexpr std::string_view kAll[] = {unit_fact::kProcessExited,  unit_fact::kSigkill,
                                              unit_fact::kSigill,         unit_fact::kFailed,
                                              unit_fact::kOomKilled,      unit_fact::kStopping,
                                              unit_fact::kLeftOverProcess};
  return std::find(std::begin(kAll), std::end(kAll), id) != std::end(kAll);
}

}  // namespace spinup

#include "proc/health.h"

#include <httplib.h>

namespace spinup::proc {

std::optional<HealthAnswer> ProbeHealthDetailed(const HealthProbeOptions& options) {
  if (options.port == 0) return std::nullopt;
  httplib::Client client(options.host, options.port);
  auto secs = [](std::chrono::milliseconds ms) {
    return std::pair<time_t, time_t>(ms.count() / 1000, (ms.count() % 1000) * 1000);
  };
  auto [cs, cus] = secs(options.connect_timeout);
  auto [rs, rus] = secs(options.read_timeout);
  client.set_connection_timeout(cs, cus);
  client.set_read_timeout(rs, rus);
  client.set_write_timeout(rs, rus);
  client.set_keep_alive(false);
  for (const char* path : {"/health", "/v1/models"}) {
    auto res = client.Get(path);
    if (!res) return std::nullopt;  // nothing answers: the second path would not either
    if (res->status == 404 || res->status == 405) continue;
    return HealthAnswer{res->status, path};
  }
  return HealthAnswer{404, "/v1/models"};
}

std::optional<int> ProbeHealth(const HealthProbeOptions& options) {
  auto answer = ProbeHealthDetailed(options);
  if (!answer) return std::nullopt;
  return answer->status;
}

}  // namespace spinup::proc

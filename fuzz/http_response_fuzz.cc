// The probes' HTTP response parsing: any bytes a (broken) server sends, never a crash, and the
// body never over its cap.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "proc/http_client.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  constexpr size_t kCap = 1024;
  auto a = spinup::ParseHttpResponse(in, kCap);
  if (a.ok() && (a->body.size() > kCap || a->status < 100)) std::abort();
  (void)spinup::HttpResponseComplete(in);
  return 0;
}

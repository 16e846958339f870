// The metrics endpoint's request handling: any bytes a client sends, never a crash, and every
// decision consistent (a complete request has a path that starts with '/'; a refusal has a status).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "sink/http_request.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  // The server never passes more than the cap plus one byte.
  if (in.size() > spinup::kMaxRequestHeadBytes + 1)
    in = in.substr(0, spinup::kMaxRequestHeadBytes + 1);
  auto h = spinup::ParseHttpRequestHead(in);
  using O = spinup::HttpRequestHead::Outcome;
  if (h.outcome == O::kComplete && (h.path.empty() || h.path.front() != '/')) std::abort();
  if (h.outcome == O::kRefused && (h.status < 400 || h.status > 599)) std::abort();
  if (h.outcome == O::kIncomplete && in.size() > spinup::kMaxRequestHeadBytes) std::abort();
  (void)spinup::HttpReasonPhrase(h.status);
  return 0;
}

// The request side of spinup's own HTTP endpoint (/metrics, /livez, /readyz), as a pure function:
// the bytes a client sent so far in, a decision out. No I/O, no allocation beyond the result, and
// a bounded look at the input (the head cap), so it is fuzzed (fuzz/http_request_fuzz.cc).
// spinup only answers GET and HEAD without a body: anything else is refused from the head alone,
// so a client can never make the server hold more than kMaxRequestHeadBytes.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace spinup {

// Request line plus headers. Prometheus and kubelet send about 200 bytes.
inline constexpr size_t kMaxRequestHeadBytes = 8192;

struct HttpRequestHead {
  enum class Outcome {
    kIncomplete,  // no blank line yet: read more (the caller enforces the cap and the deadline)
    kComplete,    // a GET or HEAD without a body: answer it
    kRefused,     // answer `status` and close (malformed, a body, an unknown method, too long)
  };
  Outcome outcome = Outcome::kIncomplete;
  int status = 0;      // kRefused: 400, 405, 413, 414, 431, 505
  std::string reason;  // kRefused: a few words for the response body
  bool head = false;   // HEAD: headers only
  std::string path;    // the target without its query string, e.g. "/metrics"
};

// `received` is everything read from the connection so far.
HttpRequestHead ParseHttpRequestHead(std::string_view received);

// "OK", "Not Found", ... for the status codes spinup answers with ("Unknown" otherwise).
std::string_view HttpReasonPhrase(int status);

}  // namespace spinup

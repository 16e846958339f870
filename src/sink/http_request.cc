#include "sink/http_request.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>

namespace spinup {

namespace {

HttpRequestHead Refuse(int status, std::string reason) {
  HttpRequestHead h;
  h.outcome = HttpRequestHead::Outcome::kRefused;
  h.status = status;
  h.reason = std::move(reason);
  return h;
}

bool EqualsNoCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Lines end in CRLF; a bare LF is accepted (curl never sends one, but netcat users do).
std::string_view NextLine(std::string_view& rest) {
  size_t nl = rest.find('\n');
  std::string_view line = rest.substr(0, nl);
  rest.remove_prefix(nl == std::string_view::npos ? rest.size() : nl + 1);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

bool PrintableTarget(std::string_view t) {
  return std::all_of(t.begin(), t.end(),
                     [](char c) { return static_cast<unsigned char>(c) > 0x20 && c != 0x7f; });
}

// A header that announces a body makes the request refused: spinup has no use for one.
std::optional<HttpRequestHead> CheckHeader(std::string_view line) {
  size_t colon = line.find(':');
  if (colon == std::string_view::npos || colon == 0) return Refuse(400, "malformed header");
  std::string_view name = line.substr(0, colon);
  if (name.find_first_of(" \t") != std::string_view::npos) return Refuse(400, "malformed header");
  std::string_view value = Trim(line.substr(colon + 1));
  if (EqualsNoCase(name, "Transfer-Encoding")) return Refuse(413, "request bodies are refused");
  if (EqualsNoCase(name, "Content-Length")) {
    uint64_t n = 0;
    auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (ec != std::errc() || p != value.data() + value.size()) {
      return Refuse(400, "bad Content-Length");
    }
    if (n > 0) return Refuse(413, "request bodies are refused");
  }
  return std::nullopt;
}

}  // namespace

HttpRequestHead ParseHttpRequestHead(std::string_view received) {
  // The cap counts every byte received, the empty lines below included.
  const size_t total = received.size();
  // Clients may send CRLFs before the request line (RFC 9112 2.2).
  while (received.starts_with("\r\n") || received.starts_with("\n")) {
    received.remove_prefix(received.front() == '\r' ? 2 : 1);
  }
  size_t end = received.find("\n\r\n");
  size_t end_lf = received.find("\n\n");
  end = std::min(end, end_lf);
  if (end == std::string_view::npos) {
    if (total >= kMaxRequestHeadBytes) {
      // Tell a long request line from long headers, as servers usually do.
      return received.find('\n') == std::string_view::npos
                 ? Refuse(414, "request line too long")
                 : Refuse(431, "request headers too large");
    }
    // A request line can be judged before the headers end: refuse early what will be refused.
    size_t first_nl = received.find('\n');
    if (first_nl == std::string_view::npos) return HttpRequestHead{};
  }
  if (end != std::string_view::npos && end + 1 + (total - received.size()) > kMaxRequestHeadBytes) {
    return Refuse(431, "request headers too large");
  }
  std::string_view rest =
      received.substr(0, end == std::string_view::npos ? received.size() : end + 1);
  std::string_view line = NextLine(rest);
  size_t sp1 = line.find(' ');
  size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
  if (sp2 == std::string_view::npos || line.find(' ', sp2 + 1) != std::string_view::npos) {
    return Refuse(400, "malformed request line");
  }
  std::string_view method = line.substr(0, sp1);
  std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
  std::string_view version = line.substr(sp2 + 1);
  if (!version.starts_with("HTTP/")) return Refuse(400, "malformed request line");
  if (version != "HTTP/1.1" && version != "HTTP/1.0") return Refuse(505, "HTTP/1.x only");
  if (target.empty() || target.front() != '/' || !PrintableTarget(target)) {
    return Refuse(400, "bad request target");
  }
  if (method != "GET" && method != "HEAD") return Refuse(405, "only GET and HEAD");
  // Headers seen so far (complete lines only when the head has not ended yet).
  const bool complete = end != std::string_view::npos;
  while (!rest.empty()) {
    if (!complete && rest.find('\n') == std::string_view::npos) break;
    std::string_view h = NextLine(rest);
    if (h.empty()) break;
    if (auto refused = CheckHeader(h)) return *refused;
  }
  if (!complete) return HttpRequestHead{};
  HttpRequestHead out;
  out.outcome = HttpRequestHead::Outcome::kComplete;
  out.head = method == "HEAD";
  out.path = std::string(target.substr(0, target.find('?')));
  return out;
}

std::string_view HttpReasonPhrase(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 400:
      return "Bad Request";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 408:
      return "Request Timeout";
    case 413:
      return "Content Too Large";
    case 414:
      return "URI Too Long";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 503:
      return "Service Unavailable";
    case 505:
      return "HTTP Version Not Supported";
    default:
      return "Unknown";
  }
}

}  // namespace spinup

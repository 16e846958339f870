#include "proc/http_client.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <optional>

#include "base/net.h"

namespace spinup {
namespace {

constexpr size_t kMaxHead = 64 << 10;

bool IEquals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return (x | 0x20) == (y | 0x20);
         });
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

struct Head {
  int status = 0;
  bool chunked = false;
  std::optional<size_t> content_length;
  size_t body_at = 0;
};

// The status line and the two framing headers; nullopt while the head is incomplete or invalid.
std::optional<Head> ParseHead(std::string_view raw) {
  const size_t end = raw.substr(0, kMaxHead).find("\r\n\r\n");
  if (end == std::string_view::npos || !raw.starts_with("HTTP/1.")) return std::nullopt;
  Head h;
  h.body_at = end + 4;
  std::string_view head = raw.substr(0, end);
  const size_t sp = head.find(' ');
  if (sp == std::string_view::npos || head.size() < sp + 4) return std::nullopt;
  auto [p, ec] = std::from_chars(head.data() + sp + 1, head.data() + sp + 4, h.status);
  if (ec != std::errc() || p != head.data() + sp + 4 || h.status < 100) return std::nullopt;
  size_t pos = head.find("\r\n");
  while (pos != std::string_view::npos) {
    head.remove_prefix(pos + 2);
    pos = head.find("\r\n");
    std::string_view line = head.substr(0, pos);
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view name = Trim(line.substr(0, colon)), value = Trim(line.substr(colon + 1));
    if (IEquals(name, "transfer-encoding") && IEquals(value, "chunked")) h.chunked = true;
    if (IEquals(name, "content-length")) {
      size_t n = 0;
      auto [q, e] = std::from_chars(value.data(), value.data() + value.size(), n);
      if (e == std::errc() && q == value.data() + value.size()) h.content_length = n;
    }
  }
  return h;
}

// De-chunks `in`; `whole` says whether the last (zero) chunk was seen.
std::string Dechunk(std::string_view in, size_t max_body, bool* whole) {
  std::string out;
  *whole = false;
  while (out.size() < max_body) {
    const size_t eol = in.find("\r\n");
    if (eol == std::string_view::npos) break;
    size_t n = 0;
    std::string_view size_text = in.substr(0, std::min(eol, in.find(';')));
    auto [p, ec] = std::from_chars(size_text.data(), size_text.data() + size_text.size(), n, 16);
    if (ec != std::errc() || p == size_text.data()) break;
    if (n == 0) {
      *whole = true;
      break;
    }
    in.remove_prefix(eol + 2);
    std::string_view data = in.substr(0, n);
    out.append(data.substr(0, max_body - out.size()));
    if (data.size() < n || in.size() < n + 2) break;
    in.remove_prefix(n + 2);
  }
  return out;
}

}  // namespace

Result<HttpAnswer> ParseHttpResponse(std::string_view raw, size_t max_body) {
  auto head = ParseHead(raw);
  if (!head) return Status::Io("not an HTTP answer");
  HttpAnswer a;
  a.status = head->status;
  std::string_view body = raw.substr(head->body_at);
  if (head->chunked) {
    bool whole = false;
    a.body = Dechunk(body, max_body, &whole);
  } else {
    if (head->content_length) body = body.substr(0, *head->content_length);
    a.body = std::string(body.substr(0, max_body));
  }
  return a;
}

bool HttpResponseComplete(std::string_view raw) {
  auto head = ParseHead(raw);
  if (!head) return false;
  std::string_view body = raw.substr(head->body_at);
  if (head->chunked) {
    bool whole = false;
    Dechunk(body, SIZE_MAX, &whole);
    return whole;
  }
  if (head->content_length) return body.size() >= *head->content_length;
  return head->status == 204 || head->status == 304 || head->status < 200;
}

namespace {

// Waits for `events` in slices of at most 100 ms, so a cancel is seen promptly.
Status Wait(int fd, short events, std::chrono::steady_clock::time_point deadline,
            const std::atomic<bool>* cancel) {
  for (;;) {
    if (cancel != nullptr && cancel->load()) return Status::Io("canceled");
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) return Status::Io("timed out");
    const auto slice = std::min(deadline, now + std::chrono::milliseconds(100));
    if (PollUntil(fd, events, slice)) return Status::Ok();
  }
}

std::string RequestText(const HttpCall& c) {
  const bool v6 = c.host.find(':') != std::string::npos;
  std::string r =
      c.method + " " + c.path + " HTTP/1.1\r\nHost: " + (v6 ? "[" + c.host + "]" : c.host) + ":" +
      std::to_string(c.port) + "\r\nUser-Agent: spinup\r\nAccept: */*\r\nConnection: close\r\n";
  if (!c.body.empty() || c.method == "POST") {
    r += "Content-Type: application/json\r\nContent-Length: " + std::to_string(c.body.size()) +
         "\r\n";
  }
  return r + "\r\n" + c.body;
}

Result<std::string> Exchange(int fd, const HttpCall& c) {
  const auto deadline = std::chrono::steady_clock::now() + c.timeout;
  const std::string req = RequestText(c);
  for (size_t sent = 0; sent < req.size();) {
    if (Status st = Wait(fd, POLLOUT, deadline, c.cancel); !st.ok()) return st;
    ssize_t n = ::send(fd, req.data() + sent, req.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) return Status::FromErrno(errno, "send");
    sent += static_cast<size_t>(n);
  }
  std::string got;
  char buf[16 << 10];
  while (got.size() < c.max_response && !HttpResponseComplete(got)) {
    if (Status st = Wait(fd, POLLIN, deadline, c.cancel); !st.ok()) return st;
    ssize_t n = ::recv(fd, buf, std::min(sizeof(buf), c.max_response - got.size()), 0);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n < 0) return Status::FromErrno(errno, "recv");
    if (n == 0) break;  // the server closed: the response is what it sent
    got.append(buf, static_cast<size_t>(n));
  }
  return got;
}

}  // namespace

Result<HttpAnswer> HttpExchange(const HttpCall& c) {
  if (c.cancel != nullptr && c.cancel->load()) return Status::Io("canceled");
  auto fd = ConnectTcp(c.host, c.port, c.connect_timeout);
  if (!fd.ok()) return fd.status();  // "127.0.0.1:30000: Connection refused"
  auto raw = Exchange(*fd, c);
  ::close(*fd);
  if (!raw.ok()) return raw.status();
  return ParseHttpResponse(*raw, c.max_response);
}

}  // namespace spinup

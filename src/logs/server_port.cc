#include "logs/server_port.h"

#include <array>

namespace spinup {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool IsWordByte(char c) {
  return IsDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '-';
}

std::optional<int> PortAt(std::string_view s, size_t at) {
  int port = 0;
  size_t n = 0;
  while (at + n < s.size() && IsDigit(s[at + n]) && n < 6) {
    port = port * 10 + (s[at + n] - '0');
    ++n;
  }
  if (n == 0 || n > 5 || (at + n < s.size() && IsWordByte(s[at + n]))) return std::nullopt;
  if (port < 1 || port > 65535) return std::nullopt;
  return port;
}

}  // namespace

std::optional<int> LaunchArgPort(std::string_view line) {
  // "port" alone: not "master_port=", "--metrics-port 9000" or "transport: ".
  static constexpr std::array<std::string_view, 5> kKeys = {"--port=", "--port ",
                                                            "'port': ", "port=", "port: "};
  for (std::string_view key : kKeys) {
    for (size_t at = line.find(key); at != std::string_view::npos; at = line.find(key, at + 1)) {
      if (at > 0 && IsWordByte(line[at - 1])) continue;
      if (auto port = PortAt(line, at + key.size())) return port;
    }
  }
  return std::nullopt;
}

std::optional<int> BindTuplePort(std::string_view line) {
  const size_t open = line.find("address ('");
  if (open == std::string_view::npos) return std::nullopt;
  const size_t comma = line.find("', ", open + 10);
  if (comma == std::string_view::npos || comma > open + 10 + 64) return std::nullopt;
  return PortAt(line, comma + 3);
}

std::optional<int> UrlPort(std::string_view line) {
  const size_t scheme = line.find("://");
  if (scheme == std::string_view::npos) return std::nullopt;
  size_t at = scheme + 3;
  if (at < line.size() && line[at] == '[') {  // an IPv6 host: [::]:8000
    const size_t close = line.find(']', at);
    if (close == std::string_view::npos) return std::nullopt;
    at = close + 1;
  } else {
    while (at < line.size() && line[at] != ':' && line[at] != '/' && line[at] != ' ') ++at;
  }
  if (at >= line.size() || line[at] != ':') return std::nullopt;
  return PortAt(line, at + 1);
}

}  // namespace spinup

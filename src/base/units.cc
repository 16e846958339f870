#include "base/units.h"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <string>

#include "base/ascii.h"

namespace spinup {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Parses the number part by hand (digits, one optional '.', digits): no exponent, no sign, so
// "1e9" and "-5" are rejected rather than half-read.
bool ParseNumber(std::string_view s, long double* out, size_t* used) {
  long double value = 0;
  size_t i = 0;
  bool digits = false;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
    value = value * 10 + (s[i] - '0');
    digits = true;
    ++i;
  }
  if (i < s.size() && s[i] == '.') {
    ++i;
    long double scale = 0.1L;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
      value += (s[i] - '0') * scale;
      scale /= 10;
      digits = true;
      ++i;
    }
  }
  if (!digits || i > 40) return false;  // more than 40 characters of number is not a size
  *out = value;
  *used = i;
  return true;
}

bool UnitMultiplier(std::string_view unit_text, long double* mult) {
  std::string unit = AsciiLower(Trim(unit_text));
  if (unit.empty() || unit == "b") {
    *mult = 1;
    return true;
  }
  static constexpr std::string_view kPrefixes = "kmgtp";
  size_t power = kPrefixes.find(unit[0]);
  if (power == std::string_view::npos) return false;
  std::string_view rest = std::string_view(unit).substr(1);
  long double base;
  if (rest.empty() || rest == "b") {
    base = 1000;
  } else if (rest == "i" || rest == "ib") {
    base = 1024;
  } else {
    return false;
  }
  *mult = std::pow(base, static_cast<long double>(power + 1));
  return true;
}

}  // namespace

Result<uint64_t> ParseByteSize(std::string_view text) {
  std::string_view s = Trim(text);
  long double number = 0;
  size_t used = 0;
  if (!ParseNumber(s, &number, &used)) {
    return Status::InvalidArgument(fmt::format("'{}' is not a size (e.g. 96GiB, 80GB)", text));
  }
  long double mult = 1;
  if (!UnitMultiplier(s.substr(used), &mult)) {
    return Status::InvalidArgument(
        fmt::format("'{}': unknown unit (use B, KB, MB, GB, TB or KiB, MiB, GiB, TiB)", text));
  }
  long double bytes = std::round(number * mult);
  if (bytes >= 18446744073709551615.0L) {
    return Status::InvalidArgument(fmt::format("'{}' is too large", text));
  }
  return static_cast<uint64_t>(bytes);
}

Result<double> ParseByteRate(std::string_view text) {
  std::string_view s = Trim(text);
  std::string lower = AsciiLower(s);
  if (lower.size() >= 2 && lower.compare(lower.size() - 2, 2, "/s") == 0) {
    s.remove_suffix(2);
  }
  auto bytes = ParseByteSize(s);
  if (!bytes.ok()) {
    return Status::InvalidArgument(fmt::format("'{}' is not a rate (e.g. 500MB/s, 2.2GB/s)", text));
  }
  if (*bytes == 0)
    return Status::InvalidArgument(fmt::format("'{}': rate must be above zero", text));
  return static_cast<double>(*bytes);
}

std::string FormatBytes(uint64_t bytes) {
  static constexpr const char* kUnits[] = {"kB", "MB", "GB", "TB", "PB", "EB"};
  if (bytes < 1000) return fmt::format("{} B", bytes);
  double v = static_cast<double>(bytes) / 1000;
  size_t u = 0;
  while (v >= 999.95 && u + 1 < std::size(kUnits)) {
    v /= 1000;
    ++u;
  }
  return fmt::format("{:.1f} {}", v, kUnits[u]);
}

std::string FormatBytesBinary(uint64_t bytes) {
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024) return fmt::format("{} B", bytes);
  double v = static_cast<double>(bytes) / 1024;
  size_t u = 0;
  while (v >= 1023.95 && u + 1 < std::size(kUnits)) {
    v /= 1024;
    ++u;
  }
  return fmt::format("{:.1f} {}", v, kUnits[u]);
}

std::string FormatRate(double bytes_per_s) {
  static constexpr const char* kUnits[] = {"B/s", "kB/s", "MB/s", "GB/s", "TB/s"};
  double v = bytes_per_s;
  size_t u = 0;
  while (v >= 999.95 && u + 1 < std::size(kUnits)) {
    v /= 1000;
    ++u;
  }
  // Whole numbers print without a decimal ("500 MB/s"), others with one ("2.2 GB/s").
  if (std::fabs(v - std::round(v)) < 0.05) return fmt::format("{:.0f} {}", v, kUnits[u]);
  return fmt::format("{:.1f} {}", v, kUnits[u]);
}

std::string FormatApproxDuration(double seconds) {
  if (!(seconds >= 0)) return "unknown";
  if (seconds < 0.5) return "under 1 s";
  if (seconds < 90) return fmt::format("about {:.0f} s", std::round(seconds));
  double minutes = std::round(seconds / 60);
  if (minutes < 90) return fmt::format("about {:.0f} min", minutes);
  auto total = static_cast<uint64_t>(minutes);
  return fmt::format("about {} h {} min", total / 60, total % 60);
}

}  // namespace spinup

#include "base/duration.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

namespace spinup {

Result<double> ParseDuration(std::string_view text) {
  const std::string original(text);
  auto bad = [&] {
    return Status::InvalidArgument("'" + original +
                                   "' is not a duration (e.g. 0.5s, 90s, 5m, 1h30m, 250ms)");
  };
  if (text.empty() || text.size() > 64) return bad();
  double total = 0;
  bool any = false;
  while (!text.empty()) {
    size_t i = 0;
    while (i < text.size() && ((text[i] >= '0' && text[i] <= '9') || text[i] == '.')) ++i;
    if (i == 0) return bad();
    double value = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + i, value);
    if (ec != std::errc() || ptr != text.data() + i) return bad();
    text.remove_prefix(i);
    size_t j = 0;
    while (j < text.size() && text[j] >= 'a' && text[j] <= 'z') ++j;
    std::string_view unit = text.substr(0, j);
    text.remove_prefix(j);
    double scale = 0;
    if (unit.empty()) {
      if (any || !text.empty()) return bad();  // a bare number only on its own
      scale = 1;
    } else if (unit == "ms") {
      scale = 0.001;
    } else if (unit == "s" || unit == "sec") {
      scale = 1;
    } else if (unit == "m" || unit == "min") {
      scale = 60;
    } else if (unit == "h") {
      scale = 3600;
    } else if (unit == "d") {
      scale = 86400;
    } else {
      return bad();
    }
    total += value * scale;
    any = true;
  }
  if (!std::isfinite(total) || total < 0 || total > 10.0 * 365 * 86400) return bad();
  return total;
}

std::string FormatDurationShort(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  if (seconds < 1) return fmt::format("{}ms", static_cast<int>(seconds * 1000));
  auto s = static_cast<long long>(seconds + 0.5);
  if (s < 60) return fmt::format("{}s", s);
  if (s < 3600) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}h{:02}m", s / 3600, (s % 3600) / 60);
}

std::string FormatDuration(double s) {
  if (!std::isfinite(s) || s < 0) s = 0;
  if (s < 10) return fmt::format("{:.1f} s", s);
  auto total = static_cast<int64_t>(std::llround(s));
  if (total < 60) return fmt::format("{} s", total);
  if (total < 3600) {
    return total % 60 ? fmt::format("{} min {} s", total / 60, total % 60)
                      : fmt::format("{} min", total / 60);
  }
  return fmt::format("{} h {:02} min", total / 3600, total % 3600 / 60);
}

}  // namespace spinup

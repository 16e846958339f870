#include "logs/gpu_oom_figures.h"

#include <re2/re2.h>

#include <algorithm>
#include <cstdlib>
#include <string>

namespace spinup {
namespace {

constexpr size_t kMaxLine = 4096;

double UnitBytes(std::string_view unit) {
  if (unit.empty()) return 1;
  switch (unit[0]) {
    case 'K':
      return 1024.0;
    case 'M':
      return 1024.0 * 1024;
    case 'G':
      return 1024.0 * 1024 * 1024;
    case 'T':
      return 1024.0 * 1024 * 1024 * 1024;
    default:
      return 1;
  }
}

// "1.12 GiB" in the captures (number, unit) → bytes.
double Bytes(const std::string& number, const std::string& unit) {
  return std::strtod(number.c_str(), nullptr) * UnitBytes(unit);
}

#define SPINUP_SIZE R"((\d{1,9}(?:\.\d{1,4})?) ([KMGT]i?B|bytes))"

}  // namespace

double GpuOomFigures::HeldElsewhereBytes() const {
  const double mine = this_process_bytes ? *this_process_bytes : pytorch_bytes;
  return std::max(0.0, total_bytes - free_bytes - mine);
}

std::optional<GpuOomFigures> ParseGpuOomFigures(std::string_view line) {
  if (line.size() > kMaxLine || line.find("out of memory") == line.npos) return std::nullopt;
  GpuOomFigures f;
  std::string n1, u1, n2, u2, n3, u3, n4, u4;
  static const RE2 kNew("total capacity of " SPINUP_SIZE " of which " SPINUP_SIZE " is free");
  static const RE2 kOld("; " SPINUP_SIZE " total capacity; [^;]{1,40}; " SPINUP_SIZE
                        " free; " SPINUP_SIZE " reserved in total by PyTorch");
  if (RE2::PartialMatch(line, kNew, &n1, &u1, &n2, &u2)) {
    static const RE2 kPytorch("Of the allocated memory " SPINUP_SIZE
                              " is allocated by PyTorch, and " SPINUP_SIZE " is reserved");
    if (!RE2::PartialMatch(line, kPytorch, &n3, &u3, &n4, &u4)) return std::nullopt;
    f.total_bytes = Bytes(n1, u1);
    f.free_bytes = Bytes(n2, u2);
    f.pytorch_bytes = Bytes(n3, u3) + Bytes(n4, u4);
    static const RE2 kMine("this process has " SPINUP_SIZE " memory in use");
    if (RE2::PartialMatch(line, kMine, &n1, &u1)) f.this_process_bytes = Bytes(n1, u1);
  } else if (RE2::PartialMatch(line, kOld, &n1, &u1, &n2, &u2, &n3, &u3)) {
    f.total_bytes = Bytes(n1, u1);
    f.free_bytes = Bytes(n2, u2);
    f.pytorch_bytes = Bytes(n3, u3);
  } else {
    return std::nullopt;
  }
  if (f.total_bytes <= 0 || f.free_bytes > f.total_bytes) return std::nullopt;
  return f;
}

#undef SPINUP_SIZE

}  // namespace spinup

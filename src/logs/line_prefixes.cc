#include "logs/line_prefixes.h"

#include <algorithm>

namespace spinup {

namespace {

// The range of first bytes of every anchored match of `re`, from RE2's PossibleMatchRange (any
// anchored match s has min <= s <= max, so its first byte lies within [min[0], max[0]]). The
// whole range when the regex may match the empty string or RE2 cannot tell.
void FirstByteRange(const RE2& re, unsigned char* lo, unsigned char* hi) {
  *lo = 0;
  *hi = 255;
  std::string min, max;
  if (!re.PossibleMatchRange(&min, &max, 1) || min.empty()) return;
  *lo = static_cast<unsigned char>(min[0]);
  if (!max.empty()) *hi = static_cast<unsigned char>(max[0]);
}

}  // namespace

PrefixBook::PrefixBook() = default;
PrefixBook::~PrefixBook() = default;
PrefixBook::PrefixBook(PrefixBook&&) noexcept = default;
PrefixBook& PrefixBook::operator=(PrefixBook&&) noexcept = default;

Status PrefixBook::Compile() {
  compiled_.clear();
  first_bytes_ = {};
  any_first_ = false;
  for (const auto& p : prefixes_) {
    RE2::Options o;
    o.set_log_errors(false);
    o.set_max_mem(8 << 20);  // a prefix is short; a pathological one is refused, not run
    Compiled c;
    c.re = std::make_unique<RE2>("^(?:" + p.regex + ")", o);
    if (!c.re->ok()) {
      return Status::Corrupt(p.source + ": prefix: " + c.re->error());
    }
    for (const auto& [name, index] : c.re->NamedCapturingGroups()) {
      if (index >= 8) return Status::Corrupt(p.source + ": prefix: at most 7 groups");
      if (name == "time") {
        c.time = index;
      } else if (name == "level") {
        c.level = index;
      } else if (name == "rank") {
        c.rank = index;
      } else {
        return Status::Corrupt(p.source + ": prefix: unknown group \"" + name +
                               "\" (time, level, rank)");
      }
    }
    FirstByteRange(*c.re, &c.first_lo, &c.first_hi);
    if (c.first_lo == 0 && c.first_hi == 255) any_first_ = true;
    for (unsigned b = c.first_lo; b <= c.first_hi; ++b)
      first_bytes_[b >> 6] |= uint64_t{1} << (b & 63);
    compiled_.push_back(std::move(c));
  }
  return Status::Ok();
}

std::optional<PrefixMatch> PrefixBook::Match(std::string_view line) const {
  for (size_t i = 0; i < compiled_.size(); ++i) {
    const Compiled& c = compiled_[i];
    // A prefix matches at least one byte (else the range is the whole byte range).
    if (c.first_lo != 0 || c.first_hi != 255) {
      if (line.empty()) continue;
      const auto first = static_cast<unsigned char>(line[0]);
      if (first < c.first_lo || first > c.first_hi) continue;
    }
    if (auto m = MatchAt(i, line)) return m;
  }
  return std::nullopt;
}

std::optional<PrefixMatch> PrefixBook::MatchAt(size_t i, std::string_view line) const {
  const Compiled& c = compiled_[i];
  re2::StringPiece groups[8];
  const int n = std::min(c.re->NumberOfCapturingGroups() + 1, 8);
  if (!c.re->Match(re2::StringPiece(line.data(), line.size()), 0, line.size(), RE2::ANCHOR_START,
                   groups, n)) {
    return std::nullopt;
  }
  auto group = [&](int g) -> std::string_view {
    if (g <= 0 || g >= n || groups[g].data() == nullptr) return {};
    return std::string_view(groups[g].data(), groups[g].size());
  };
  PrefixMatch m;
  m.engine = &prefixes_[i].engine;
  m.time = group(c.time);
  m.level = group(c.level);
  m.rank = group(c.rank);
  m.message = line.substr(std::min(line.size(), static_cast<size_t>(groups[0].size())));
  return m;
}

}  // namespace spinup

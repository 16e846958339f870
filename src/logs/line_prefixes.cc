#include "logs/line_prefixes.h"

#include <algorithm>

namespace spinup {

PrefixBook::PrefixBook() = default;
PrefixBook::~PrefixBook() = default;
PrefixBook::PrefixBook(PrefixBook&&) noexcept = default;
PrefixBook& PrefixBook::operator=(PrefixBook&&) noexcept = default;

Status PrefixBook::Compile() {
  compiled_.clear();
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
    compiled_.push_back(std::move(c));
  }
  return Status::Ok();
}

std::optional<PrefixMatch> PrefixBook::Match(std::string_view line) const {
  re2::StringPiece groups[8];
  for (size_t i = 0; i < compiled_.size(); ++i) {
    const Compiled& c = compiled_[i];
    const int n = std::min(c.re->NumberOfCapturingGroups() + 1, 8);
    if (!c.re->Match(re2::StringPiece(line.data(), line.size()), 0, line.size(), RE2::ANCHOR_START,
                     groups, n)) {
      continue;
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
  return std::nullopt;
}

}  // namespace spinup

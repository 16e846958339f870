// Line prefixes taught by rules files ("prefixes", docs/rules.md): for an engine whose lines the
// built-in parsers (logs/line_parser.h: SGLang, vLLM, TGI, TensorRT-LLM, the common wrappers) do
// not know. Each prefix is an anchored RE2 whose named groups `time`, `level` and `rank` are read;
// the text after the match is the message. They are tried only on lines no built-in prefix
// recognised, so the known engines pay nothing for them.
#pragma once

#include <re2/re2.h>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spinup/status.h"

namespace spinup {

struct LinePrefix {
  std::string engine;  // the file's engine: a match identifies it
  std::string regex;
  std::string source;  // "file:line", for messages
};

struct PrefixMatch {
  const std::string* engine = nullptr;
  std::string_view time;   // the `time` group ("" when absent)
  std::string_view level;  // the `level` group
  std::string_view rank;   // the `rank` group
  std::string_view message;
};

class PrefixBook {
 public:
  PrefixBook();
  ~PrefixBook();
  PrefixBook(PrefixBook&&) noexcept;
  PrefixBook& operator=(PrefixBook&&) noexcept;

  void Add(LinePrefix prefix) { prefixes_.push_back(std::move(prefix)); }
  // Compiles every prefix; a bad regex, or a group other than time/level/rank, names its source.
  Status Compile();
  bool empty() const { return prefixes_.empty(); }
  // The first prefix that matches at the start of `line`. Thread-safe.
  std::optional<PrefixMatch> Match(std::string_view line) const;
  // False when no prefix can match `line` (its first byte starts none): Match would fail. Inline,
  // for the lines no built-in prefix recognised, which would otherwise each pay Match's call.
  bool MayMatch(std::string_view line) const {
    if (line.empty()) return any_first_;
    const auto c = static_cast<unsigned char>(line[0]);
    return ((first_bytes_[c >> 6] >> (c & 63)) & 1) != 0;
  }

 private:
  struct Compiled {
    std::unique_ptr<RE2> re;
    int time = 0, level = 0, rank = 0;  // group indices, 0 when absent
    // The bytes a match can start with, [first_lo, first_hi]: a line starting elsewhere is
    // refused without running the regex (most lines reach Match, and RE2's call costs more than
    // the rest of the line's prefix parse).
    unsigned char first_lo = 0, first_hi = 255;
  };
  // Prefix i's regex on `line` (Match's first-byte test passed).
  std::optional<PrefixMatch> MatchAt(size_t i, std::string_view line) const;

  std::vector<LinePrefix> prefixes_;
  std::vector<Compiled> compiled_;
  // The union of the compiled prefixes' first bytes (a bit per byte), and whether one may match
  // with no first-byte bound (then every bit is set).
  std::array<uint64_t, 4> first_bytes_{};
  bool any_first_ = false;
};

}  // namespace spinup

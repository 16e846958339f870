// The text side of PatternMatcher's build: reading a regex's top-level alternatives, its anchors
// and the literal strings it stands for (pattern_matcher_internal.h).
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "logs/pattern_matcher_internal.h"

namespace spinup::pattern_internal {

namespace {

// Where the character class opening at re[k] ends (the index after its ']'). "[]x]" and "[^]x]"
// hold a literal ']'; "[[:alpha:]]" a named class.
size_t ClassEnd(std::string_view re, size_t k) {
  size_t j = k + 1;
  if (j < re.size() && re[j] == '^') ++j;
  if (j < re.size() && re[j] == ']') ++j;
  while (j < re.size() && re[j] != ']') {
    if (re[j] == '\\') {
      ++j;
    } else if (re.substr(j, 2) == "[:") {
      const size_t end = re.find(":]", j + 2);
      if (end != std::string_view::npos) j = end + 1;
    }
    ++j;
  }
  return j + 1;
}

}  // namespace

// Splits a regex at its top-level '|' (outside groups and character classes). Empty when the
// parentheses do not balance (RE2 rejects such a regex anyway). `top_flags` (when given) is set
// when a flag group such as "(?i)" sits at the top level: its flags reach the alternatives after
// it, so they do not stand alone.
std::vector<std::string_view> TopLevelAlternatives(std::string_view regex, bool* top_flags) {
  std::vector<std::string_view> parts;
  int depth = 0;
  size_t from = 0;
  for (size_t k = 0; k < regex.size(); ++k) {
    const char c = regex[k];
    if (c == '\\') {
      ++k;
    } else if (c == '[') {
      k = ClassEnd(regex, k) - 1;
    } else if (c == '(') {
      if (depth == 0 && top_flags != nullptr && regex.substr(k, 2) == "(?") {
        size_t j = k + 2;
        while (j < regex.size() &&
               (std::isalpha(static_cast<unsigned char>(regex[j])) != 0 || regex[j] == '-')) {
          ++j;
        }
        if (j < regex.size() && regex[j] == ')') *top_flags = true;
      }
      ++depth;
    } else if (c == ')') {
      if (--depth < 0) return {};
    } else if (c == '|' && depth == 0) {
      parts.push_back(regex.substr(from, k - from));
      from = k + 1;
    }
  }
  if (depth != 0) return {};
  parts.push_back(regex.substr(std::min(from, regex.size())));
  return parts;
}

// "^a" and "^a|^b" are anchored; "^a|b" is not: every top-level alternative starts with '^'.
bool IsAnchored(std::string_view regex) {
  auto parts = TopLevelAlternatives(regex);
  if (parts.empty()) return false;
  for (auto part : parts) {
    if (part.empty() || part[0] != '^') return false;
  }
  return true;
}

namespace {

constexpr std::string_view kMeta = "\\^$.|?*+()[]{}";

// The literal byte at re[k] as PlainLiteral reads it: ASCII other than a metacharacter, or an
// escaped metacharacter ('/', '-' and '"' too). How many regex bytes it takes; 0 when it is not
// one (classes, repeats, groups, flags, escapes such as \d or \b, non-ASCII).
size_t LiteralByte(std::string_view re, size_t k, char* out) {
  const auto c = static_cast<unsigned char>(re[k]);
  if (c < 0x20 || c >= 0x7f) return 0;
  if (c == '\\') {
    if (k + 1 >= re.size()) return 0;
    const char e = re[k + 1];
    if (kMeta.find(e) == std::string_view::npos && e != '/' && e != '-' && e != '"') return 0;
    *out = e;
    return 2;
  }
  if (kMeta.find(static_cast<char>(c)) != std::string_view::npos) return 0;
  *out = static_cast<char>(c);
  return 1;
}

}  // namespace

// The literal a regex stands for when it is nothing but literal bytes (after an optional
// leading '^'): LiteralByte's bytes only.
std::optional<std::string> PlainLiteral(std::string_view re) {
  std::string lit;
  for (size_t k = 0; k < re.size();) {
    char c = 0;
    const size_t n = LiteralByte(re, k, &c);
    if (n == 0) return std::nullopt;
    lit.push_back(c);
    k += n;
  }
  if (lit.empty()) return std::nullopt;
  return lit;
}

// The literal bytes every match of `part` (one alternative, its '^' removed) starts with, as
// PlainLiteral reads them, up to the first other metacharacter; a quantifier there takes the
// last byte back ("ab?c" starts with "a"). Empty when there is none.
std::string LeadingLiteral(std::string_view part) {
  std::string lit;
  size_t k = 0;
  while (k < part.size()) {
    char c = 0;
    const size_t n = LiteralByte(part, k, &c);
    if (n == 0) break;
    lit.push_back(c);
    k += n;
  }
  if (k < part.size() && !lit.empty() &&
      std::string_view("?*+{").find(part[k]) != std::string_view::npos) {
    lit.pop_back();
  }
  return lit;
}

// Each top-level alternative's leading literal, when every alternative starts with '^' and one;
// empty otherwise (a top-level flag group such as "(?i)" may change what later ones match).
std::vector<std::string> AnchoredHeads(std::string_view regex) {
  bool top_flags = false;
  const std::vector<std::string_view> parts = TopLevelAlternatives(regex, &top_flags);
  std::vector<std::string> heads;
  if (parts.empty() || top_flags || regex.find("\\Q") != std::string_view::npos) return heads;
  for (std::string_view part : parts) {
    if (part.empty() || part[0] != '^') return {};
    std::string head = LeadingLiteral(part.substr(1));
    if (head.empty()) return {};
    heads.push_back(std::move(head));
  }
  return heads;
}

// The literals a regex stands for when it is an alternation of plain literals, each maybe
// anchored: "lit", "^lit", "^a|b|^c", "^(?:a|b)" (one group around everything after '^').
std::optional<std::vector<PlainLiteralPart>> PlainLiterals(std::string_view regex) {
  std::vector<std::string_view> parts = TopLevelAlternatives(regex);
  bool all_prefix = false;
  if (parts.size() == 1 && regex.size() > 3 && regex.substr(0, 2) == "^(" && regex.back() == ')') {
    // "^(?:a|b)" / "^(a|b)": the group must close only at the very end.
    std::string_view inner = regex.substr(2, regex.size() - 3);
    if (inner.substr(0, 2) == "?:") {
      inner.remove_prefix(2);
    } else if (!inner.empty() && inner[0] == '?') {
      return std::nullopt;  // flags or a named group
    }
    // The inner text balancing on its own means the first '(' closes at the end ("^(a)(b)"
    // does not).
    auto inner_parts = TopLevelAlternatives(inner);
    if (inner_parts.empty()) return std::nullopt;
    parts = std::move(inner_parts);
    all_prefix = true;
  }
  std::vector<PlainLiteralPart> out;
  for (std::string_view part : parts) {
    PlainLiteralPart lit;
    lit.prefix = all_prefix;
    if (!part.empty() && part[0] == '^') {
      if (all_prefix) return std::nullopt;
      lit.prefix = true;
      part.remove_prefix(1);
    }
    auto text = PlainLiteral(part);
    if (!text) return std::nullopt;
    lit.text = std::move(*text);
    out.push_back(std::move(lit));
  }
  if (out.empty()) return std::nullopt;
  return out;
}

// The strings a regex of literal bytes and groups of literal alternatives stands for, each maybe
// after '^' and before "$" or "\\s*$": ", in (?:load_model|load_weights)\\s*$", a traceback
// frame's rule, is two strings at the message's end. Nullopt for anything else (a nested group, a
// repeat, a class), past 32 strings, or where "\\s*$" follows a space (trimming would eat it).
std::optional<std::vector<PlainLiteralPart>> LiteralSet(std::string_view re) {
  constexpr size_t kMaxStrings = 32;
  PlainLiteralPart::End end = PlainLiteralPart::End::kAnywhere;
  const bool prefix = !re.empty() && re[0] == '^';
  std::vector<std::string> set = {""};
  auto quantified = [&](size_t k) {  // a repeat applies to what ends before k
    return k < re.size() && std::string_view("?*+{").find(re[k]) != std::string_view::npos;
  };
  for (size_t k = prefix ? 1 : 0; k < re.size();) {
    const std::string_view rest = re.substr(k);
    if (rest == "$" || rest == "\\s*$") {
      end = rest == "$" ? PlainLiteralPart::End::kAtEnd : PlainLiteralPart::End::kBeforeSpace;
      break;
    }
    if (rest.substr(0, 3) == "(?:") {
      size_t close = k + 3;  // the first ')' not escaped; no group or class inside
      while (close < re.size() && re[close] != ')') {
        if (re[close] == '(' || re[close] == '[') return std::nullopt;
        close += re[close] == '\\' ? 2 : 1;
      }
      if (close >= re.size() || quantified(close + 1)) return std::nullopt;
      std::vector<std::string> options;
      for (std::string_view part : TopLevelAlternatives(re.substr(k + 3, close - k - 3))) {
        auto lit = PlainLiteral(part);
        if (!lit) return std::nullopt;
        options.push_back(std::move(*lit));
      }
      if (options.empty() || set.size() * options.size() > kMaxStrings) return std::nullopt;
      std::vector<std::string> next;
      for (const std::string& head : set) {
        for (const std::string& tail : options) next.push_back(head + tail);
      }
      set = std::move(next);
      k = close + 1;
      continue;
    }
    char c = 0;
    const size_t n = LiteralByte(re, k, &c);
    if (n == 0 || quantified(k + n)) return std::nullopt;
    for (std::string& s : set) s.push_back(c);
    k += n;
  }
  std::vector<PlainLiteralPart> out;
  for (std::string& s : set) {
    if (s.empty()) return std::nullopt;
    if (end == PlainLiteralPart::End::kBeforeSpace && IsRe2Space(s.back())) return std::nullopt;
    out.push_back({prefix, std::move(s), end});
  }
  return out;
}

// The literals one top-level alternative stands for, as PlainLiterals or LiteralSet read them, also
// when a non-capturing group wraps the whole alternative ("(?:No route to host)", "(?:is|are) gone"
// is not one: its group closes before the end).
std::optional<std::vector<PlainLiteralPart>> AlternativeLiterals(std::string_view part) {
  if (part.size() > 4 && part.substr(0, 3) == "(?:" && part.back() == ')') {
    const std::string_view inner = part.substr(3, part.size() - 4);
    // Balanced alone only when the group opened first is the one closing at the end.
    if (!TopLevelAlternatives(inner).empty()) {
      if (auto lits = PlainLiterals(inner)) return lits;
      return LiteralSet(inner);
    }
  }
  if (auto lits = PlainLiterals(part)) return lits;
  return LiteralSet(part);
}

namespace {

// Whether a flag group anywhere ("(?i)", "(?is:") turns on case folding: its literals then
// match either case.
bool FoldsCase(std::string_view re) {
  for (size_t k = re.find("(?"); k != std::string_view::npos; k = re.find("(?", k + 2)) {
    for (size_t j = k + 2; j < re.size() && re[j] != ')' && re[j] != ':'; ++j) {
      if (re[j] == 'i') return true;
    }
  }
  return false;
}

}  // namespace

// The bytes every match of `regex` holds: its literal bytes outside any group or class that no
// quantifier makes optional ("^\\S+\\s+\\d+/\\d+" holds '/'). Empty when none is sure: a
// top-level '|', case folding, a \Q quote.
std::string RequiredBytes(std::string_view regex) {
  if (FoldsCase(regex) || regex.find("\\Q") != std::string_view::npos ||
      TopLevelAlternatives(regex).size() != 1) {
    return {};
  }
  std::string bytes;
  int depth = 0;
  for (size_t k = 0; k < regex.size();) {
    const char c = regex[k];
    if (c == '[') {
      k = ClassEnd(regex, k);
      continue;
    }
    if (c == '(' || c == ')') {
      depth += c == '(' ? 1 : -1;
      ++k;
      continue;
    }
    if (c == '{') {  // a repeat count's digits are no literal
      const size_t close = regex.find('}', k);
      if (close == std::string_view::npos) return {};
      if (regex.substr(k, close - k).find_first_of("()[]\\") != std::string_view::npos) return {};
      k = close + 1;
      continue;
    }
    // Escapes with a payload after their letter ("\\x41", "\\pL", "\\p{Greek}", "\\1"): its bytes
    // are not literals of the regex; rather than read them, claim nothing.
    if (c == '\\' && k + 1 < regex.size() &&
        (std::string_view("xpP").find(regex[k + 1]) != std::string_view::npos ||
         (regex[k + 1] >= '0' && regex[k + 1] <= '9'))) {
      return {};
    }
    char lit = 0;
    const size_t n = depth == 0 ? LiteralByte(regex, k, &lit) : 0;
    if (n == 0) {
      k += c == '\\' ? 2 : 1;
      continue;
    }
    k += n;
    // A repeat count ("a{0,3}", "a{2}") is taken as optional: only '+' keeps a byte sure.
    const bool optional =
        k < regex.size() && (regex[k] == '?' || regex[k] == '*' || regex[k] == '{');
    if (!optional && bytes.find(lit) == std::string::npos) bytes.push_back(lit);
  }
  return bytes;
}

namespace {

// The bytes of RE2's class \\s \\S \\d \\D \\w \\W (`letter`), as LeadItem's bits.
LeadItem ClassItem(char letter) {
  LeadItem item;
  for (int b = 0; b < 256; ++b) {
    const auto c = static_cast<char>(b);
    const bool digit = c >= '0' && c <= '9';
    bool in = false;
    switch (letter | 0x20) {
      case 's':
        in = IsRe2Space(c);
        break;
      case 'd':
        in = digit;
        break;
      default:  // 'w'
        in = digit || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    }
    if (in != (letter >= 'A' && letter <= 'Z')) item.bits[b >> 6] |= uint64_t{1} << (b & 63);
  }
  return item;
}

}  // namespace

std::vector<LeadItem> LeadItems(std::string_view regex) {
  std::vector<LeadItem> lead;
  if (!regex.starts_with('^')) return lead;
  static const auto kClasses = [] {
    std::array<LeadItem, 6> items;
    for (size_t c = 0; c < items.size(); ++c) items[c] = ClassItem("sSdDwW"[c]);
    return items;
  }();
  // Literal bytes alone say no more than the rule's match range: a lead is kept for its classes,
  // and its first 8 steps do (each byte read costs the check on every candidate line).
  constexpr size_t kMaxSteps = 8;
  bool classes = false;
  for (size_t k = 1; k < regex.size() && lead.size() < kMaxSteps;) {
    LeadItem item;
    size_t n = 0;
    char lit = 0;
    if (regex[k] == '\\' && k + 1 < regex.size() &&
        std::string_view("sSdDwW").find(regex[k + 1]) != std::string_view::npos) {
      item = kClasses[std::string_view("sSdDwW").find(regex[k + 1])];
      classes = true;
      n = 2;
    } else if ((n = LiteralByte(regex, k, &lit)) != 0) {
      const auto u = static_cast<unsigned char>(lit);
      item.bits[u >> 6] |= uint64_t{1} << (u & 63);
    } else {
      break;  // a group, a class, '.', '$', ...
    }
    const char next = k + n < regex.size() ? regex[k + n] : '\0';
    if (next == '?' || next == '*' || next == '{') break;  // it may be absent
    item.run = next == '+';
    if (!lead.empty() && lead.back().run) {
      bool shared = false;
      for (int w = 0; w < 4; ++w) shared = shared || (lead.back().bits[w] & item.bits[w]) != 0;
      if (shared) break;  // the run before may end anywhere in this one's bytes
    }
    lead.push_back(item);
    k += n + (item.run ? 1 : 0);
    if (item.run && k < regex.size() && regex[k] == '?') ++k;  // lazy: the same bytes, the same end
  }
  if (lead.size() < 2 || !classes) lead.clear();
  // Case folding or a flag such as (?m), which lets '^' match inside the message: not read.
  for (size_t k = regex.find("(?"); k != std::string_view::npos; k = regex.find("(?", k + 2)) {
    if (k + 2 >= regex.size() || regex[k + 2] != ':') lead.clear();
  }
  if (!lead.empty() && TopLevelAlternatives(regex).size() != 1) lead.clear();
  return lead;
}

}  // namespace spinup::pattern_internal

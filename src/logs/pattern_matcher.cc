#include "logs/pattern_matcher.h"

#include <re2/filtered_re2.h>

#include <algorithm>
#include <bit>
#include <cstring>

#include "logs/pattern_matcher_internal.h"

namespace spinup {

using pattern_internal::BigEndian8;
using pattern_internal::GramHash;
using pattern_internal::GramHash8;

namespace {

// Whether some prefix p of `text` has min <= p <= max (bytes compared unsigned, as RE2 does):
// the prefixes of a text grow in order, so it is enough to test the shortest one >= min.
bool PrefixInRange(std::string_view text, const std::string& min, const std::string& max) {
  const auto* t = reinterpret_cast<const unsigned char*>(text.data());
  const auto* lo = reinterpret_cast<const unsigned char*>(min.data());
  size_t k = 0;
  while (k < min.size() && k < text.size() && t[k] == lo[k]) ++k;
  size_t len;  // length of the shortest prefix >= min
  if (k == min.size()) {
    len = k;
  } else if (k < text.size() && t[k] > lo[k]) {
    len = k + 1;
  } else {
    return false;  // every prefix sorts below min
  }
  // text[0, len) <= max: compare byte by byte (short: the range strings are at most 40 bytes).
  const auto* hi = reinterpret_cast<const unsigned char*>(max.data());
  for (size_t j = 0; j < len; ++j) {
    if (j == max.size() || t[j] > hi[j]) return false;
    if (t[j] < hi[j]) return true;
  }
  return true;
}

bool StartsWithAny(std::string_view text, const std::vector<std::string>& heads) {
  for (const std::string& head : heads) {
    if (text.size() >= head.size() && std::memcmp(text.data(), head.data(), head.size()) == 0) {
      return true;
    }
  }
  return false;
}

// 8 bytes with ASCII A-Z lowercased, a word at a time (FilteredRE2 atoms are lowercase).
inline uint64_t LowerAscii8(uint64_t x) {
  constexpr uint64_t kHigh = 0x8080808080808080ull;
  const uint64_t seven = x & ~kHigh;
  const uint64_t ge_a = seven + 0x3f3f3f3f3f3f3f3full;  // high bit set where byte >= 'A'
  const uint64_t gt_z = seven + 0x2525252525252525ull;  // high bit set where byte > 'Z'
  const uint64_t upper = ge_a & ~gt_z & ~x & kHigh;
  return x | (upper >> 2);
}

struct Lower {
  unsigned char t[256];
  Lower() {
    for (int i = 0; i < 256; ++i)
      t[i] = static_cast<unsigned char>(i >= 'A' && i <= 'Z' ? i + 32 : i);
  }
};
const Lower kLower;

// Whether `atom` (lowercase, as FilteredRE2 gives it) occurs in text with A-Z read as a-z, as
// the scan compares. Its rarest pair of neighbouring bytes (at `j`, RarePair) is looked for 16
// positions at a time (both sides ORed with 0x20, which only lets a few more through to the full
// compare).
bool ContainsFolded(std::string_view text, std::string_view atom, size_t j) {
  const size_t m = atom.size();
  if (m < 2 || text.size() < m) return m == 0 || text.find(atom) != std::string_view::npos;
  const auto* t = reinterpret_cast<const unsigned char*>(text.data());
  const auto* a = reinterpret_cast<const unsigned char*>(atom.data());
  auto same_at = [&](size_t at) {
    for (size_t k = 0; k < m; ++k) {
      if (kLower.t[t[at + k]] != a[k]) return false;
    }
    return true;
  };
  const size_t starts = text.size() - m + 1;
  size_t at = 0;
#if defined(__SSE2__) && (defined(__x86_64__) || defined(__i386__))
  // Reads t[at + j, at + j + 17), inside the text while at + 16 <= starts (j + 1 < m).
  const __m128i fold = _mm_set1_epi8(0x20);
  const __m128i c0 = _mm_set1_epi8(static_cast<char>(a[j] | 0x20));
  const __m128i c1 = _mm_set1_epi8(static_cast<char>(a[j + 1] | 0x20));
  auto block = [&](size_t from) {
    const auto* q = reinterpret_cast<const __m128i*>(t + from + j);
    const __m128i x0 = _mm_or_si128(_mm_loadu_si128(q), fold);
    const __m128i x1 =
        _mm_or_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(t + from + j + 1)), fold);
    auto mask = static_cast<unsigned>(
        _mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(x0, c0), _mm_cmpeq_epi8(x1, c1))));
    for (; mask != 0; mask &= mask - 1) {
      if (same_at(from + static_cast<size_t>(std::countr_zero(mask)))) return true;
    }
    return false;
  };
  for (; at + 16 <= starts; at += 16) {
    if (block(at)) return true;
  }
  // The last starts in one more block, ending where the starts do (it overlaps the one before:
  // no start is missed, and one looked at twice is no match twice).
  if (at < starts && starts >= 16) return block(starts - 16);
#endif
  for (; at < starts; ++at) {
    if (kLower.t[t[at + j]] == a[j] && same_at(at)) return true;
  }
  return false;
}

}  // namespace

PatternMatcher::PatternMatcher() = default;
PatternMatcher::~PatternMatcher() = default;
PatternMatcher::PatternMatcher(PatternMatcher&&) noexcept = default;
PatternMatcher& PatternMatcher::operator=(PatternMatcher&&) noexcept = default;

// Per-thread scratch, kept between calls so Match allocates nothing. `seen` marks the rules of
// the atoms found (by a per-call stamp, so it never needs clearing); `found` says which of a
// rule's atoms occur (valid where seen); `candidates` are the rules among them that the atoms
// alone select (unanchored, or anchored ones that need an atom).
struct PatternMatcher::Scan {
  std::vector<int> candidates;
  std::vector<uint32_t> seen;
  uint32_t stamp = 0;
  std::vector<uint64_t> found;
};

bool PatternMatcher::PassesAtoms(const FastRule& f, uint64_t found) const {
  if (f.alts.empty()) return f.prefilter.Passes(found);
  for (const Alternative& alt : f.alts) {
    if (alt.Passes(found)) return true;
  }
  return false;
}

bool PatternMatcher::AnyLiteral(const std::vector<Literal>& literals, std::string_view message) {
  for (const Literal& lit : literals) {
    if (lit.end != 0) {
      std::string_view m = message;
      if (lit.end == 2) {
        while (!m.empty() && pattern_internal::IsRe2Space(m.back())) m.remove_suffix(1);
      }
      if (m.size() >= lit.text.size() && (!lit.prefix || m.size() == lit.text.size()) &&
          m.substr(m.size() - lit.text.size()) == lit.text) {
        return true;
      }
      continue;
    }
    const bool hit = lit.prefix ? message.substr(0, lit.text.size()) == lit.text
                                : message.find(lit.text) != std::string_view::npos;
    if (hit) return true;
  }
  return false;
}

// Which of the rule's lazy atoms (see ChooseTriggers) occur in the message, given the others
// found: only those of a term (of the rule, or of one of its alternatives) whose trigger
// occurs, as no other can be part of a set that passes.
uint64_t PatternMatcher::FindLazyAtoms(size_t rule, std::string_view message,
                                       uint64_t found) const {
  const FastRule& f = fast_[rule];
  uint64_t wanted = lazy_atoms_[rule];
  if (!f.alts.empty()) {
    wanted = 0;
    for (const Alternative& alt : f.alts) {
      const uint64_t bits = alt.mask << alt.shift;
      if ((found & bits) != 0) wanted |= bits & lazy_atoms_[rule];
    }
  }
  for (uint64_t b = wanted; b != 0; b &= b - 1) {
    const int bit = std::countr_zero(b);
    const auto k = static_cast<size_t>(bit);
    if (ContainsFolded(message, rule_atoms_[rule][k], rare_pair_[rule][k])) {
      found |= uint64_t{1} << bit;
    }
  }
  return found;
}

// Whether an anchored rule's match range and heads admit `message` (head8: its BigEndian8).
bool PatternMatcher::AnchoredAdmits(const FastRule& f, std::string_view message, uint64_t head8) {
  if (f.ranged) {
    // A message whose first 8 bytes sort below min's has no prefix >= min; when min and max
    // share their first 8 bytes, every prefix in range starts with them.
    if (f.same8 ? head8 != f.min8 : head8 < f.min8) return false;
    if (!PrefixInRange(message, f.min, f.max)) return false;
  }
  return f.heads.empty() || StartsWithAny(message, f.heads);
}

bool PatternMatcher::NeedBytes::In(std::string_view message) const {
  for (uint8_t k = 0; k < count; ++k) {
    if (std::memchr(message.data(), bytes[k], message.size()) == nullptr) return false;
  }
  return true;
}

// `found`: the rule's atoms that occur (0 when it has none).
bool PatternMatcher::RunRule(int idx, std::string_view message, uint64_t found,
                             std::vector<int>* regex_runs) const {
  const FastRule& f = fast_[static_cast<size_t>(idx)];
  if (f.test == Test::kLiterals) return AnyLiteral(f.literals, message);
  // Unanchored even for '^' rules: RE2 anchors those itself.
  const re2::StringPiece text(message.data(), message.size());
  auto run = [&](const RE2& regex) {
    if (regex_runs != nullptr) regex_runs->push_back(idx);
    return regex.Match(text, 0, message.size(), RE2::UNANCHORED, nullptr, 0);
  };
  if (!f.alts.empty()) {
    for (const Alternative& alt : f.alts) {
      if (!alt.Passes(found)) continue;
      if (alt.literals.empty() ? alt.need.In(message) && run(*alt.regex)
                               : AnyLiteral(alt.literals, message)) {
        return true;
      }
    }
    return false;
  }
  return f.need.In(message) && pattern_internal::LeadAdmits(f.lead, message) &&
         run(*compiled_[static_cast<size_t>(idx)]);
}

// Atom `atom` occurs: its rules' bits are set, and the unanchored ones become candidates.
inline void PatternMatcher::NoteAtom(const Index& ix, size_t atom, Scan& scan) const {
  for (const AtomRule& ar : ix.atom_rules[atom]) {
    const auto r = static_cast<size_t>(ar.rule);
    if (scan.seen[r] != scan.stamp) {
      scan.seen[r] = scan.stamp;
      scan.found[r] = 0;
      if (ar.candidate) scan.candidates.push_back(ar.rule);
    }
    scan.found[r] |= uint64_t{1} << ar.bit;
  }
}

// Which atoms occur: the rules of every atom found are candidates. Two passes per block: the
// first only notes the positions whose gram is in the table (no branch, as such log text
// hits often and unpredictably), the second checks those.
void PatternMatcher::FindAtoms(const Index& ix, std::string_view message, Scan& scan) const {
  const auto* p = reinterpret_cast<const unsigned char*>(message.data());
  const size_t n = message.size();
  constexpr size_t kBlock = 512;
  uint32_t hit_pos[kBlock / 2];
  const uint8_t* gram_hit = ix.gram_hit.data();
  for (size_t start = 0; start + 3 < n; start += kBlock) {
    const size_t end = std::min(n - 3, start + kBlock);
    size_t hits = 0;
    size_t i = start;
    // Four positions a step: the loop's own count and compare were a fifth of this pass.
    auto note = [&](size_t at) {
      hit_pos[hits] = static_cast<uint32_t>(at);
      hits += gram_hit[GramHash(p + at)];
    };
    // Eight positions a step where the hashes are computed side by side (i + 14 < end reads
    // no further than the scalar steps: end <= n - 3).
    for (; i + 14 < end; i += 16) {
      uint16_t keys[8];
      GramHash8(p + i, keys);
      auto note_key = [&](size_t j) {
        hit_pos[hits] = static_cast<uint32_t>(i + 2 * j);
        hits += gram_hit[keys[j]];
      };
      note_key(0), note_key(1), note_key(2), note_key(3);
      note_key(4), note_key(5), note_key(6), note_key(7);
    }
    for (; i + 6 < end; i += 8) {
      note(i);
      note(i + 2);
      note(i + 4);
      note(i + 6);
    }
    for (; i < end; i += 2) note(i);
    for (size_t h = 0; h < hits; ++h) {
      const size_t i = hit_pos[h];
      // An atom is indexed by two neighbouring grams, and the one not at this (even) position
      // sits right before or after it: when neither neighbour's gram is in the table, no atom
      // is here (most positions that reach this pass hold a common word's gram).
      const bool before = i > 0 && gram_hit[GramHash(p + i - 1)] != 0;
      if (!before && (i + 4 >= n || gram_hit[GramHash(p + i + 1)] == 0)) continue;
      const unsigned key = GramHash(p + i);
      const unsigned slot = key & (kGramSlots - 1);
      for (uint32_t x = ix.gram_slot_start[slot]; x < ix.gram_slot_start[slot + 1]; ++x) {
        const GramEntry& g = ix.gram_entries[x];
        if (g.key != key || g.offset > i || g.size - g.offset > n - i) continue;
        const unsigned char* q = p + (i - g.offset);
        size_t k = 0;
        if (q + 8 <= p + n) {
          uint64_t w;
          std::memcpy(&w, q, 8);
          if ((LowerAscii8(w) & g.head_mask) != g.head) continue;
          k = std::min<size_t>(g.size, 8);
        }
        const auto ua = static_cast<size_t>(g.atom);
        const std::string& atom = ix.atoms[ua];
        if (k == 8 && atom.size() > 8) {
          // The rest a word at a time, the last word overlapping the one before (the atom lies
          // inside the text: its words can be read).
          bool same = true;
          for (size_t at = 8; same && at < atom.size(); at += 8) {
            const size_t from = std::min(at, atom.size() - 8);
            uint64_t w, a;
            std::memcpy(&w, q + from, 8);
            std::memcpy(&a, atom.data() + from, 8);
            same = LowerAscii8(w) == a;
          }
          if (!same) continue;
          k = atom.size();
        }
        while (k < atom.size() && kLower.t[q[k]] == static_cast<unsigned char>(atom[k])) ++k;
        if (k < atom.size()) continue;
        NoteAtom(ix, ua, scan);
      }
    }
  }
}

void PatternMatcher::Match(std::string_view message, std::vector<int>* matched, int subset,
                           std::vector<int>* regex_runs) const {
  matched->clear();
  if (regex_runs != nullptr) regex_runs->clear();
  if (!compiled_ok_ || subset < 0 || static_cast<size_t>(subset) >= indexes_.size()) return;
  const Index& ix = indexes_[static_cast<size_t>(subset)];
  if (message.empty()) {
    // A line that is only a prefix: the answer is fixed, found once by running every regex.
    matched->assign(ix.empty_matches.begin(), ix.empty_matches.end());
    return;
  }
  thread_local Scan scan;
  if (scan.seen.size() < fast_.size()) scan.seen.resize(fast_.size(), 0);
  if (scan.found.size() < fast_.size()) scan.found.resize(fast_.size(), 0);
  if (++scan.stamp == 0) {
    std::fill(scan.seen.begin(), scan.seen.end(), 0);
    scan.stamp = 1;
  }
  scan.candidates.clear();
  if (!ix.atoms.empty() && message.size() >= 4) FindAtoms(ix, message, scan);
  const uint64_t head8 = BigEndian8(message);
  // Anchored rules whose matches can start with this byte and whose range admits the message.
  const auto byte = static_cast<unsigned char>(message[0]);
  for (uint32_t a = ix.anchored_start[byte]; a < ix.anchored_start[byte + 1]; ++a) {
    const AnchoredCheck& c = ix.anchored[a];
    // The first check of AnchoredAdmits, without reading the rule's FastRule.
    if (c.same8 ? head8 != c.min8 : head8 < c.min8) continue;
    const FastRule& f = fast_[static_cast<size_t>(c.rule)];
    if (AnchoredAdmits(f, message, head8) && RunRule(c.rule, message, 0, regex_runs)) {
      matched->push_back(c.rule);
    }
  }
  for (int idx : ix.always) {
    if (RunRule(idx, message, 0, regex_runs)) matched->push_back(idx);
  }
  for (int idx : scan.candidates) {
    // Whether the atoms found satisfy the rule's prefilter formula. Its lazy atoms are searched
    // when the others are not enough, and always for a rule split in alternatives, whose
    // regexes run where their own atoms are all there (RunRule).
    const auto r = static_cast<size_t>(idx);
    const FastRule& f = fast_[r];
    uint64_t found = scan.found[r];
    bool pass = (found & single_atoms_[r]) != 0 || PassesAtoms(f, found);
    if (lazy_atoms_[r] != 0 && (!pass || !f.alts.empty())) {
      found |= FindLazyAtoms(r, message, found);
      pass = (found & single_atoms_[r]) != 0 || PassesAtoms(f, found);
    }
    if (!pass) continue;
    if (f.anchored && !AnchoredAdmits(f, message, head8)) continue;
    if (RunRule(idx, message, found, regex_runs)) matched->push_back(idx);
  }
  std::sort(matched->begin(), matched->end());
}

void PatternMatcher::MatchEveryRule(std::string_view message, std::vector<int>* matched) const {
  matched->clear();
  if (!compiled_ok_) return;
  const re2::StringPiece text(message.data(), message.size());
  for (size_t i = 0; i < compiled_.size(); ++i) {
    if (RE2::PartialMatch(text, *compiled_[i])) matched->push_back(static_cast<int>(i));
  }
}

}  // namespace spinup

// PatternMatcher's build: compiling the regexes, sorting each into the cheapest exact test that
// can select it (literal compares, match ranges, prefilter atoms) and the candidate tables of
// every subset. The match path is in pattern_matcher.cc.
#include <re2/filtered_re2.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <cstring>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "logs/pattern_matcher.h"
#include "logs/pattern_matcher_internal.h"

namespace spinup {

using pattern_internal::AlternativeLiterals;
using pattern_internal::AnchoredHeads;
using pattern_internal::BigEndian8;
using pattern_internal::GramHash;
using pattern_internal::IsAnchored;
using pattern_internal::LiteralSet;
using pattern_internal::PlainLiterals;
using pattern_internal::TopLevelAlternatives;

namespace {
// How far RE2's PossibleMatchRange walks an anchored rule's DFA. Its cost grows with the length
// (at 40 it was a sixth of the rules' load); 16 bytes still tell apart the rules that share a
// start ("Capture cuda graph begin" / "end": the first check compares 8 bytes), and a range
// that admits a message only lets RE2 run, which for an anchored rule fails within a few bytes.
constexpr int kMatchRangeBytes = 16;

}  // namespace

Status PatternMatcher::Compile(const std::vector<std::string>& regexes, const Describe& describe) {
  compiled_ok_ = false;
  regexes_ = regexes;
  compiled_.clear();
  fast_.clear();
  RE2::Options opt;
  opt.set_log_errors(false);
  opt.set_max_mem(64 << 20);
  opt.set_encoding(RE2::Options::EncodingLatin1);  // bytes in, no UTF-8 decoding cost
  filters_.clear();
  alt_filters_.clear();
  for (size_t i = 0; i < regexes_.size(); ++i) {
    // Each regex is compiled once, inside the FilteredRE2 that finds its prefilter atoms.
    auto filter = std::make_unique<re2::FilteredRE2>(5);
    int id = 0;
    if (filter->Add(regexes_[i], opt, &id) != RE2::NoError) {
      const std::string name = describe ? describe(i) : "pattern " + std::to_string(i);
      return Status::Corrupt(name + ": bad regex: " + RE2(regexes_[i], opt).error());
    }
    compiled_.push_back(&filter->GetRE2(id));
    filters_.push_back(std::move(filter));
  }
  // How each rule is tested, and which cheap exact test selects it as a candidate.
  rule_atoms_.assign(regexes_.size(), {});
  indexes_.clear();
  ClassifyRules();
  single_atoms_.assign(fast_.size(), 0);
  for (size_t i = 0; i < fast_.size(); ++i) {
    const FastRule& f = fast_[i];
    const size_t atoms = rule_atoms_[i].size();
    if (atoms == 0) continue;  // never a candidate
    const uint64_t own = atoms >= 64 ? ~uint64_t{0} : (uint64_t{1} << atoms) - 1;
    if (f.alts.empty()) single_atoms_[i] = f.prefilter.singles & own;
    for (const Alternative& alt : f.alts) {
      single_atoms_[i] |= (alt.prefilter.singles & alt.mask) << alt.shift;
    }
  }
  ChooseTriggers();
  compiled_ok_ = true;
  MatchEveryRule({}, &empty_matches_);
  CountRegexGrams();
  AddSubset(std::vector<bool>(regexes_.size(), true));
  return Status::Ok();
}

std::vector<int> PatternMatcher::TriedOnEveryMessage() const {
  std::vector<int> every;
  if (!compiled_ok_) return every;
  for (size_t i = 0; i < fast_.size(); ++i) {
    const FastRule& f = fast_[i];
    const bool unfiltered = f.anchored ? !f.needs_atom && !f.ranged : rule_atoms_[i].empty();
    if (unfiltered) every.push_back(static_cast<int>(i));
  }
  return every;
}

int PatternMatcher::AddSubset(const std::vector<bool>& keep) {
  Index ix;
  std::vector<std::vector<AnchoredCheck>> by_byte(256);
  auto kept = [&](size_t i) { return i < keep.size() && keep[i]; };
  for (size_t i = 0; i < fast_.size(); ++i) {
    if (!kept(i)) continue;
    const FastRule& f = fast_[i];
    const int idx = static_cast<int>(i);
    if (!f.anchored) {
      if (rule_atoms_[i].empty()) ix.always.push_back(idx);
    } else if (f.needs_atom) {
      continue;  // a candidate when one of its atoms occurs (see IndexAtoms)
    } else if (f.ranged) {
      // A match (nonempty, as min is) starts with a byte between min[0] and max[0].
      const auto lo = static_cast<unsigned char>(f.min[0]);
      const auto hi = static_cast<unsigned char>(f.max[0]);
      for (unsigned b = lo; b <= hi; ++b) by_byte[b].push_back({f.min8, idx, f.same8});
    } else {
      for (auto& list : by_byte) list.push_back({0, idx, false});
    }
  }
  ix.anchored_start.push_back(0);
  for (const auto& list : by_byte) {
    ix.anchored.insert(ix.anchored.end(), list.begin(), list.end());
    ix.anchored_start.push_back(static_cast<uint32_t>(ix.anchored.size()));
  }
  IndexAtoms(keep, ix);
  BuildGramIndex(ix);
  for (int idx : empty_matches_) {
    if (kept(static_cast<size_t>(idx))) ix.empty_matches.push_back(idx);
  }
  indexes_.push_back(std::move(ix));
  return static_cast<int>(indexes_.size() - 1);
}

// This rule's own prefilter: when it has atoms, a match needs some of them (FilteredRE2's AND/OR
// formula over them, false when none occurs), told by `prefilter` (or by its alternatives', see
// SplitAlternatives). False when the rule has none, one too short to index, or more than 64.
bool PatternMatcher::PrefilterAtoms(size_t i, std::vector<std::string>* atoms) {
  FastRule& f = fast_[i];
  if (!FilterClause(*filters_[i], atoms, &f.prefilter)) return false;
  if ((f.prefilter.loose || !f.anchored) && f.test == Test::kRegex) SplitAlternatives(i, atoms);
  return true;
}

// The prefilter of the one regex `filter` holds (compiled once here): its atoms and the clause
// over them. False (atoms empty) when it has none, one too short to index, or more than 64.
bool PatternMatcher::FilterClause(re2::FilteredRE2& filter, std::vector<std::string>* atoms,
                                  PrefilterClause* clause) {
  std::vector<std::string> found;
  filter.Compile(&found);
  atoms->clear();
  // The scan needs two 4-byte grams of every atom (FilteredRE2 drops atoms under 5 bytes).
  const size_t k = found.size();
  if (k == 0 || k > 64) return false;
  for (const auto& atom : found) {
    if (atom.size() < 5) return false;
  }
  std::vector<int> ids, passed;
  auto passes = [&](uint64_t mask) {  // asked of FilteredRE2: do these atoms let it through?
    ids.clear();
    for (size_t b = 0; b < k; ++b) {
      if (mask >> b & 1) ids.push_back(static_cast<int>(b));
    }
    filter.AllPotentials(ids, &passed);
    return !passed.empty();
  };
  if (passes(0)) return false;  // passes with no atom at all: not filtered
  const uint64_t all = k == 64 ? ~uint64_t{0} : (uint64_t{1} << k) - 1;
  // The atoms that let it through alone go last: the formula is their OR with a formula over the
  // others (monotone: a term holding one of them is that atom alone).
  std::vector<size_t> order;  // bit → FilteredRE2's atom id
  std::vector<bool> single(k);
  for (size_t b = 0; b < k; ++b) {
    single[b] = passes(uint64_t{1} << b);
    if (!single[b]) order.push_back(b);
  }
  const size_t m = order.size();
  for (size_t b = 0; b < k; ++b) {
    if (single[b]) order.push_back(b);
  }
  for (size_t a : order) atoms->push_back(found[a]);
  PrefilterClause& c = *clause;
  c = PrefilterClause{};
  c.singles = m == 64 ? 0 : all & ~((uint64_t{1} << m) - 1);
  auto passes_bits = [&](uint64_t bits) {  // in the new order
    uint64_t mask = 0;
    for (size_t b = 0; b < k; ++b) {
      if (bits >> b & 1) mask |= uint64_t{1} << order[b];
    }
    return passes(mask);
  };
  if (m <= PrefilterClause::kMaxTableAtoms) {
    c.table_mask = (uint64_t{1} << m) - 1;
    std::vector<bool> pass(size_t{1} << m);
    for (uint64_t mask = 0; mask <= c.table_mask; ++mask) {
      // The formula is monotone: a mask holding one that passes passes too, and those masks
      // (numerically smaller) are known already. Only the others are asked of FilteredRE2, which
      // for 10 atoms was 1024 questions.
      bool on = false;
      for (size_t b = 0; b < m && !on; ++b) {
        on = (mask >> b & 1) != 0 && pass[mask & ~(uint64_t{1} << b)];
      }
      pass[mask] = on || passes_bits(mask);
    }
    if (m > 6) c.wide.assign((c.table_mask >> 6) + 1, 0);
    for (uint64_t mask = 0; mask <= c.table_mask; ++mask) {
      if (!pass[mask]) continue;
      if (m > 6) {
        c.wide[mask >> 6] |= uint64_t{1} << (mask & 63);
      } else {
        c.table |= uint64_t{1} << mask;
      }
    }
    return true;
  }
  // Too many for a table: the atoms every match needs (an atom is needed when all the others
  // are not enough), and whether they are enough alone. Looser than the formula, never stricter.
  c.loose = true;
  for (size_t b = 0; b < k; ++b) {
    if (!passes_bits(all & ~(uint64_t{1} << b))) c.need |= uint64_t{1} << b;
  }
  c.need_enough = passes_bits(c.need);
  return true;
}

// A loose clause over an alternation ("a .* b|c|d .* e", the causes' joined regexes) lets
// through any message holding any one atom. Each top-level alternative alone has few atoms and
// an exact clause; the rule passes when one of them does, and runs only those alternatives'
// regexes. Left as it is (false) when an alternative has no atom, the atoms exceed 64, or a
// top-level flag group ties the alternatives together.
bool PatternMatcher::SplitAlternatives(size_t i, std::vector<std::string>* atoms) {
  bool top_flags = false;
  const std::vector<std::string_view> parts = TopLevelAlternatives(regexes_[i], &top_flags);
  // "\\Q...\\E" quotes a '|' that TopLevelAlternatives would split at.
  if (parts.size() < 2 || top_flags || regexes_[i].find("\\Q") != std::string::npos) return false;
  std::vector<std::string> all;
  std::vector<Alternative> alts;
  std::vector<std::unique_ptr<re2::FilteredRE2>> filters;
  for (std::string_view part : parts) {
    auto filter = std::make_unique<re2::FilteredRE2>(5);
    int id = 0;
    const re2::StringPiece text(part.data(), part.size());
    if (filter->Add(text, compiled_[i]->options(), &id) != RE2::NoError) return false;
    Alternative alt;
    std::vector<std::string> own;
    if (!FilterClause(*filter, &own, &alt.prefilter) || all.size() + own.size() > 64) {
      return false;
    }
    alt.shift = static_cast<int>(all.size());
    alt.mask = own.size() == 64 ? ~uint64_t{0} : (uint64_t{1} << own.size()) - 1;
    alt.regex = &filter->GetRE2(id);
    alt.need = RarestNeeded(part);
    if (auto lits = AlternativeLiterals(part)) {
      for (auto& l : *lits)
        alt.literals.push_back({l.prefix, std::move(l.text), static_cast<uint8_t>(l.end)});
    }
    all.insert(all.end(), own.begin(), own.end());
    alts.push_back(alt);
    filters.push_back(std::move(filter));
  }
  *atoms = std::move(all);
  fast_[i].alts = std::move(alts);
  for (auto& filter : filters) alt_filters_.push_back(std::move(filter));
  return true;
}

// The match range of an anchored alternation of plain literals ("^Load weight end\\.",
// "^(?:a|b)"), read off the literals: every match is one of them, so the least and the greatest
// bound it exactly. RE2's PossibleMatchRange finds the same by walking its DFA, which was a fifth
// of the rules' load time. False when some literal is not at the message start.
bool PatternMatcher::LiteralRange(const FastRule& f, std::string* lo, std::string* hi) {
  if (f.test != Test::kLiterals || f.literals.empty()) return false;
  for (const Literal& lit : f.literals) {
    if (!lit.prefix || lit.text.empty()) return false;
  }
  // Bytes compare unsigned, as std::string's compare does and RE2's range means.
  *lo = *hi = f.literals.front().text;
  for (const Literal& lit : f.literals) {
    if (lit.text < *lo) *lo = lit.text;
    if (lit.text > *hi) *hi = lit.text;
  }
  return true;
}

// The two rarest of the bytes every match holds (by CommonByte): the likeliest to be missing from
// a line that only shares the regex's atoms.
PatternMatcher::NeedBytes PatternMatcher::RarestNeeded(std::string_view regex) {
  std::string bytes = pattern_internal::RequiredBytes(regex);
  std::stable_sort(bytes.begin(), bytes.end(), [](char a, char b) {
    return pattern_internal::CommonByte(static_cast<unsigned char>(a)) <
           pattern_internal::CommonByte(static_cast<unsigned char>(b));
  });
  NeedBytes need;
  for (char c : bytes) {
    if (need.count == 2) break;
    need.bytes[need.count++] = c;
  }
  return need;
}

void PatternMatcher::ClassifyRules() {
  fast_.resize(regexes_.size());
  for (size_t i = 0; i < regexes_.size(); ++i) {
    const std::string& regex = regexes_[i];
    FastRule& f = fast_[i];
    f.anchored = IsAnchored(regex);
    auto lits = PlainLiterals(regex);
    if (!lits && !f.anchored) lits = LiteralSet(regex);  // ", in (?:a|b)\\s*$": a frame's rule
    if (lits) {
      f.test = Test::kLiterals;
      for (auto& l : *lits)
        f.literals.push_back({l.prefix, std::move(l.text), static_cast<uint8_t>(l.end)});
    }
    if (f.test == Test::kRegex) f.need = RarestNeeded(regex);
    if (!f.anchored) {
      // Without atoms (rule_atoms_[i] empty) it runs on every message.
      PrefilterAtoms(i, &rule_atoms_[i]);
      continue;
    }
    if (f.test == Test::kRegex) {
      f.heads = AnchoredHeads(regex);
      f.lead = pattern_internal::LeadItems(regex);
    }
    std::string lo, hi;
    f.ranged = LiteralRange(f, &lo, &hi) ||
               (compiled_[i]->PossibleMatchRange(&lo, &hi, kMatchRangeBytes) && !lo.empty() &&
                !hi.empty() && lo <= hi);
    size_t common = 0;
    if (f.ranged) {
      f.min = lo;
      f.min8 = BigEndian8(lo);
      f.same8 = lo.size() >= 8 && hi.size() >= 8 && lo.compare(0, 8, hi, 0, 8) == 0;
      f.max = hi;
      while (common < lo.size() && common < hi.size() && lo[common] == hi[common]) ++common;
    }
    // A range that pins only a byte or two ("^\\s*warnings", "^(?:Prefill|Decode)") lets most
    // messages through: ask for an atom as well.
    if (common < 3) {
      f.needs_atom = PrefilterAtoms(i, &rule_atoms_[i]);
    }
  }
}

// One id per distinct atom of the kept rules, and for each atom the kept rules that have it.
void PatternMatcher::IndexAtoms(const std::vector<bool>& keep, Index& ix) const {
  // Atom → id through a map: a search of the list per atom was a twentieth of the rules' load.
  std::unordered_map<std::string_view, size_t> ids;
  for (size_t i = 0; i < rule_atoms_.size() && i < keep.size(); ++i) {
    if (!keep[i]) continue;
    for (const auto& atom : rule_atoms_[i]) {
      if (lazy_atoms_[i] >> (&atom - rule_atoms_[i].data()) & 1) continue;  // see ChooseTriggers
      // The views point into rule_atoms_, which outlives the map.
      auto [it, added] = ids.try_emplace(atom, ix.atoms.size());
      const size_t a = it->second;
      if (added) {
        ix.atoms.push_back(atom);
        ix.atom_rules.emplace_back();
      }
      const auto bit = static_cast<uint8_t>(&atom - rule_atoms_[i].data());  // < 64
      const bool candidate = !fast_[i].anchored || fast_[i].needs_atom;
      ix.atom_rules[a].push_back({static_cast<int>(i), bit, candidate});
    }
  }
}

namespace {

// The smallest sets of a clause's atoms (bits 0..count-1) that let it through, each as a mask:
// the clause is their OR. A loose clause gives one set that every passing one holds instead
// (its needed atoms with each other one, or each atom alone when none is needed): what
// ChooseTriggers needs.
std::vector<uint64_t> ClauseTerms(const PrefilterClause& c, size_t count) {
  std::vector<uint64_t> terms;
  const uint64_t own = count >= 64 ? ~uint64_t{0} : (uint64_t{1} << count) - 1;
  for (uint64_t s = c.singles & own; s != 0; s &= s - 1) terms.push_back(s & -s);
  const uint64_t others = own & ~c.singles;
  if (others == 0) return terms;
  if (c.loose) {
    if (c.need != 0 && c.need_enough) {
      terms.push_back(c.need);  // every set that passes holds it
    } else if (c.need != 0) {
      // It and one more: the more is often the rarer ("/torch/_inductor/graph" beside ", in ").
      for (uint64_t s = own & ~c.need; s != 0; s &= s - 1) terms.push_back(c.need | (s & -s));
    } else {
      for (uint64_t s = others; s != 0; s &= s - 1) terms.push_back(s & -s);  // any one passes
    }
    return terms;
  }
  for (uint64_t m = 1; m <= c.table_mask; ++m) {
    if (!c.Passes(m)) continue;
    bool minimal = true;
    for (uint64_t b = m; b != 0 && minimal; b &= b - 1) minimal = !c.Passes(m & ~(b & -b));
    if (minimal) terms.push_back(m);
  }
  return terms;
}

}  // namespace

// Which atoms make each rule a candidate. A clause "a and b" passes only when both occur, so
// finding the rarer one is enough to select the rule; the other is then searched in that one
// message. The scan's cost is in the atoms it finds: log vocabulary shared by many rules
// (", in ", ".py\", line ", " for ", "python") sits beside a rarer atom in every term it is in.
// Each term gets one trigger (the rarest of its atoms unless one is a trigger already); rare
// is guessed from how many rules share the atom and from its length, never from a log.
// Where the rarest pair of neighbouring bytes of `atom` starts (0 for fewer than 2 bytes).
uint32_t PatternMatcher::RarePair(std::string_view atom) {
  uint32_t j = 0;
  long best = -1;
  for (size_t k = 0; k + 1 < atom.size(); ++k) {
    const long score = pattern_internal::CommonByte(static_cast<unsigned char>(atom[k])) *
                       pattern_internal::CommonByte(static_cast<unsigned char>(atom[k + 1]));
    if (best < 0 || score < best) best = score, j = static_cast<uint32_t>(k);
  }
  return j;
}

void PatternMatcher::ChooseTriggers() {
  std::unordered_map<std::string_view, int> shared;
  for (const auto& atoms : rule_atoms_) {
    for (const auto& atom : atoms) ++shared[atom];
  }
  auto cost = [&](const std::string& atom) {
    return 16 * shared[atom] + std::max(0, 24 - static_cast<int>(atom.size()));
  };
  lazy_atoms_.assign(fast_.size(), 0);
  rare_pair_.assign(fast_.size(), {});
  for (size_t i = 0; i < fast_.size(); ++i) {
    const std::vector<std::string>& atoms = rule_atoms_[i];
    if (atoms.empty()) continue;
    std::vector<uint64_t> terms;
    const FastRule& f = fast_[i];
    if (f.alts.empty()) terms = ClauseTerms(f.prefilter, atoms.size());
    for (const Alternative& alt : f.alts) {
      for (uint64_t t : ClauseTerms(alt.prefilter, static_cast<size_t>(std::popcount(alt.mask)))) {
        terms.push_back(t << alt.shift);
      }
    }
    uint64_t triggers = 0;
    for (uint64_t t : terms) {
      if ((t & triggers) != 0) continue;
      int best = -1;
      for (uint64_t b = t; b != 0; b &= b - 1) {
        const int bit = std::countr_zero(b);
        if (best < 0 ||
            cost(atoms[static_cast<size_t>(bit)]) < cost(atoms[static_cast<size_t>(best)])) {
          best = bit;
        }
      }
      triggers |= uint64_t{1} << best;
    }
    const uint64_t own = atoms.size() >= 64 ? ~uint64_t{0} : (uint64_t{1} << atoms.size()) - 1;
    lazy_atoms_[i] = own & ~triggers;
    rare_pair_[i].assign(atoms.size(), 0);  // only lazy atoms are searched by their pair
    for (uint64_t b = lazy_atoms_[i]; b != 0; b &= b - 1) {
      const auto k = static_cast<size_t>(std::countr_zero(b));
      rare_pair_[i][k] = RarePair(atoms[k]);
    }
  }
}

// How many regexes hold each gram (by hash), for BuildGramIndex: once for every subset.
void PatternMatcher::CountRegexGrams() {
  gram_in_regexes_.assign(65536, 0);
  std::vector<unsigned> keys;
  for (const std::string& regex : regexes_) {
    const auto* u = reinterpret_cast<const unsigned char*>(regex.data());
    keys.clear();
    for (size_t k = 0; k + 4 <= regex.size(); ++k) keys.push_back(GramHash(u + k));
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    for (unsigned key : keys) ++gram_in_regexes_[key];
  }
}

// Index each atom by its rarest pair of neighbouring 4-byte grams, so the scan stops rarely.
// Rare is guessed twice: from the letters (common letters and spaces score high: ", in
// load_model" is indexed inside "_model", not by ", in"), and from the text of all the regexes,
// which is log vocabulary too: a gram several regexes share ("load", "safetensors", "sglang")
// is a common one in the logs ("Loading safetensors checkpoint shards" would stop the scan on
// every line). On the corpus-built bench log (its engine's subset), 5.5% of the positions
// scanned reach the second check; trigrams picked by their letters alone let 17.6% through.
void PatternMatcher::BuildGramIndex(Index& ix) const {
  ix.gram_hit.assign(65536, 0);
  std::vector<uint16_t> per_key(65536, 0);  // entries already indexed under this key
  std::vector<GramEntry> entries;
  const auto common = pattern_internal::CommonByte;
  const std::vector<uint16_t>& in_regexes = gram_in_regexes_;
  constexpr long kShared = 2'000'000;  // about the letter score of four common letters
  for (size_t a = 0; a < ix.atoms.size(); ++a) {
    const std::string& atom = ix.atoms[a];  // 5 bytes or more: two 4-byte grams
    const auto* u = reinterpret_cast<const unsigned char*>(atom.data());
    auto key_at = [&](size_t k) { return GramHash(u + k); };
    auto score_at = [&](size_t k) {
      const unsigned key = key_at(k);
      return common(u[k]) * common(u[k + 1]) * common(u[k + 2]) * common(u[k + 3]) +
             long{per_key[key]} * kShared +
             long{std::max(in_regexes[key], uint16_t{1}) - 1} * kShared;
    };
    size_t best = 0;
    long best_score = -1;
    long next = score_at(0);  // each gram's score is taken once, not once per neighbour
    for (size_t k = 0; k + 4 < atom.size(); ++k) {
      const long here = next;
      next = score_at(k + 1);
      const long score = here + next;
      if (best_score < 0 || score < best_score) {
        best_score = score;
        best = k;
      }
    }
    GramEntry e{};
    const size_t head = std::min<size_t>(atom.size(), 8);
    std::memcpy(&e.head, atom.data(), head);
    const unsigned char ones[8] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    std::memcpy(&e.head_mask, ones, head);  // byte order as the text word's
    e.atom = static_cast<uint32_t>(a);
    e.size = static_cast<uint32_t>(atom.size());
    for (size_t k : {best, best + 1}) {
      e.key = key_at(k);
      e.offset = static_cast<uint32_t>(k);
      entries.push_back(e);
      ++per_key[e.key];
      ix.gram_hit[e.key] = 1;
    }
  }
  std::stable_sort(entries.begin(), entries.end(), [](const GramEntry& x, const GramEntry& y) {
    return (x.key & (kGramSlots - 1)) < (y.key & (kGramSlots - 1));
  });
  ix.gram_entries = std::move(entries);
  ix.gram_slot_start.assign(kGramSlots + 1, 0);
  for (const auto& e : ix.gram_entries) ++ix.gram_slot_start[(e.key & (kGramSlots - 1)) + 1];
  for (unsigned k = 0; k < kGramSlots; ++k) ix.gram_slot_start[k + 1] += ix.gram_slot_start[k];
}

}  // namespace spinup

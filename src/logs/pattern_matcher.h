// A generic multi-pattern matcher: given a list of RE2 regexes, answers "which of them match this
// message", running only the regexes that cheap exact tests cannot rule out (literal compares,
// match ranges of anchored regexes, a 4-gram index of each regex's required literals). It knows
// nothing about what the patterns mean; RuleSet (logs/rules.h) owns one for its rules.
#pragma once

#include <re2/re2.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "spinup/status.h"

namespace re2 {
class FilteredRE2;
}

namespace spinup {
namespace pattern_internal {
struct LeadItem;  // pattern_matcher_internal.h
}  // namespace pattern_internal

// Which of a rule's atoms (its FilteredRE2 prefilter literals, at most 64, one bit each) must
// occur for its regex to run. Built from FilteredRE2's AND/OR formula, asked of it when compiling:
// exact, or (`loose`) looser than the formula, never stricter.
struct PrefilterClause {
  static constexpr size_t kMaxTableAtoms = 10;
  uint64_t singles = ~uint64_t{0};  // any one of these occurring lets it through (default: any)
  // The others: a truth table over `table_mask`'s low bits (bit m set when the atoms in mask m
  // occurring let it through; in `table`, or in `wide` past 6 atoms), or, when they are too many
  // (`loose`), the atoms every match needs and whether they are enough alone; else one more
  // atom must occur too.
  uint64_t table_mask = 0;
  uint64_t table = 0;
  std::vector<uint64_t> wide;  // bit m in wide[m / 64]
  bool loose = false;
  uint64_t need = 0;
  bool need_enough = false;
  bool Passes(uint64_t found) const {
    if ((found & singles) != 0) return true;
    if (loose) return (found & need) == need && (need_enough || (found & ~need) != 0);
    const uint64_t m = found & table_mask;
    if (wide.empty()) return (table >> m & 1) != 0;
    return (wide[m >> 6] >> (m & 63) & 1) != 0;
  }
};

class PatternMatcher {
 public:
  PatternMatcher();
  ~PatternMatcher();
  PatternMatcher(PatternMatcher&&) noexcept;
  PatternMatcher& operator=(PatternMatcher&&) noexcept;

  // Names pattern i in error messages; by default "pattern <i>".
  using Describe = std::function<std::string(size_t)>;
  // Compiles every regex (once, RE2 syntax, Latin-1: bytes in) and builds the candidate tables.
  // A bad regex gives Corrupt("<describe(i)>: bad regex: <RE2's error>").
  Status Compile(const std::vector<std::string>& regexes, const Describe& describe = {});
  // Until the next Compile, Match and MatchEveryRule find nothing (the pattern list changed).
  void Invalidate() { compiled_ok_ = false; }

  // A subset of the patterns (those i with keep[i]) with candidate tables of its own, for a
  // caller that knows the other patterns cannot matter to it (LogStream, once the engine is
  // known, needs only that engine's rules and the generic ones): fewer atoms to look for and
  // fewer regexes to run. Returns its id for Match. Subset 0, every pattern, is made by Compile;
  // Compile drops the others.
  int AddSubset(const std::vector<bool>& keep);

  // Indices of every pattern of `subset` whose regex matches `message` (unanchored), ascending.
  // Thread-safe. Cheap exact tests pick the few patterns that can match and only those run.
  // An unknown subset finds nothing. `regex_runs`, when given, gets the patterns whose regex ran
  // (once per run: a split rule may run more than one of its alternatives), the cost a test
  // keeps low.
  void Match(std::string_view message, std::vector<int>* matched, int subset = 0,
             std::vector<int>* regex_runs = nullptr) const;
  // The same answer by running every regex: the definition Match must agree with (tests and the
  // fuzz target compare the two).
  void MatchEveryRule(std::string_view message, std::vector<int>* matched) const;
  const RE2& regex(int i) const { return *compiled_[static_cast<size_t>(i)]; }
  size_t size() const { return compiled_.size(); }
  // The patterns no cheap test can pass over: they are tried on every message (no FilteredRE2
  // atom, or anchored with no match range). One such regex costs every line about a thousand
  // instructions, so the shipped rules are tested to have none.
  std::vector<int> TriedOnEveryMessage() const;

 private:
  // How Match tests one pattern once it is a candidate. A regex made of plain literals ("Load
  // weight end\\.", "^Init nccl begin\\.", "^(?:Loading x|Multi-thread y)") needs no regex
  // engine: prefix compares and substring searches are exact.
  enum class Test : uint8_t { kRegex, kLiterals };
  // Up to two bytes every match of a regex holds (its rarest sure ones, RequiredBytes in
  // pattern_literals.cc): a candidate whose message lacks one is no match, found without running
  // RE2, whose every call costs about a thousand instructions on a log line.
  struct NeedBytes {
    char bytes[2] = {0, 0};
    uint8_t count = 0;
    bool In(std::string_view message) const;
  };
  struct Literal {
    bool prefix;  // '^': at the message start; else anywhere
    std::string text;
    // 1: "$" after it (at the message's end); 2: "\\s*$" (before trailing white space only).
    uint8_t end = 0;
  };
  // One top-level alternative of a rule whose whole-regex prefilter came out loose (many atoms
  // in an OR of ANDs: "cannot import name '\\w+' from '|requires (?:torch|triton)..." let any one
  // atom through). Each alternative keeps its own exact clause over its own atoms (bits
  // [shift, shift + count) of the rule's), and only the alternatives that pass run their regex:
  // a message matches the rule exactly when it matches one of its alternatives.
  // Unanchored alternations are split the same way when their alternatives each have atoms: a
  // line then runs only the alternative whose atoms it holds, and an alternative made of plain
  // literals ("(?:No route to host)") is a substring search, not a regex run over the line.
  struct Alternative {
    int shift = 0;
    uint64_t mask = 0;  // count low bits
    PrefilterClause prefilter;
    const RE2* regex = nullptr;     // in alt_filters_; unused when `literals` is not empty
    NeedBytes need;                 // of `regex`
    std::vector<Literal> literals;  // any one of them occurring is a match
    bool Passes(uint64_t found) const { return prefilter.Passes(found >> shift & mask); }
  };
  struct FastRule {
    Test test = Test::kRegex;
    bool anchored = false;          // starts with '^' outside any alternation
    bool ranged = false;            // min/max hold RE2::PossibleMatchRange of an anchored rule
    bool needs_atom = false;        // anchored with a loose range: one of its atoms must occur too
    PrefilterClause prefilter;      // over its own atoms (see IndexAtoms); unused with alts
    std::vector<Alternative> alts;  // when not empty: its prefilter and its regex, split
    std::vector<Literal> literals;  // kLiterals: any one of them occurring is a match
    NeedBytes need;                 // kRegex without alts
    // Anchored kRegex without alts: the steps every match starts with (LeadItems). Checked
    // before RE2 runs: a kubectl pod-status rule ("^\\S+\\s+\\d+/\\d+\\s+(?:Error|...)") is a
    // candidate on every line with "Error" or "Completed", and its regex fails at the second word.
    std::vector<pattern_internal::LeadItem> lead;
    // Anchored regex rules: every match starts with one of these (each top-level alternative's
    // leading literal, "^Waiting for scheduler|^Wait for \\d+" → two); empty when not known.
    // The range admits whatever sorts between its ends; these do not.
    std::vector<std::string> heads;
    std::string min, max;  // every match m at the message start has min <= m <= max
    // min's first 8 bytes as a big-endian number (zero-padded), and whether max starts with the
    // same 8 bytes: a one-compare first check of the range (see Match).
    uint64_t min8 = 0;
    bool same8 = false;
  };
  // Per-thread scratch of one Match call: which rules' atoms occur (see FindAtoms).
  struct Scan;

  // Small and contiguous so the scan's lookups stay in cache: entries grouped by slot
  // (hash & (kGramSlots - 1)), each carrying what the first check needs.
  struct GramEntry {
    uint64_t head;       // the atom's first 8 bytes (fewer: zero-padded)
    uint64_t head_mask;  // which bytes of head to compare
    uint32_t key;        // gram hash
    uint32_t atom;
    uint32_t offset;  // where the gram sits in the atom
    uint32_t size;    // the atom's length
  };
  static constexpr unsigned kGramSlots = 4096;
  struct AtomRule {
    int rule;
    uint8_t bit;     // the atom's position among the rule's own atoms
    bool candidate;  // unanchored, or anchored with needs_atom: its atoms make it a candidate
  };
  // An anchored rule's first check, read from a contiguous list so that the rules a message
  // cannot start are passed over without reading their FastRule.
  struct AnchoredCheck {
    uint64_t min8;  // FastRule's (0 when not ranged: every message passes)
    int rule;
    bool same8;
  };
  // The candidate tables of a set of patterns.
  struct Index {
    // Anchored rules by the first byte of the message: a rule sits under every byte its matches
    // can start with (from its match range), so a message is tested against a handful of them.
    // Not those that need an atom (wide ranges, "^\\s*warnings"): they sat in most lists and
    // were tested on most messages; an atom of theirs occurring makes them candidates instead.
    std::vector<AnchoredCheck> anchored;   // grouped by byte
    std::vector<uint32_t> anchored_start;  // 257 offsets into `anchored`
    // Unanchored rules (and anchored ones with a loose range, "^(?:Prefill|Decode) batch"): each
    // one's FilteredRE2 atoms (lowercase literals of 5+ bytes, at least one of which occurs in
    // every matching message). A 4-gram-indexed scan finds which atoms occur (one table lookup
    // per two bytes: each atom is indexed by two neighbouring 4-grams, one of which starts at an
    // even offset of the message wherever the atom sits); only the rules of those atoms run.
    // Unanchored rules without atoms always run.
    std::vector<std::string> atoms;
    std::vector<std::vector<AtomRule>> atom_rules;  // atom id → rules that have it
    std::vector<int> always;                        // unanchored rules with no atom
    std::vector<GramEntry> gram_entries;            // grouped by slot
    std::vector<uint32_t> gram_slot_start;          // kGramSlots + 1 offsets into gram_entries
    // 65536 bytes, 1 where some entry has a gram of this hash: a byte, not a bit, saves the
    // scan a shift and a mask at every position it looks at.
    std::vector<uint8_t> gram_hit;
    std::vector<int> empty_matches;  // the patterns that match ""
  };
  static bool LiteralRange(const FastRule& f, std::string* lo, std::string* hi);
  static NeedBytes RarestNeeded(std::string_view regex);
  bool PrefilterAtoms(size_t i, std::vector<std::string>* atoms);
  static bool FilterClause(re2::FilteredRE2& filter, std::vector<std::string>* atoms,
                           PrefilterClause* clause);
  bool SplitAlternatives(size_t i, std::vector<std::string>* atoms);
  bool PassesAtoms(const FastRule& f, uint64_t found) const;
  void ChooseTriggers();
  static uint32_t RarePair(std::string_view atom);
  uint64_t FindLazyAtoms(size_t rule, std::string_view message, uint64_t found) const;
  static bool AnchoredAdmits(const FastRule& f, std::string_view message, uint64_t head8);
  void ClassifyRules();
  void IndexAtoms(const std::vector<bool>& keep, Index& ix) const;
  void CountRegexGrams();
  void BuildGramIndex(Index& ix) const;
  void FindAtoms(const Index& ix, std::string_view message, Scan& scan) const;
  void NoteAtom(const Index& ix, size_t atom, Scan& scan) const;
  bool RunRule(int idx, std::string_view message, uint64_t found,
               std::vector<int>* regex_runs) const;
  static bool AnyLiteral(const std::vector<Literal>& literals, std::string_view message);

  std::vector<std::string> regexes_;
  std::vector<std::unique_ptr<re2::FilteredRE2>> filters_;      // one per regex, which it owns
  std::vector<std::unique_ptr<re2::FilteredRE2>> alt_filters_;  // one per Alternative
  std::vector<const RE2*> compiled_;                            // regex i, in filters_[i]
  std::vector<FastRule> fast_;
  // By rule: the atoms (FastRule's bits) that let it through alone, its own or one
  // alternative's. Contiguous, so most candidates pass without reading their FastRule.
  std::vector<uint64_t> single_atoms_;
  // By rule: its atoms that do not make it a candidate (see ChooseTriggers). The scan does not
  // look for them; once another atom of the rule occurs, they are searched in the message.
  std::vector<uint64_t> lazy_atoms_;
  // By rule, by atom: where its rarest pair of neighbouring bytes starts (the pair the search
  // for a lazy atom looks for), found once here rather than on every search.
  std::vector<std::vector<uint32_t>> rare_pair_;
  // Anchored rules by the first byte of the message: a rule sits under every byte its matches
  // can start with (from its match range), so a message is tested against a handful of them.
  std::vector<std::vector<std::string>> rule_atoms_;  // each rule's prefilter atoms (see Index)
  std::vector<int> empty_matches_;                    // the patterns that match ""
  std::vector<uint16_t> gram_in_regexes_;             // by gram hash: the regexes holding it
  std::vector<Index> indexes_;                        // [0]: every pattern; then AddSubset's
  bool compiled_ok_ = false;
};

}  // namespace spinup

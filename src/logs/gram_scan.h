// The first pass of the pattern matcher's atom scan (PatternMatcher::FindAtoms): which even
// positions of a message start a 4-byte gram whose hash is set in a 65536-bit table. It runs on
// every byte of every message, so it has a vector kernel (AVX2, chosen at run time where the CPU
// has it) beside the plain one; both give the same positions. Internal to src/logs.
#pragma once

#include <cstddef>
#include <cstdint>

namespace spinup::gram_scan {

// Writes to hit_pos, in increasing order, every position i of start, start + 2, ... below `end`
// (end + 3 <= the text's size, so every gram lies inside it) whose GramHash (pattern_matcher_
// internal.h) has its bit set in `bits` (65536 bits); returns how many. hit_pos holds at least
// (end - start + 1) / 2 entries.
size_t MarkHits(const unsigned char* text, size_t start, size_t end, const uint64_t* bits,
                uint32_t* hit_pos);

// The two kernels, for the test that compares them. MarkHitsVector returns SIZE_MAX where the
// CPU lacks the instructions it needs.
size_t MarkHitsPlain(const unsigned char* text, size_t start, size_t end, const uint64_t* bits,
                     uint32_t* hit_pos);
size_t MarkHitsVector(const unsigned char* text, size_t start, size_t end, const uint64_t* bits,
                      uint32_t* hit_pos);

}  // namespace spinup::gram_scan

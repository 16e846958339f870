#include "logs/gram_scan.h"

#include <cstring>

#include "logs/pattern_matcher_internal.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define SPINUP_GRAM_SCAN_AVX2 1
#endif

namespace spinup::gram_scan {

using pattern_internal::GramHash;

size_t MarkHitsPlain(const unsigned char* text, size_t start, size_t end, const uint64_t* bits,
                     uint32_t* hit_pos) {
  size_t hits = 0;
  for (size_t i = start; i < end; i += 2) {
    const unsigned key = GramHash(text + i);
    hit_pos[hits] = static_cast<uint32_t>(i);  // kept only when the bit is set (no branch)
    hits += (bits[key >> 6] >> (key & 63)) & 1;
  }
  return hits;
}

#ifdef SPINUP_GRAM_SCAN_AVX2
namespace {

// Eight positions at once: the grams at q, q + 2, ..., q + 14 (reads q[0, 24)), hashed as
// GramHash does, their bits looked up with one gather. Bit k of the result: position q + 2k.
__attribute__((target("avx2"))) inline unsigned EightHits(const unsigned char* q,
                                                          const uint64_t* bits) {
  const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q));
  const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q + 8));
  const __m256i bytes = _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
  // In each 16-byte lane, the little-endian words at offsets 0, 2, 4 and 6.
  const __m256i pick = _mm256_setr_epi8(0, 1, 2, 3, 2, 3, 4, 5, 4, 5, 6, 7, 6, 7, 8, 9,  //
                                        0, 1, 2, 3, 2, 3, 4, 5, 4, 5, 6, 7, 6, 7, 8, 9);
  __m256i w = _mm256_shuffle_epi8(bytes, pick);
  w = _mm256_or_si256(w, _mm256_set1_epi32(0x20202020));
  w = _mm256_mullo_epi32(w, _mm256_set1_epi32(static_cast<int>(2654435761u)));
  const __m256i key = _mm256_srli_epi32(w, 16);
  const __m256i word =
      _mm256_i32gather_epi32(reinterpret_cast<const int*>(bits), _mm256_srli_epi32(key, 5), 4);
  const __m256i bit = _mm256_srlv_epi32(word, _mm256_and_si256(key, _mm256_set1_epi32(31)));
  return static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_slli_epi32(bit, 31))));
}

__attribute__((target("avx2"))) size_t MarkHitsAvx2(const unsigned char* text, size_t start,
                                                    size_t end, const uint64_t* bits,
                                                    uint32_t* hit_pos) {
  size_t hits = 0;
  auto keep = [&](size_t at, unsigned mask) {
    while (mask != 0) {
      hit_pos[hits++] = static_cast<uint32_t>(at + 2 * static_cast<size_t>(__builtin_ctz(mask)));
      mask &= mask - 1;
    }
  };
  // Bytes [0, end + 3) may be read: a step at i reads [i, i + 24).
  size_t i = start;
  for (; i + 21 <= end; i += 16) keep(i, EightHits(text + i, bits));
  if (i < end) {
    // The last positions from a zero-padded copy; those at or past `end` are dropped.
    unsigned char tail[48] = {};
    std::memcpy(tail, text + i, end + 3 - i);
    const size_t left = (end - i + 1) / 2;  // positions i, i + 2, ... below end
    const unsigned all = (1u << left) - 1;  // left <= 11
    const unsigned mask = EightHits(tail, bits) | EightHits(tail + 16, bits) << 8;
    keep(i, mask & all);
  }
  return hits;
}

}  // namespace
#endif

size_t MarkHitsVector(const unsigned char* text, size_t start, size_t end, const uint64_t* bits,
                      uint32_t* hit_pos) {
#ifdef SPINUP_GRAM_SCAN_AVX2
  static const bool kAvx2 = __builtin_cpu_supports("avx2");
  if (kAvx2) return MarkHitsAvx2(text, start, end, bits, hit_pos);
#else
  (void)text, (void)start, (void)end, (void)bits, (void)hit_pos;
#endif
  return SIZE_MAX;
}

size_t MarkHits(const unsigned char* text, size_t start, size_t end, const uint64_t* bits,
                uint32_t* hit_pos) {
  const size_t hits = MarkHitsVector(text, start, end, bits, hit_pos);
  return hits != SIZE_MAX ? hits : MarkHitsPlain(text, start, end, bits, hit_pos);
}

}  // namespace spinup::gram_scan

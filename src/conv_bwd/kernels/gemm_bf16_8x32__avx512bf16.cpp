// AVX512-BF16 pair kernel: gemm_f32_8x32__avx512f's tile (8 rows × 2 zmm columns = 16 accumulators) with each
// VDPBF16PS taking two K steps, so per pair step 2 B loads, 8 broadcast words and 16 dot products; and the panel
// conversions into pairs, from fp32 panels, BF16 steps or fp32 lines (gemm_bf16_ukernel.hpp). Compiled with -mavx512f
// -mavx512bw -mavx512bf16 (src/CMakeLists.txt); called only when CPUID and the OS report them.
#include <algorithm>

#include "conv_bwd/kernels/avx512_intrinsics.hpp"
#include "conv_bwd/kernels/bf16_floor_avx512.hpp"
#include "conv_bwd/kernels/gemm_bf16_ukernel.hpp"
#include "conv_bwd/kernels/gemm_tile_avx512.hpp"
#include "core/int_math.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

// The high half of `hi` over the high half of `lo`: BF16 values held as fp32 lose nothing.
inline __m256i pair_words(__m256i hi, __m256i lo) {
  return _mm256_or_si256(_mm256_and_si256(hi, _mm256_set1_epi32(static_cast<int>(0xFFFF0000u))),
                         _mm256_srli_epi32(lo, 16));
}

// Eight BF16 values widened to their fp32 bits.
inline __m256i widen8(const uint16_t *v) {
  return _mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i *>(v))), 16);
}

// Eight lines' words of one pair step: `hi`'s and `lo`'s values (lo nullptr: the zero past kc).
inline __m256i step_pair8(const uint16_t *hi, const uint16_t *lo, Magnitudes &seen) {
  const __m256i h = widen8(hi);
  seen.add(h);
  if (lo == nullptr) return pair_words(h, _mm256_setzero_si256());
  const __m256i l = widen8(lo);
  seen.add(l);
  return pair_words(h, l);
}

// One line's words of eight pair steps from its 16 fp32 values there (`mask`: the steps before kc; the rest read as
// zero): in each 64-bit lane, step 2i's high half over step 2i + 1's, narrowed to the lane's low 32 bits.
inline __m256i line_words8(const float *s, __mmask16 mask, Magnitudes &seen) {
  const __m512i v = _mm512_maskz_loadu_epi32(mask, s);
  seen.add(_mm512_castsi512_si256(v));
  seen.add(_mm512_extracti64x4_epi64(v, 1));
  const __m512i w = _mm512_or_si512(_mm512_and_si512(v, _mm512_set1_epi64(0xFFFF0000)), _mm512_srli_epi64(v, 48));
  return _mm512_cvtepi64_epi32(w);
}

// r[l] holds line l's words of 8 pair steps; afterwards r[s] holds step s's words of the 8 lines.
inline void transpose8x8(__m256i r[8]) {
  __m256i t[8], u[8];
  for (int i = 0; i < 8; i += 2) {
    t[i] = _mm256_unpacklo_epi32(r[i], r[i + 1]);
    t[i + 1] = _mm256_unpackhi_epi32(r[i], r[i + 1]);
  }
  for (int i = 0; i < 8; i += 4) {
    u[i] = _mm256_unpacklo_epi64(t[i], t[i + 2]);
    u[i + 1] = _mm256_unpackhi_epi64(t[i], t[i + 2]);
    u[i + 2] = _mm256_unpacklo_epi64(t[i + 1], t[i + 3]);
    u[i + 3] = _mm256_unpackhi_epi64(t[i + 1], t[i + 3]);
  }
  for (int i = 0; i < 4; ++i) {
    r[i] = _mm256_permute2x128_si256(u[i], u[i + 4], 0x20);
    r[i + 4] = _mm256_permute2x128_si256(u[i], u[i + 4], 0x31);
  }
}

// Pair steps a few at a time, each group over all panels: a group reads a handful of rows, a line of each at a time,
// and writes a few lines into each panel. Panel by panel over all of K instead read one 16-byte chunk from each of up
// to 256 rows per A panel (width 8), and rows a power of two apart (512 bytes: 256 input channels of a 1 × 1 weight)
// share a few cache sets, so every chunk came from beyond L1 again.
constexpr int64_t kStepGroup = 4;

// Calls pair_row(hi, lo, p0, out) for every pair step of every panel: groups of kStepGroup pair steps, each group's
// panels in order, each panel's steps of the group in order. `hi`, `lo`: the step's rows from the panel's first line
// p0 (lo nullptr: the zero past kc); `out`: the panel's words of that step.
template <typename PairRow>
void for_each_step_pair(const uint16_t *const *steps, int64_t kc, int64_t lines, int width, uint32_t *dst,
                        int64_t panel_words, PairRow pair_row) {
  const int64_t kp = (kc + 1) / 2;
  for (int64_t i0 = 0; i0 < kp; i0 += kStepGroup) {
    const int64_t i1 = std::min(kp, i0 + kStepGroup);
    for (int64_t p0 = 0; p0 < lines; p0 += width) {
      uint32_t *d = dst + p0 / width * panel_words;
      for (int64_t i = i0; i < i1; ++i) {
        const uint16_t *hi = steps[2 * i] + p0, *lo = 2 * i + 1 < kc ? steps[2 * i + 1] + p0 : nullptr;
        pair_row(hi, lo, p0, d + i * width);
      }
    }
  }
}

// gemm_bf16_step_pairs__avx512bf16 for widths that are multiples of 32 (B's panels): 32 lines of two steps per pair
// of 64-byte loads, interleaved as words by two unpacks and put back in line order by two permutes; the lines past
// `lines` are masked off the loads (read as zero), so no row is read past its end.
int step_pairs_by_32(const uint16_t *const *steps, int64_t kc, int64_t lines, int width, uint32_t *dst,
                     int64_t panel_words) {
  // Each 128-bit lane of unpacklo(lo, hi) holds 4 lines' words, of unpackhi the next 4: lane order back to lines.
  const __m512i first = _mm512_set_epi64(11, 10, 3, 2, 9, 8, 1, 0),
                second = _mm512_set_epi64(15, 14, 7, 6, 13, 12, 5, 4);
  WordMagnitudes seen;
  for_each_step_pair(steps, kc, lines, width, dst, panel_words,
                     [&](const uint16_t *hi, const uint16_t *lo, int64_t p0, uint32_t *out) {
                       for (int64_t j = 0; j < width; j += 32) {
                         const int64_t n = std::clamp<int64_t>(lines - p0 - j, 0, 32);
                         const __mmask32 mask = n == 32 ? ~__mmask32{0} : static_cast<__mmask32>((1u << n) - 1u);
                         const __m512i h = _mm512_maskz_loadu_epi16(mask, hi + j);
                         const __m512i l =
                             lo == nullptr ? _mm512_setzero_si512() : _mm512_maskz_loadu_epi16(mask, lo + j);
                         seen.add(h);
                         seen.add(l);
                         const __m512i a = _mm512_unpacklo_epi16(l, h), b = _mm512_unpackhi_epi16(l, h);
                         _mm512_storeu_si512(out + j, _mm512_permutex2var_epi64(a, first, b));
                         _mm512_storeu_si512(out + j + 16, _mm512_permutex2var_epi64(a, second, b));
                       }
                     });
  return seen.floor();
}

// Four 8-wide panels' words of one pair step, lines p0 .. p0 + 31 of `hi` and `lo` (the by-32 interleave; each
// 256-bit half of the two permutes is one panel's step) into out, out + panel_words, ... .
inline void step_pair_4x8(const uint16_t *hi, const uint16_t *lo, uint32_t *out, int64_t panel_words,
                          WordMagnitudes &seen) {
  const __m512i first = _mm512_set_epi64(11, 10, 3, 2, 9, 8, 1, 0),
                second = _mm512_set_epi64(15, 14, 7, 6, 13, 12, 5, 4);
  const __m512i h = _mm512_loadu_si512(hi);
  const __m512i l = lo == nullptr ? _mm512_setzero_si512() : _mm512_loadu_si512(lo);
  seen.add(h);
  seen.add(l);
  const __m512i a = _mm512_unpacklo_epi16(l, h), b = _mm512_unpackhi_epi16(l, h);
  const __m512i p01 = _mm512_permutex2var_epi64(a, first, b), p23 = _mm512_permutex2var_epi64(a, second, b);
  _mm256_storeu_si256(reinterpret_cast<__m256i *>(out), _mm512_castsi512_si256(p01));
  _mm256_storeu_si256(reinterpret_cast<__m256i *>(out + panel_words), _mm512_extracti64x4_epi64(p01, 1));
  _mm256_storeu_si256(reinterpret_cast<__m256i *>(out + 2 * panel_words), _mm512_castsi512_si256(p23));
  _mm256_storeu_si256(reinterpret_cast<__m256i *>(out + 3 * panel_words), _mm512_extracti64x4_epi64(p23, 1));
}

// The 8-wide panels of A: 32 lines (four panels) per pair of 64-byte loads while whole ones remain, then eight lines
// of two steps per pair of 16-byte loads; the last lines through a zeroed chunk. Eight at a time throughout, a 3 × 3
// layer's shared weight pairs took 9 % of its gradInput (ResNet's 512 channels at 7², mini-batch 16).
int step_pairs_by_8(const uint16_t *const *steps, int64_t kc, int64_t lines, int width, uint32_t *dst,
                    int64_t panel_words) {
  const int64_t kp = (kc + 1) / 2, whole = lines / 8 * 8, quads = lines / 32 * 32;
  Magnitudes seen;
  WordMagnitudes seen_words;
  for (int64_t i0 = 0; i0 < kp; i0 += kStepGroup) {
    const int64_t i1 = std::min(kp, i0 + kStepGroup);
    for (int64_t p0 = 0; p0 < lines;) {
      uint32_t *d = dst + p0 / width * panel_words + p0 % width;
      const bool four = width == 8 && p0 < quads;
      for (int64_t i = i0; i < i1; ++i) {
        const uint16_t *hi = steps[2 * i] + p0, *lo = 2 * i + 1 < kc ? steps[2 * i + 1] + p0 : nullptr;
        if (four) {
          step_pair_4x8(hi, lo, d + i * width, panel_words, seen_words);
          continue;
        }
        __m256i words = _mm256_setzero_si256();
        if (p0 < whole) {
          words = step_pair8(hi, lo, seen);
        } else {
          alignas(16) uint16_t h[8] = {}, l[8] = {};
          const int64_t n = lines - p0;
          std::copy(hi, hi + n, h);
          if (lo != nullptr) std::copy(lo, lo + n, l);
          words = step_pair8(h, lo == nullptr ? nullptr : l, seen);
        }
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(d + i * width), words);
      }
      p0 += four ? 32 : 8;
    }
  }
  return std::min(seen.floor(), seen_words.floor());
}

}  // namespace

int gemm_bf16_line_pairs__avx512bf16(const float *src, int64_t ld, int64_t lines, int64_t kc, int width,
                                     uint32_t *dst) {
  const int64_t kp = (kc + 1) / 2;
  Magnitudes seen;
  // Eight lines at a time, each 16 steps of theirs one 8 × 8 transpose of pair words: every load and store a vector.
  for (int64_t l0 = 0; l0 < round_up(lines, width); l0 += 8) {
    uint32_t *d = dst + l0 / width * kp * width + l0 % width;
    for (int64_t i0 = 0; i0 < kp; i0 += 8) {
      const int64_t k0 = 2 * i0, steps = std::min<int64_t>(8, kp - i0);
      const __mmask16 mask = static_cast<__mmask16>((1u << std::min<int64_t>(16, kc - k0)) - 1u);
      __m256i r[8];
      for (int l = 0; l < 8; ++l) {
        r[l] = l0 + l < lines ? line_words8(src + (l0 + l) * ld + k0, mask, seen) : _mm256_setzero_si256();
      }
      transpose8x8(r);
      for (int64_t s = 0; s < steps; ++s) {
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(d + (i0 + s) * width), r[s]);
      }
    }
  }
  return seen.floor();
}

int gemm_bf16_step_pairs__avx512bf16(const uint16_t *const *steps, int64_t kc, int64_t lines, int width, uint32_t *dst,
                                     int64_t panel_words) {
  return width % 32 == 0 ? step_pairs_by_32(steps, kc, lines, width, dst, panel_words)
                         : step_pairs_by_8(steps, kc, lines, width, dst, panel_words);
}

int gemm_bf16_pairs__avx512bf16(const float *src, int64_t panels, int width, int64_t kc, uint32_t *dst) {
  const int64_t kp = (kc + 1) / 2, full = kc / 2;
  Magnitudes seen;
  for (int64_t p = 0; p < panels; ++p) {
    const float *s = src + p * kc * width;
    uint32_t *d = dst + p * kp * width;
    for (int64_t i = 0; i < full; ++i) {
      for (int j = 0; j < width; j += 8) {
        const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(s + 2 * i * width + j));
        const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(s + (2 * i + 1) * width + j));
        seen.add(hi);
        seen.add(lo);
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(d + i * width + j), pair_words(hi, lo));
      }
    }
    if (kp == full) continue;
    for (int j = 0; j < width; j += 8) {  // the last step alone, over a zero
      const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(s + (kc - 1) * width + j));
      seen.add(hi);
      _mm256_storeu_si256(reinterpret_cast<__m256i *>(d + full * width + j), pair_words(hi, _mm256_setzero_si256()));
    }
  }
  return seen.floor();
}

void gemm_bf16_8x32__avx512bf16(int64_t kp, const uint32_t *a, const uint32_t *b, float *c, int64_t ldc, int m, int n,
                                bool accumulate) {
  constexpr int kMr = 8;
  __m512 acc[kMr][2];
#pragma GCC unroll 8
  for (int r = 0; r < kMr; ++r) acc[r][0] = acc[r][1] = _mm512_setzero_ps();
  for (int64_t k = 0; k < kp; ++k) {
    const __m512bh b0 = (__m512bh)_mm512_loadu_si512(b), b1 = (__m512bh)_mm512_loadu_si512(b + 16);
#pragma GCC unroll 8
    for (int r = 0; r < kMr; ++r) {
      const __m512bh ar = (__m512bh)_mm512_set1_epi32(static_cast<int>(a[r]));
      acc[r][0] = _mm512_dpbf16_ps(acc[r][0], ar, b0);
      acc[r][1] = _mm512_dpbf16_ps(acc[r][1], ar, b1);
    }
    a += kMr;
    b += 32;
  }
  store_tile_8x32(acc, c, ldc, m, n, accumulate);
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu

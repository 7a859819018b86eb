// AVX512-BF16 pair RA kernels: gemm_ra_f32_8x32__avx512f's and gemm_ra_f32_8x16__avx512f's tiles with each VDPBF16PS
// taking two K steps, so per pair step the B loads of its 32 or 16 columns, 8 broadcast words (each row's two
// columns, one unaligned 32-bit load from its reversed window) and 16 or 8 dot products; the tile stored as it is or
// transposed as the fp32 ones store theirs; and the reversed window conversions (gemm_ra_bf16_ukernel.hpp). Compiled
// with -mavx512f -mavx512bw -mavx512bf16 (src/CMakeLists.txt); called only when CPUID and the OS report them.
#include <algorithm>
#include <cstring>

#include "conv_bwd/kernels/avx512_intrinsics.hpp"
#include "conv_bwd/kernels/bf16_floor_avx512.hpp"
#include "conv_bwd/kernels/gemm_ra_bf16_ukernel.hpp"
#include "conv_bwd/kernels/gemm_tile_avx512.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

template <int kHalves, bool kTransposedC>
inline bool ra_pairs_8xn(int64_t kp, const int32_t *at, const uint16_t *const *a, const uint32_t *b, int64_t ldb,
                         float *c, int64_t ldc, int m, int n, bool accumulate) {
  constexpr int kMr = 8;
  const uint16_t *rows[kMr];  // held in registers across the loop, as the fp32 RA kernels hold theirs
  __m512 acc[kMr][kHalves];
#pragma GCC unroll 8
  for (int r = 0; r < kMr; ++r) {
    rows[r] = a[r];
    for (int h = 0; h < kHalves; ++h) acc[r][h] = _mm512_setzero_ps();
  }
  for (int64_t step = 0; step < kp; ++step) {
    const int64_t k = at[step];
    __m512bh bh[kHalves];
    for (int h = 0; h < kHalves; ++h) bh[h] = (__m512bh)_mm512_loadu_si512(b + 16 * h);
#pragma GCC unroll 8
    for (int r = 0; r < kMr; ++r) {
      int32_t word;
      std::memcpy(&word, rows[r] - k, sizeof word);
      const __m512bh ar = (__m512bh)_mm512_set1_epi32(word);
      for (int h = 0; h < kHalves; ++h) acc[r][h] = _mm512_dpbf16_ps(acc[r][h], ar, bh[h]);
    }
    b += ldb;
  }
  if constexpr (!kTransposedC) {
    store_tile_8xn<kHalves>(acc, c, ldc, m, n, accumulate);
    return true;
  }
  return store_tile_8xn_transposed<kHalves>(acc, c, ldc, m, n, accumulate);
}

// 16 values: their BF16 halves reversed into dst (dst[15 − j] = src[j]), their magnitudes into seen.
inline void reverse_16(const float *src, uint16_t *dst, Magnitudes *seen) {
  const __m512i v = _mm512_loadu_si512(src);
  seen->add(_mm512_castsi512_si256(v));
  seen->add(_mm512_extracti64x4_epi64(v, 1));
  const __m512i reversed =
      _mm512_permutexvar_epi32(_mm512_setr_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0), v);
  _mm256_storeu_si256(reinterpret_cast<__m256i *>(dst), _mm512_cvtepi32_epi16(_mm512_srli_epi32(reversed, 16)));
}

// The low min(count, 32) bits (count > 0): the words of a 32-word chunk that lie inside a run.
inline __mmask32 low_mask32(int64_t count) {
  return count >= 32 ? ~__mmask32{0} : static_cast<__mmask32>((1u << count) - 1u);
}

// r[i][j] becomes r[j][i] (32-bit elements): pairs within 128-bit lanes, then pairs of pairs, then the lanes.
inline void transpose_16x16_epi32(__m512i r[16]) {
  __m512i t[16], u[16];
  for (int k = 0; k < 16; k += 2) {
    t[k] = _mm512_unpacklo_epi32(r[k], r[k + 1]);
    t[k + 1] = _mm512_unpackhi_epi32(r[k], r[k + 1]);
  }
  for (int k = 0; k < 16; k += 4) {  // u[k + m], lane l: rows k .. k + 3 of column 4l + m
    u[k] = _mm512_unpacklo_epi64(t[k], t[k + 2]);
    u[k + 1] = _mm512_unpackhi_epi64(t[k], t[k + 2]);
    u[k + 2] = _mm512_unpacklo_epi64(t[k + 1], t[k + 3]);
    u[k + 3] = _mm512_unpackhi_epi64(t[k + 1], t[k + 3]);
  }
  for (int m = 0; m < 4; ++m) {
    const __m512i even_lo = _mm512_shuffle_i32x4(u[m], u[4 + m], 0x88),
                  odd_lo = _mm512_shuffle_i32x4(u[m], u[4 + m], 0xDD);
    const __m512i even_hi = _mm512_shuffle_i32x4(u[8 + m], u[12 + m], 0x88);
    const __m512i odd_hi = _mm512_shuffle_i32x4(u[8 + m], u[12 + m], 0xDD);
    r[m] = _mm512_shuffle_i32x4(even_lo, even_hi, 0x88);
    r[8 + m] = _mm512_shuffle_i32x4(even_lo, even_hi, 0xDD);
    r[4 + m] = _mm512_shuffle_i32x4(odd_lo, odd_hi, 0x88);
    r[12 + m] = _mm512_shuffle_i32x4(odd_lo, odd_hi, 0xDD);
  }
}

}  // namespace

int gemm_ra_bf16_window__avx512bf16(const float *src, int64_t n, uint16_t *dst_end) {
  Magnitudes seen;
  int64_t f = 0;
  for (; f + 16 <= n; f += 16) reverse_16(src + f, dst_end - f - 15, &seen);
  if (f < n) {  // the last values through a zero-padded block (zeros leave the floor unchanged)
    float tail[16] = {};
    uint16_t out[16];
    std::memcpy(tail, src + f, static_cast<size_t>(n - f) * sizeof(float));
    reverse_16(tail, out, &seen);
    for (int64_t i = f; i < n; ++i) dst_end[-i] = out[15 - (i - f)];
  }
  return seen.floor();
}

void gemm_ra_bf16_window_from_bf16__avx512bf16(const uint16_t *src, int64_t stride, int64_t n, uint16_t *dst_end) {
  if (stride != 1 && stride != 2) {  // strided views and wide strides: rare, and short rows
    for (int64_t f = 0; f < n; ++f) dst_end[-f] = src[f * stride];
    return;
  }
  // A chunk of count words (source word j at j·stride) goes to lane count − 1 − j, so that it is stored from
  // dst_end − f − count + 1 up, masked to its count lanes; its loads are masked to the words it reads.
  const __m512i lane = _mm512_set_epi16(31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12,
                                        11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  for (int64_t f = 0; f < n; f += 32) {
    const int64_t count = std::min<int64_t>(32, n - f);
    const uint16_t *s = src + f * stride;
    const __m512i word = _mm512_sub_epi16(_mm512_set1_epi16(static_cast<int16_t>(count - 1)), lane);
    __m512i v;
    if (stride == 1) {
      v = _mm512_permutexvar_epi16(word, _mm512_maskz_loadu_epi16(low_mask32(count), s));
    } else {
      const int64_t words = 2 * count - 1;  // the last word read is 2·(count − 1)
      const __m512i lo = _mm512_maskz_loadu_epi16(low_mask32(words), s);
      const __m512i hi = words > 32 ? _mm512_maskz_loadu_epi16(low_mask32(words - 32), s + 32) : _mm512_setzero_si512();
      v = _mm512_permutex2var_epi16(lo, _mm512_slli_epi16(word, 1), hi);
    }
    _mm512_mask_storeu_epi16(dst_end - f - count + 1, low_mask32(count), v);
  }
}

int gemm_ra_bf16_words_floor__avx512bf16(const uint16_t *words, int64_t n) {
  WordMagnitudes seen;
  for (int64_t f = 0; f < n; f += 32) seen.add(_mm512_maskz_loadu_epi16(low_mask32(n - f), words + f));
  return seen.floor();
}

void gemm_ra_bf16_panel_from_bf16__avx512bf16(const uint16_t *src, int64_t ld, int nr, int64_t len, uint32_t *dst) {
  const int64_t steps = (len + 1) / 2;
  if (nr % 16 != 0) {
    for (int64_t s = 0; s < steps; ++s) {
      for (int i = 0; i < nr; ++i) {
        const uint16_t *line = src + i * ld + 2 * s;
        dst[s * nr + i] = static_cast<uint32_t>(line[0]) << 16 | (2 * s + 1 < len ? line[1] : 0u);
      }
    }
    return;
  }
  // 16 lines by 16 pair steps at a time: each line's 32 words (masked to the run: the word after an odd run's last
  // step loads as the zero its pair needs), as 32-bit pairs rotated so step 2s is the high half, then transposed.
  for (int h = 0; h < nr; h += 16) {
    for (int64_t s0 = 0; s0 < steps; s0 += 16) {
      const __mmask32 mask = low_mask32(len - 2 * s0);
      __m512i r[16];
      for (int i = 0; i < 16; ++i) {
        r[i] = _mm512_ror_epi32(_mm512_maskz_loadu_epi16(mask, src + (h + i) * ld + 2 * s0), 16);
      }
      transpose_16x16_epi32(r);  // r[j]: pair step s0 + j of the 16 lines
      const int64_t count = std::min<int64_t>(16, steps - s0);
      for (int64_t j = 0; j < count; ++j) _mm512_storeu_si512(dst + (s0 + j) * nr + h, r[j]);
    }
  }
}

void gemm_ra_bf16_8x32__avx512bf16(int64_t kp, const int32_t *at, const uint16_t *const *a, const uint32_t *b,
                                   int64_t ldb, float *c, int64_t ldc, int m, int n, bool accumulate) {
  ra_pairs_8xn<2, false>(kp, at, a, b, ldb, c, ldc, m, n, accumulate);
}

bool gemm_ra_ct_bf16_8x32__avx512bf16(int64_t kp, const int32_t *at, const uint16_t *const *a, const uint32_t *b,
                                      int64_t ldb, float *c, int64_t ldc, int m, int n, bool accumulate) {
  return ra_pairs_8xn<2, true>(kp, at, a, b, ldb, c, ldc, m, n, accumulate);
}

void gemm_ra_bf16_8x16__avx512bf16(int64_t kp, const int32_t *at, const uint16_t *const *a, const uint32_t *b,
                                   int64_t ldb, float *c, int64_t ldc, int m, int n, bool accumulate) {
  ra_pairs_8xn<1, false>(kp, at, a, b, ldb, c, ldc, m, n, accumulate);
}

bool gemm_ra_ct_bf16_8x16__avx512bf16(int64_t kp, const int32_t *at, const uint16_t *const *a, const uint32_t *b,
                                      int64_t ldb, float *c, int64_t ldc, int m, int n, bool accumulate) {
  return ra_pairs_8xn<1, true>(kp, at, a, b, ldb, c, ldc, m, n, accumulate);
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu

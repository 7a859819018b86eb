// Row kernels of the depthwise algorithms (algo/depthwise.cpp):
//   taps: y[i] = 0 + w[0]·x[i + shift[0]] + w[1]·x[i + shift[1]] + ... (added in tap order: the same bits as one
//         axpy per tap into a zeroed y, but y is only written, once)
//   taps_channels: `taps` for `channels` outputs (weights w + c·ldw, output y + c·ldy) sharing every x load; each
//         output element the bits `taps` gives it
//   dot_taps: lanes[t·16 + l] += Σ_{i < n, i ≡ l mod 16} y[i] · x[shift[t] + i] for every tap t < taps (16 fp32
//         lanes per tap, i ascending): y is loaded once for a block of taps instead of once per tap
//   copy_rows: dst[r·ldd + i] = src[r·lds + i]; returns whether every value copied is finite (the shifted layouts'
//         check, fused into the store)
//   deinterleave2: even[r·ldd + z] = src[r·lds + 2z], odd[r·ldd + z] = src[r·lds + 2z + 1] for z < n (x rows split into
//         their two stride phases across: depthwise_weight's phase boxes at stride 2)
//   widen_bf16_rows: dst[r·ldd + i] = the BF16 code src[r·lds + i] as fp32 (exact: its upper half)
//   narrow_bf16_rows: dst[r·ldd + i] = fp32_to_bf16(src[r·lds + i]) (RNE, a NaN quieted with its sign and top payload
//         kept); returns whether every value read is finite (gradInput planes stored as BF16 straight from q-space)
//   round_rows_hf32: dst[r·ldd + i] = src[r·lds + i] rounded to HF32 (Hf32Rows), in one pass: FP32 operands of an
//         HF32 call copied into their boxes rounded instead of copied and then rounded (numerics' round_to_hf32)
//   interleave: dst[r·ldd + z·s + a] = src[a·plane + r·lds + z] for every column z·s + a < n (s rows of stride
//         phases woven into one row: direct_data's dx at stride s); returns whether every value stored is finite
//   taps_3x3: `taps` over the 3 × 3 grid of shifts kr·ld + kc·dc (tap kr·3 + kc) for a plane of rows × width in the
//         shifted layout (y's rows have x's pitch ld); the bits `taps` gives. Each x vector loaded feeds the three y
//         rows it reaches, where `taps` loads it once per tap. May also write y's columns [width, span) (junk).
//   dot_taps_3x3: dot_taps over that grid for a plane, in its own order: lanes[t·16 + l] += the products of the
//         columns i ≡ l (mod 16) ascending, each column's rows ascending, summed from 0 and then added to the lane
// The source is one template (dw_rows_impl.hpp) compiled once per ISA: the lanes and the order of every sum are
// the same on each; an ISA with FMA fuses the multiply-add (bits may differ between ISAs, never between runs).
#pragma once

#include <cstdint>

#include "core/isa.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

constexpr int kDwTapLanes = 16;  // dot_taps' lanes per tap

// HF32 rounding on fp32 bits: `drop` low mantissa bits rounded off, ties away from zero or to even; half =
// 2^(drop − 1), keep = the bits kept. NaN and Inf pass unchanged.
struct Hf32Rows {
  uint32_t drop, half, keep;
  bool ties_away;

  // For 1 ≤ mantissa_bits ≤ 22 (HF32's 10 or 11).
  static Hf32Rows of(int mantissa_bits, bool ties_away) {
    const uint32_t drop = static_cast<uint32_t>(23 - mantissa_bits);
    return Hf32Rows{drop, 1u << (drop - 1), ~((1u << drop) - 1u), ties_away};
  }
};

struct DwRowKernels {
  void (*taps)(const float *x, const int64_t *shift, const float *w, int64_t taps, int64_t n, float *y);
  void (*taps_channels)(const float *x, const int64_t *shift, const float *w, int64_t ldw, int64_t taps, int64_t n,
                        float *y, int64_t ldy, int64_t channels);
  void (*dot_taps)(const float *y, const float *x, const int64_t *shift, int64_t taps, int64_t n, float *lanes);
  bool (*copy_rows)(const float *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd);
  bool (*interleave)(const float *src, int64_t plane, int64_t s, int64_t lds, int64_t rows, int64_t n, float *dst,
                     int64_t ldd);
  void (*deinterleave2)(const float *src, int64_t lds, int64_t rows, int64_t n, float *even, float *odd, int64_t ldd);
  void (*widen_bf16_rows)(const uint16_t *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd);
  bool (*narrow_bf16_rows)(const float *src, int64_t lds, int64_t rows, int64_t n, uint16_t *dst, int64_t ldd);
  void (*round_rows_hf32)(const float *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd,
                          const Hf32Rows &h);
  void (*add_rows)(const float *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd);
  void (*taps_3x3)(const float *x, int64_t ld, int64_t dc, const float *w, int64_t rows, int64_t width, int64_t span,
                   float *y);
  void (*dot_taps_3x3)(const float *y, const float *x, int64_t ld, int64_t dc, int64_t rows, int64_t width,
                       float *lanes);
  Isa isa;
  const char *name;
};

void dw_add_rows_f32__scalar(const float *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd);
void dw_add_rows_f32__avx2_fma(const float *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd);
void dw_add_rows_f32__avx512f(const float *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd);
void dw_widen_bf16_rows__scalar(const uint16_t *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd);
void dw_deinterleave2_f32__scalar(const float *src, int64_t lds, int64_t rows, int64_t n, float *even, float *odd,
                                  int64_t ldd);
void dw_taps_channels_f32__scalar(const float *x, const int64_t *shift, const float *w, int64_t ldw, int64_t taps,
                                  int64_t n, float *y, int64_t ldy, int64_t channels);
void dw_taps_f32__scalar(const float *x, const int64_t *shift, const float *w, int64_t taps, int64_t n, float *y);
void dw_dot_taps_f32__scalar(const float *y, const float *x, const int64_t *shift, int64_t taps, int64_t n,
                             float *lanes);
bool dw_copy_rows_f32__scalar(const float *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd);
bool dw_interleave_f32__scalar(const float *src, int64_t plane, int64_t s, int64_t lds, int64_t rows, int64_t n,
                               float *dst, int64_t ldd);
void dw_widen_bf16_rows__avx2_fma(const uint16_t *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd);
void dw_deinterleave2_f32__avx2_fma(const float *src, int64_t lds, int64_t rows, int64_t n, float *even, float *odd,
                                    int64_t ldd);
void dw_taps_channels_f32__avx2_fma(const float *x, const int64_t *shift, const float *w, int64_t ldw, int64_t taps,
                                    int64_t n, float *y, int64_t ldy, int64_t channels);
void dw_taps_f32__avx2_fma(const float *x, const int64_t *shift, const float *w, int64_t taps, int64_t n, float *y);
void dw_dot_taps_f32__avx2_fma(const float *y, const float *x, const int64_t *shift, int64_t taps, int64_t n,
                               float *lanes);
bool dw_copy_rows_f32__avx2_fma(const float *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd);
bool dw_interleave_f32__avx2_fma(const float *src, int64_t plane, int64_t s, int64_t lds, int64_t rows, int64_t n,
                                 float *dst, int64_t ldd);
void dw_widen_bf16_rows__avx512f(const uint16_t *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd);
void dw_deinterleave2_f32__avx512f(const float *src, int64_t lds, int64_t rows, int64_t n, float *even, float *odd,
                                   int64_t ldd);
void dw_taps_channels_f32__avx512f(const float *x, const int64_t *shift, const float *w, int64_t ldw, int64_t taps,
                                   int64_t n, float *y, int64_t ldy, int64_t channels);
void dw_taps_f32__avx512f(const float *x, const int64_t *shift, const float *w, int64_t taps, int64_t n, float *y);
void dw_dot_taps_f32__avx512f(const float *y, const float *x, const int64_t *shift, int64_t taps, int64_t n,
                              float *lanes);
bool dw_copy_rows_f32__avx512f(const float *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd);
bool dw_interleave_f32__avx512f(const float *src, int64_t plane, int64_t s, int64_t lds, int64_t rows, int64_t n,
                                float *dst, int64_t ldd);

bool dw_narrow_bf16_rows__scalar(const float *src, int64_t lds, int64_t rows, int64_t n, uint16_t *dst, int64_t ldd);
bool dw_narrow_bf16_rows__avx2_fma(const float *src, int64_t lds, int64_t rows, int64_t n, uint16_t *dst, int64_t ldd);
bool dw_narrow_bf16_rows__avx512f(const float *src, int64_t lds, int64_t rows, int64_t n, uint16_t *dst, int64_t ldd);
void dw_round_rows_hf32__scalar(const float *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd,
                                const Hf32Rows &h);
void dw_round_rows_hf32__avx2_fma(const float *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd,
                                  const Hf32Rows &h);
void dw_round_rows_hf32__avx512f(const float *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd,
                                 const Hf32Rows &h);

void dw_taps_3x3_f32__scalar(const float *x, int64_t ld, int64_t dc, const float *w, int64_t rows, int64_t width,
                             int64_t span, float *y);
void dw_dot_taps_3x3_f32__scalar(const float *y, const float *x, int64_t ld, int64_t dc, int64_t rows, int64_t width,
                                 float *lanes);
void dw_taps_3x3_f32__avx2_fma(const float *x, int64_t ld, int64_t dc, const float *w, int64_t rows, int64_t width,
                               int64_t span, float *y);
void dw_dot_taps_3x3_f32__avx2_fma(const float *y, const float *x, int64_t ld, int64_t dc, int64_t rows, int64_t width,
                                   float *lanes);
void dw_taps_3x3_f32__avx512f(const float *x, int64_t ld, int64_t dc, const float *w, int64_t rows, int64_t width,
                              int64_t span, float *y);
void dw_dot_taps_3x3_f32__avx512f(const float *y, const float *x, int64_t ld, int64_t dc, int64_t rows, int64_t width,
                                  float *lanes);

const DwRowKernels &dw_row_kernels(Isa isa);

}  // namespace conv_bwd
}  // namespace aclnn_cpu

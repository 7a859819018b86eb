// Strided-row kernels: multiply-adds, dots and copies over rows of fp32 values that lie at a pitch (a plane's rows
// inside a padded box, q-space, an operand's rows). Named rows_ for what they work on, not for one user: the direct
// algorithms (algo/depthwise_weight.cpp, direct_data.cpp, depthwise_both.cpp) run the tap kernels and store through
// the copies, col2im (gemm_backward_data) adds rows, the shifted GEMMs' stride-2 windows split rows
// (shifted_windows.cpp), and gradBias sums at their ISA. Verbose lines name the family rows_f32__<isa>.
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
//   add_rows_every_second: dst[r·ldd + 2i] += src[r·lds + i] for i < n (col2im at stride 2 across); the columns
//         between keep their bits and nothing past dst[r·ldd + 2(n − 1)] is touched
//   add_taps_rows: for each row r, tap t < taps in order, column i in [begin[t], end[t]):
//         dst[r·ldd + i] += src[r·lds + src_at[t] + i] (col2im's taps of one kernel row, which add into the same x
//         row: each x value is loaded and stored once for them all; each sum the one add_rows gives it, taps in order)
//   interleave: dst[r·ldd + z·s + a] = src[a·plane + r·lds + z] for every column z·s + a < n (s rows of stride
//         phases woven into one row: direct_data's dx at stride s); returns whether every value stored is finite
//   taps_3x3: `taps` over the 3 × 3 grid of shifts kr·ld + kc·dc (tap kr·3 + kc) for a plane of rows × width in the
//         shifted layout (y's rows have x's pitch ld); the bits `taps` gives. Each x vector loaded feeds the three y
//         rows it reaches, where `taps` loads it once per tap. May also write y's columns [width, span) (junk).
//   dot_taps_3x3: dot_taps over that grid for a plane, in its own order: lanes[t·16 + l] += the products of the
//         columns i ≡ l (mod 16) ascending, each column's rows ascending, summed from 0 and then added to the lane
// The source is one template (rows_impl.hpp) compiled once per ISA: the lanes and the order of every sum are
// the same on each; an ISA with FMA fuses the multiply-add (bits may differ between ISAs, never between runs).
#pragma once

#include <cstdint>

#include "conv_bwd/kernels/kernel_isas.hpp"
#include "core/isa.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

constexpr int kTapLanes = 16;  // dot_taps' lanes per tap

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

// The family's enumerator list: every row kernel once, as X(isa, result, op, name, params, args), isa passed through
// from the expansion's second argument. result and params are its signature, op its RowKernels member (and the
// rows_impl function each ISA's wrapper forwards to), rows_<name>__<isa> its function, args the names of params.
// It expands into the RowKernels members, the prototypes of every ISA (below), each ISA's wrappers
// (ACLNN_CPU_ROW_KERNEL_DEFINITION, rows_impl.hpp) and the dispatch tables (rows.cpp). Adding a kernel: one line
// here, its template in rows_impl.hpp.
// One kernel per line (clang-format would pack the list into columns).
// clang-format off
#define ACLNN_CPU_ROW_KERNELS(X, isa)                                                                                  \
  X(isa, void, taps, taps_f32,                                                                                         \
    (const float *x, const int64_t *shift, const float *w, int64_t taps, int64_t n, float *y),                         \
    (x, shift, w, taps, n, y))                                                                                         \
  X(isa, void, taps_channels, taps_channels_f32,                                                                       \
    (const float *x, const int64_t *shift, const float *w, int64_t ldw, int64_t taps, int64_t n, float *y,             \
     int64_t ldy, int64_t channels),                                                                                   \
    (x, shift, w, ldw, taps, n, y, ldy, channels))                                                                     \
  X(isa, void, dot_taps, dot_taps_f32,                                                                                 \
    (const float *y, const float *x, const int64_t *shift, int64_t taps, int64_t n, float *lanes),                     \
    (y, x, shift, taps, n, lanes))                                                                                     \
  X(isa, bool, copy_rows, copy_rows_f32,                                                                               \
    (const float *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd),                                 \
    (src, lds, rows, n, dst, ldd))                                                                                     \
  X(isa, bool, interleave, interleave_f32,                                                                             \
    (const float *src, int64_t plane, int64_t s, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd),       \
    (src, plane, s, lds, rows, n, dst, ldd))                                                                           \
  X(isa, void, deinterleave2, deinterleave2_f32,                                                                       \
    (const float *src, int64_t lds, int64_t rows, int64_t n, float *even, float *odd, int64_t ldd),                    \
    (src, lds, rows, n, even, odd, ldd))                                                                               \
  X(isa, void, widen_bf16_rows, widen_bf16_rows,                                                                       \
    (const uint16_t *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd),                              \
    (src, lds, rows, n, dst, ldd))                                                                                     \
  X(isa, bool, narrow_bf16_rows, narrow_bf16_rows,                                                                     \
    (const float *src, int64_t lds, int64_t rows, int64_t n, uint16_t *dst, int64_t ldd),                              \
    (src, lds, rows, n, dst, ldd))                                                                                     \
  X(isa, void, round_rows_hf32, round_rows_hf32,                                                                       \
    (const float *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd, const Hf32Rows &h),              \
    (src, lds, rows, n, dst, ldd, h))                                                                                  \
  X(isa, void, add_rows, add_rows_f32,                                                                                 \
    (const float *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd),                                 \
    (src, lds, rows, n, dst, ldd))                                                                                     \
  X(isa, void, add_rows_every_second, add_rows_every_second_f32,                                                       \
    (const float *src, int64_t lds, int64_t rows, int64_t n, float *dst, int64_t ldd),                                 \
    (src, lds, rows, n, dst, ldd))                                                                                     \
  X(isa, void, add_taps_rows, add_taps_rows_f32,                                                                       \
    (const float *src, int64_t lds, const int64_t *src_at, const int64_t *begin, const int64_t *end, int64_t taps,     \
     int64_t rows, float *dst, int64_t ldd),                                                                           \
    (src, lds, src_at, begin, end, taps, rows, dst, ldd))                                                              \
  X(isa, void, taps_3x3, taps_3x3_f32,                                                                                 \
    (const float *x, int64_t ld, int64_t dc, const float *w, int64_t rows, int64_t width, int64_t span, float *y),     \
    (x, ld, dc, w, rows, width, span, y))                                                                              \
  X(isa, void, dot_taps_3x3, dot_taps_3x3_f32,                                                                         \
    (const float *y, const float *x, int64_t ld, int64_t dc, int64_t rows, int64_t width, float *lanes),               \
    (y, x, ld, dc, rows, width, lanes))
// clang-format on

// One ISA's kernels.
struct RowKernels {
#define ACLNN_CPU_ROW_KERNEL_MEMBER(isa, result, op, name, params, args) result(*op) params;
  ACLNN_CPU_ROW_KERNELS(ACLNN_CPU_ROW_KERNEL_MEMBER, _)
#undef ACLNN_CPU_ROW_KERNEL_MEMBER
  Isa isa;
  const char *name;  // "rows_f32__<isa>"

  bool built() const { return taps != nullptr; }
};

// The prototypes of every ISA's kernels (rows_f32__<isa>.cpp).
#define ACLNN_CPU_ROW_KERNEL_PROTOTYPE(isa, result, op, name, params, args) result rows_##name##__##isa params;
#define ACLNN_CPU_ROW_KERNEL_PROTOTYPES(isa, level) ACLNN_CPU_ROW_KERNELS(ACLNN_CPU_ROW_KERNEL_PROTOTYPE, isa)
ACLNN_CPU_KERNEL_ISAS(ACLNN_CPU_ROW_KERNEL_PROTOTYPES)
#undef ACLNN_CPU_ROW_KERNEL_PROTOTYPES
#undef ACLNN_CPU_ROW_KERNEL_PROTOTYPE

// Every ISA's table, lowest first (the x86 ones built or not: kernel_isas.hpp).
KernelList<RowKernels> row_kernel_tables();

// The kernels for `isa`: the best ISA this build has at or below it.
const RowKernels &row_kernels(Isa isa);

}  // namespace conv_bwd
}  // namespace aclnn_cpu

// fp32 GEMM microkernels with A given as row pointers: C[m×n] (= or +=) A[m×kc]·B[kc×n], m ≤ MR, n ≤ NR.
//   K: step k of B pairs with column at[k] of every A row (kc steps). at[k] = k is a plain GEMM; gemm_weight_shifted
//   passes the block's real y positions, so q-space's junk positions (12 % of a 14² plane's) cost nothing. A table,
//   not runs: runs of 14 (a 14² plane's rows) cost the kernel 11 % in loop exits, the table's load nothing.
//   A: MR rows, row r at a[r] (any address: a shifted view into a packed x window; for r ≥ m the caller repeats a
//   valid row, whose results are dropped);
//   B, C and the order of every sum exactly as the NN kernels (gemm_ukernel.hpp): one fp32 sum over k ascending,
//   added to C once when `accumulate`. So a kernel gives the bits its ISA's NN kernel gives on A packed.
//   run_ct stores C transposed instead: element (r, i) at c[i·ldc + r], nothing outside those n rows × m columns read
//   or written (masked stores), and returns whether every value it stored is finite.
// gradWeight transposed (gemm_weight_shifted): rows of A are the (x channel, tap) rows of the shifted layout,
// broadcast where they lie, B is the dy block transposed (positions × output channels), so no tile waits on a
// reduction across lanes at the end of a short K block (the NT kernels' cost on small planes); run_ct puts a tile
// straight back into dW's rows (output channels).
#pragma once

#include <cstdint>

#include "core/isa.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

using GemmRaUkernelFn = void (*)(int64_t kc, const int32_t *at, const float *const *a, const float *b, int64_t ldb,
                                 float *c, int64_t ldc, int m, int n, bool accumulate);
using GemmRaCtUkernelFn = bool (*)(int64_t kc, const int32_t *at, const float *const *a, const float *b, int64_t ldb,
                                   float *c, int64_t ldc, int m, int n, bool accumulate);

constexpr int kMaxRaMr = 8;  // the most A rows a kernel reads (callers size their row-pointer arrays by it)

// dst[j·ldd + i] = src[i·lds + j] for i < rows, j < cols (the RA product's dy blocks into panels, its columns back
// into gradWeight's rows).
using GemmRaTransposeFn = void (*)(const float *src, int64_t lds, int64_t rows, int64_t cols, float *dst, int64_t ldd);

struct GemmRaUkernel {
  GemmRaUkernelFn run;
  GemmRaCtUkernelFn run_ct;
  GemmRaTransposeFn transpose;
  int mr, nr;
  Isa isa;
  const char *name;
};

void gemm_ra_f32_6x16__avx2_fma(int64_t kc, const int32_t *at, const float *const *a, const float *b, int64_t ldb,
                                float *c, int64_t ldc, int m, int n, bool accumulate);
void gemm_ra_f32_8x32__avx512f(int64_t kc, const int32_t *at, const float *const *a, const float *b, int64_t ldb,
                               float *c, int64_t ldc, int m, int n, bool accumulate);
bool gemm_ra_ct_f32_6x16__avx2_fma(int64_t kc, const int32_t *at, const float *const *a, const float *b, int64_t ldb,
                                   float *c, int64_t ldc, int m, int n, bool accumulate);
bool gemm_ra_ct_f32_8x32__avx512f(int64_t kc, const int32_t *at, const float *const *a, const float *b, int64_t ldb,
                                  float *c, int64_t ldc, int m, int n, bool accumulate);
void gemm_ra_f32_8x16__avx512f(int64_t kc, const int32_t *at, const float *const *a, const float *b, int64_t ldb,
                               float *c, int64_t ldc, int m, int n, bool accumulate);
bool gemm_ra_ct_f32_8x16__avx512f(int64_t kc, const int32_t *at, const float *const *a, const float *b, int64_t ldb,
                                  float *c, int64_t ldc, int m, int n, bool accumulate);
void gemm_ra_transpose_f32__avx2_fma(const float *src, int64_t lds, int64_t rows, int64_t cols, float *dst,
                                     int64_t ldd);

// The kernel for `isa` whose panels best fit m output channels, or nullptr: AVX2 has one (16 wide), AVX-512 two
// (32 wide, and 16 wide when m is not a multiple of 32). The portable 4 × 8 one tried lost to the scalar NT kernel
// (one thread, ResNeXt's 14² × 16 per group 5.0 -> 5.9 ms, ResNet's 14² 3×3 40 -> 48 ms).
const GemmRaUkernel *gemm_ra_ukernel(Isa isa, int64_t m);

}  // namespace conv_bwd
}  // namespace aclnn_cpu

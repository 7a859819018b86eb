// The NT GEMM kernels (kernels/gemm_nt_ukernel.hpp), one test per entry of the family's enumerator list
// (ACLNN_CPU_GEMM_NT_UKERNELS, through gemm_nt_ukernels()): a kernel added to the list is tested without editing this
// file. A kernel this build lacks or whose ISA this CPU lacks is skipped, by name and with the reason.
// For every m ≤ MR and n ≤ NR, kc = 0 and 1, 3, 7 vectors of `lanes` and the first odd count of vectors past the
// algorithms' NT K block (kWeightNtKc = 1024), A's row pitch lda = kc and wider, B rows at unaligned addresses (rows
// ≥ n repeating row n − 1, as the callers do), writing and accumulating, on random non-integer data (fixed seeds):
//   - against a double-precision reference, one output element per loop nest. Each element is `lanes` fp32 partial
//     sums over kc / lanes products each, folded by a fixed tree of log2(lanes) levels, then added to C once: a path
//     of at most d = kc / lanes + log2(lanes) + 1 roundings, so |fl(s) − s| ≤ γ_d · (Σ_k |a·b| + |c|),
//     γ_d = d·u / (1 − d·u), u = 2⁻²⁴;
//   - exactly where the contract fixes the order without naming the tree: an element's bits depend only on its own
//     row of A and row of B, never on the tile position (m, n) it was computed in, so every m × n run must give the
//     bits of the full MR × NR run;
//   - C outside the m × n corner (poisoned with a NaN payload) untouched, bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <ostream>
#include <string>
#include <vector>

#include "conv_bwd/kernels/gemm_nt_ukernel.hpp"
#include "core/isa.hpp"
#include "kernel_test_support.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

// gtest prints a test's parameter by this (found by argument-dependent lookup): the kernel's name, not its address.
static void PrintTo(const GemmNtUkernel *k, std::ostream *os) { *os << k->name; }

namespace {

using kernel_test::poison;
using kernel_test::random_floats;
using kernel_test::same_bits;

std::vector<const GemmNtUkernel *> kernels() { return kernel_test::pointers<GemmNtUkernel>(gemm_nt_ukernels()); }

class KernelsGemmNt : public kernel_test::RunnableKernel<GemmNtUkernel> {};

TEST_P(KernelsGemmNt, MatchesTheReferenceAtEveryRemainder) {
  const GemmNtUkernel &k = *GetParam();
  const int mr = k.mr, nr = k.nr, lanes = k.lanes;
  ASSERT_LE(nr, kMaxNtNr) << k.name << ": callers size their row-pointer arrays by kMaxNtNr";
  const double u = std::ldexp(1.0, -24);
  const int64_t past_block = (1024 / lanes + 1) | 1;  // an odd count of vectors, more than 1024 floats
  int levels = 0;
  while ((1 << levels) < lanes) ++levels;
  int64_t calls = 0;
  for (int64_t vectors : {int64_t{0}, int64_t{1}, int64_t{3}, int64_t{7}, past_block}) {
    const int64_t kc = vectors * lanes;
    for (int64_t lda : {kc, kc + 5}) {
      // A: MR rows at pitch lda (rows ≥ m zeros, as packing fills them); B: NR rows of kc at odd offsets of one buffer.
      const std::vector<float> a_all = random_floats(mr * lda + 1, static_cast<uint32_t>(5 + kc + lda));
      const std::vector<float> b_buf = random_floats(nr * (kc + 3) + 3, static_cast<uint32_t>(17 + kc));
      const float *b_rows[kMaxNtNr];
      for (int j = 0; j < nr; ++j) b_rows[j] = b_buf.data() + j * (kc + 3) + 1 + j % 3;
      for (bool accumulate : {false, true}) {
        const int64_t ldc_full = nr + 2;
        const std::vector<float> c0 = random_floats(mr * ldc_full, static_cast<uint32_t>(29 + kc));
        // The full tile: every element of the later runs must have its bits.
        std::vector<float> full = c0;
        k.run(kc, a_all.data(), lda, b_rows, full.data(), ldc_full, mr, nr, accumulate);
        for (int m = 1; m <= mr; ++m) {
          std::vector<float> a = a_all;
          for (int r = m; r < mr; ++r) {
            for (int64_t s = 0; s < lda; ++s) a[r * lda + s] = 0.0f;
          }
          for (int n = 1; n <= nr; ++n) {
            const float *rows[kMaxNtNr];
            for (int j = 0; j < nr; ++j) rows[j] = b_rows[j < n ? j : n - 1];
            const int64_t ldc = n + 3;
            std::vector<float> c(static_cast<size_t>(mr * ldc + 1), poison());
            for (int i = 0; i < m && accumulate; ++i) {
              for (int j = 0; j < n; ++j) c[i * ldc + j] = c0[i * ldc_full + j];
            }
            k.run(kc, a.data(), lda, rows, c.data(), ldc, m, n, accumulate);
            ++calls;
            const std::string where = std::string(k.name) + " kc " + std::to_string(kc) + " lda " +
                                      std::to_string(lda) + " m " + std::to_string(m) + " n " + std::to_string(n) +
                                      (accumulate ? " accumulate" : " overwrite");
            for (int64_t at = 0; at < static_cast<int64_t>(c.size()); ++at) {
              const int64_t i = at / ldc, j = at % ldc;
              if (i >= m || j >= n) {
                ASSERT_TRUE(same_bits(c[at], poison())) << where << ": wrote outside the corner at " << i << ", " << j;
                continue;
              }
              const double start = accumulate ? c0[i * ldc_full + j] : 0.0;
              double exact = start, magnitude = std::fabs(start);
              for (int64_t s = 0; s < kc; ++s) {
                const double p = static_cast<double>(a[i * lda + s]) * rows[j][s];
                exact += p;
                magnitude += std::fabs(p);
              }
              const double d = static_cast<double>(vectors + levels + 1), bound = d * u / (1.0 - d * u) * magnitude;
              ASSERT_LE(std::fabs(c[at] - exact), bound) << where << " at " << i << ", " << j;
              ASSERT_TRUE(same_bits(c[at], full[i * ldc_full + j]))
                  << where << " at " << i << ", " << j << ": " << c[at] << " differs from the full tile's "
                  << full[i * ldc_full + j];
            }
          }
        }
      }
    }
  }
  EXPECT_EQ(calls, 5 * 2 * 2 * mr * nr);
}

INSTANTIATE_TEST_SUITE_P(EveryListedKernel, KernelsGemmNt, ::testing::ValuesIn(kernels()),
                         [](const ::testing::TestParamInfo<const GemmNtUkernel *> &info) {
                           return std::string(info.param->name);
                         });

}  // namespace
}  // namespace conv_bwd
}  // namespace aclnn_cpu

// The NN GEMM kernels (kernels/gemm_ukernel.hpp), one test per entry of the family's enumerator list
// (ACLNN_CPU_GEMM_UKERNELS, through gemm_ukernels()): a kernel added to the list is tested without editing this file.
// A kernel this build lacks or whose ISA this CPU lacks is skipped, by name and with the reason.
// For every m ≤ MR and n ≤ NR, kc = 0, 1, 2, 7, 64 and 257 (past the algorithms' K block, kGemmKc = 256), B packed
// (ldb = NR, columns ≥ n zero) and read in place (ldb > NR, the columns ≥ n real data: here NaN, which must not
// reach the m × n corner), writing and accumulating, on random non-integer data (fixed seeds):
//   - against a double-precision reference, one output element per loop nest, within the bound of recursive fp32
//     summation: |fl(s) − s| ≤ γ_(kc+1) · (Σ_k |a·b| + |c|), γ_j = j·u / (1 − j·u), u = 2⁻²⁴ (kc multiply-adds,
//     one more addition when accumulating);
//   - exactly, against the same sum in fp32 in the documented order (kc ascending from zero, fused multiply-add
//     on the ISAs that have it, i.e. every ISA above scalar; then added to C once): the order is part of the
//     contract (results must not depend on the tile position or the thread), so it is checked bit for bit;
//   - C outside the m × n corner (poisoned with a NaN payload) untouched, bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <ostream>
#include <string>
#include <vector>

#include "conv_bwd/kernels/gemm_ukernel.hpp"
#include "core/isa.hpp"
#include "kernel_test_support.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

// gtest prints a test's parameter by this (found by argument-dependent lookup): the kernel's name, not its address.
static void PrintTo(const GemmUkernel *k, std::ostream *os) { *os << k->name; }

namespace {

using kernel_test::poison;
using kernel_test::random_floats;
using kernel_test::same_bits;

std::vector<const GemmUkernel *> kernels() { return kernel_test::pointers<GemmUkernel>(gemm_ukernels()); }

class KernelsGemm : public kernel_test::RunnableKernel<GemmUkernel> {};

TEST_P(KernelsGemm, MatchesTheReferenceAtEveryRemainder) {
  const GemmUkernel &k = *GetParam();
  const int mr = k.mr, nr = k.nr;
  const bool fused = k.isa != Isa::kScalar;
  const double u = std::ldexp(1.0, -24);
  int64_t calls = 0;
  for (int64_t kc : {0, 1, 2, 7, 64, 257}) {
    for (bool in_place : {false, true}) {
      const int64_t ldb = in_place ? nr + 5 : nr;
      const std::vector<float> a_all = random_floats(kc * mr, static_cast<uint32_t>(11 + kc));
      const std::vector<float> b_all = random_floats(kc * ldb, static_cast<uint32_t>(23 + kc + ldb));
      for (int m = 1; m <= mr; ++m) {
        for (int n = 1; n <= nr; ++n) {
          // A panel: rows ≥ m zeros (packing leaves them so). B: columns ≥ n zeros when packed, NaN in place.
          std::vector<float> a = a_all, b = b_all;
          for (int64_t s = 0; s < kc; ++s) {
            for (int r = m; r < mr; ++r) a[s * mr + r] = 0.0f;
            for (int64_t j = n; j < ldb; ++j) b[s * ldb + j] = in_place ? poison() : 0.0f;
          }
          const int64_t ldc = n + 3;
          for (bool accumulate : {false, true}) {
            const std::vector<float> c0 = random_floats(mr * ldc, static_cast<uint32_t>(37 + m * 41 + n));
            std::vector<float> c(static_cast<size_t>(mr * ldc + 1), poison());
            for (int i = 0; i < m && accumulate; ++i) {
              for (int j = 0; j < n; ++j) c[i * ldc + j] = c0[i * ldc + j];
            }
            k.run(kc, a.data(), b.data(), ldb, c.data(), ldc, m, n, accumulate);
            ++calls;
            const std::string where = std::string(k.name) + " kc " + std::to_string(kc) + " ldb " +
                                      std::to_string(ldb) + " m " + std::to_string(m) + " n " + std::to_string(n) +
                                      (accumulate ? " accumulate" : " overwrite");
            for (int64_t at = 0; at < static_cast<int64_t>(c.size()); ++at) {
              const int64_t i = at / ldc, j = at % ldc;
              if (i >= m || j >= n) {
                ASSERT_TRUE(same_bits(c[at], poison())) << where << ": wrote outside the corner at " << i << ", " << j;
                continue;
              }
              const float start = accumulate ? c0[at] : 0.0f;
              double exact = 0.0, magnitude = std::fabs(static_cast<double>(start));
              float ordered = 0.0f;
              for (int64_t s = 0; s < kc; ++s) {
                const float x = a[s * mr + i], y = b[s * ldb + j];
                exact += static_cast<double>(x) * y;
                magnitude += std::fabs(static_cast<double>(x) * y);
                ordered = fused ? std::fma(x, y, ordered) : ordered + x * y;
              }
              exact += start;
              if (accumulate) ordered = start + ordered;
              const double steps = static_cast<double>(kc + 1), bound = steps * u / (1.0 - steps * u) * magnitude;
              ASSERT_LE(std::fabs(c[at] - exact), bound) << where << " at " << i << ", " << j;
              ASSERT_TRUE(same_bits(c[at], ordered))
                  << where << " at " << i << ", " << j << ": " << c[at] << " is not the documented order's " << ordered;
            }
          }
        }
      }
    }
  }
  EXPECT_EQ(calls, 6 * 2 * mr * nr * 2);
}

INSTANTIATE_TEST_SUITE_P(EveryListedKernel, KernelsGemm, ::testing::ValuesIn(kernels()),
                         [](const ::testing::TestParamInfo<const GemmUkernel *> &info) {
                           return std::string(info.param->name);
                         });

}  // namespace
}  // namespace conv_bwd
}  // namespace aclnn_cpu

// The RA GEMM kernels (kernels/gemm_ra_ukernel.hpp), every one of ACLNN_CPU_GEMM_RA_UKERNELS this CPU runs: against
// the NN kernel of the same ISA on A packed from the same rows, bit for bit (their contract: the same sums in the same
// order), as they are (run) and transposed (run_ct), on non-integer data, at every m ≤ MR and n ≤ NR, several kc,
// writing and accumulating, K steps on consecutive A columns and on columns with gaps (a plane's rows without their
// junk ends); C outside the m × n (n × m) corner and A rows past m (the caller's repeated row) must not matter.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "conv_bwd/kernels/gemm_ra_ukernel.hpp"
#include "conv_bwd/kernels/gemm_ukernel.hpp"
#include "core/isa.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

std::vector<float> values(int64_t n, uint32_t seed) {
  std::vector<float> v(static_cast<size_t>(n));
  for (auto &x : v) {
    seed = seed * 1664525u + 1013904223u;
    x = static_cast<float>(static_cast<int>((seed >> 9) % 2001) - 1000) / 997.0f;
  }
  return v;
}

TEST(KernelsGemmRa, GiveTheBitsOfTheNnKernelOnPackedRows) {
  int tested = 0;
  // Every kernel of ACLNN_CPU_GEMM_RA_UKERNELS this CPU runs, each the one chosen for m = its NR output channels
  // (AVX-512's 16-wide one serves m = 16; its NN kernel, 32 wide, then runs n ≤ 16).
  for (const GemmRaUkernel &listed : gemm_ra_ukernels()) {
    const Isa isa = listed.isa;
    if (!listed.built() || !isa_includes(cpu_isa(), isa)) continue;
    const GemmRaUkernel *ra = gemm_ra_ukernel(isa, listed.nr);
    ASSERT_EQ(ra, &listed) << listed.name << " is not the kernel chosen for m = " << listed.nr;
    const GemmUkernel &nn = gemm_ukernel(isa);
    ASSERT_EQ(nn.mr, ra->mr);
    ASSERT_LE(ra->nr, nn.nr);
    ++tested;
    const int mr = ra->mr, nr = ra->nr;
    for (auto [kc, gaps] : {std::pair<int64_t, bool>{1, false},
                            {7, false},
                            {33, false},
                            {130, false},
                            {7, true},
                            {33, true},
                            {130, true}}) {
      // K step k reads A column at[k]: k, or with gaps rows of 5 columns 7 apart.
      std::vector<int32_t> at(static_cast<size_t>(kc));
      for (int64_t k = 0; k < kc; ++k) at[k] = static_cast<int32_t>(gaps ? k / 5 * 7 + k % 5 : k);
      // A: MR rows at odd offsets of one buffer (as shifted windows), B: kc steps with a pitch wider than NR.
      const int64_t pitch = at[kc - 1] + 6, ldb = nr + 3, ldc = nr + 2, ldct = mr + 2;
      // B padded by the NN kernel's width: it loads whole NR steps (32 floats on AVX-512 where the RA kernel is 16
      // wide).
      const std::vector<float> x = values(mr * pitch + 3, 7), b = values(kc * ldb + nn.nr, 8);
      for (int m = 1; m <= mr; ++m) {
        for (int n = 1; n <= nr; ++n) {
          const float *rows[kMaxRaMr];
          std::vector<float> packed(static_cast<size_t>(kc * mr), 0.0f);  // rows past m: zeros, as packing leaves them
          for (int r = 0; r < mr; ++r) {
            rows[r] = x.data() + std::min(r, m - 1) * pitch + 3 - r % 3;
            for (int64_t k = 0; k < kc && r < m; ++k) packed[k * mr + r] = rows[r][at[k]];
          }
          for (bool accumulate : {false, true}) {
            std::vector<float> want = values(mr * ldc, 9), got = want, before_t(static_cast<size_t>(nr * ldct));
            for (int i = 0; i < nr; ++i) {  // run_ct's C: the transpose of run's, with a pitch of its own
              for (int r = 0; r < ldct; ++r) before_t[i * ldct + r] = r < mr ? want[r * ldc + i] : 1e3f + r;
            }
            std::vector<float> got_t = before_t;
            ra->run(kc, at.data(), rows, b.data(), ldb, got.data(), ldc, m, n, accumulate);
            ASSERT_TRUE(ra->run_ct(kc, at.data(), rows, b.data(), ldb, got_t.data(), ldct, m, n, accumulate))
                << ra->name;
            nn.run(kc, packed.data(), b.data(), ldb, want.data(), ldc, m, n, accumulate);
            const std::string where = std::string(ra->name) + " kc " + std::to_string(kc) + (gaps ? " gaps" : "") +
                                      " m " + std::to_string(m) + " n " + std::to_string(n) + " acc " +
                                      std::to_string(accumulate);
            for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], want[i]) << where << " at " << i;
            for (int i = 0; i < nr; ++i) {
              for (int r = 0; r < ldct; ++r) {
                const float expected = i < n && r < m ? want[r * ldc + i] : before_t[i * ldct + r];
                ASSERT_EQ(got_t[i * ldct + r], expected) << where << " ct at " << i << ", " << r;
              }
            }
          }
        }
      }
    }
  }
  if (tested == 0) GTEST_SKIP() << "no RA kernel runs on this CPU";
}

// run_ct reports a value it stores that is not finite (Inf, NaN, an overflow), and only those: an Inf in a B column
// past n, or in a C element outside the n × m corner, is none of its business.
TEST(KernelsGemmRa, TransposedStoresReportWhatIsNotFinite) {
  int tested = 0;
  for (const GemmRaUkernel &listed : gemm_ra_ukernels()) {
    if (!listed.built() || !isa_includes(cpu_isa(), listed.isa)) continue;
    const GemmRaUkernel *ra = &listed;
    ++tested;
    const int mr = ra->mr, nr = ra->nr;
    const int64_t kc = 9, ldb = nr, ldct = mr;
    const int32_t at[kc] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    const float inf = std::numeric_limits<float>::infinity();
    for (int m : {1, mr - 1, mr}) {
      for (int n : {1, nr / 2 + 1, nr}) {
        for (int what = 0; what < 6; ++what) {
          std::vector<float> x = values(mr * kc, 11), b = values(kc * ldb, 12);
          std::vector<float> c(static_cast<size_t>(nr * ldct), 0.0f);
          bool expect = true;
          switch (what) {
            case 0:
              break;  // all finite
            case 1:
              x[(m - 1) * kc + 4] = inf;
              expect = false;
              break;  // an A row in use
            case 2:
              b[5 * ldb + (n - 1)] = std::nanf("");
              expect = false;
              break;  // a B column in use
            case 3:
              x[(m - 1) * kc + 2] = 3e38f;
              b[2 * ldb] = 3e38f;
              expect = false;
              break;  // an overflow
            case 4:
              if (n < nr) b[3 * ldb + n] = inf;
              break;  // a B column past n
            case 5:
              c[(nr - 1) * ldct + (mr - 1)] = inf;
              break;  // C outside the corner, accumulated
          }
          if (what == 5 && (m == mr || n == nr)) continue;  // that element is inside the corner then
          const float *rows[kMaxRaMr];
          for (int r = 0; r < mr; ++r) rows[r] = x.data() + std::min(r, m - 1) * kc;
          EXPECT_EQ(ra->run_ct(kc, at, rows, b.data(), ldb, c.data(), ldct, m, n, what == 5), expect)
              << ra->name << " m " << m << " n " << n << " case " << what;
        }
      }
    }
  }
  if (tested == 0) GTEST_SKIP() << "no RA kernel runs on this CPU";
}

// transpose: every row and column count up to 19 (the 8 × 8 blocks and both remainders), pitches wider than the
// block; nothing outside the rows × cols it owns is written.
TEST(KernelsGemmRa, TransposeMovesEveryElementItOwnsOnly) {
  int tested = 0;
  for (Isa isa : {Isa::kScalar, Isa::kAvx2, Isa::kAvx512, Isa::kNeon}) {
    const GemmRaUkernel *ra = gemm_ra_ukernel(isa, 32);
    if (!isa_includes(cpu_isa(), isa) || ra == nullptr || ra->isa != isa) continue;
    ++tested;
    for (int64_t rows = 0; rows <= 19; ++rows) {
      for (int64_t cols = 0; cols <= 19; ++cols) {
        const int64_t lds = cols + 3, ldd = rows + 5;
        const std::vector<float> src = values(rows * lds + 1, 10);
        std::vector<float> dst(static_cast<size_t>(cols * ldd + 1), std::numeric_limits<float>::quiet_NaN());
        ra->transpose(src.data(), lds, rows, cols, dst.data(), ldd);
        for (int64_t j = 0; j < cols; ++j) {
          for (int64_t i = 0; i < ldd; ++i) {
            if (i < rows) {
              ASSERT_EQ(dst[j * ldd + i], src[i * lds + j]) << ra->name << " " << rows << "x" << cols;
            } else {
              ASSERT_TRUE(std::isnan(dst[j * ldd + i])) << ra->name << " " << rows << "x" << cols << " wrote past";
            }
          }
        }
        ASSERT_TRUE(std::isnan(dst[cols * ldd])) << ra->name << " " << rows << "x" << cols << " wrote past";
      }
    }
  }
  if (tested == 0) GTEST_SKIP() << "no RA kernel runs on this CPU";
}

}  // namespace
}  // namespace conv_bwd
}  // namespace aclnn_cpu

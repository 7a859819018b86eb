// The BF16 pair RA kernels (kernels/gemm_ra_bf16_ukernel.hpp), one test per entry of the family's enumerator list
// (ACLNN_CPU_GEMM_RA_BF16_UKERNELS, through gemm_ra_bf16_ukernels()); a kernel this build lacks or whose ISA this CPU
// lacks is skipped, by name and with the reason.
//   - to_window against a scalar reversal (dst_end[−f] = BF16 of src[f]) and its floor against a scalar scan, at
//     lengths around the 16-value blocks, on normal, tiny, subnormal, Inf and NaN values; nothing outside written;
//     window_from_bf16 (at strides 1, 2, 3 and −1) and words_floor likewise, around the 32-word chunks; and
//     panel_from_bf16 against ra_b_pairs' panels of the same values;
//   - ra_pair_steps and ra_b_pairs on hand-made tables: runs split at every gap, a run's odd last step paired with a
//     zero B step, panels converted run by run;
//   - run and run_ct bit for bit against a scalar model of VDPBF16PS (kernel_test_support.hpp) whose A words are
//     built from the rows as the header documents them (column k high, column k + 1 low), for every m ≤ MR and
//     n ≤ NR, consecutive steps and steps with gaps (runs of 5: odd last steps whose neighbour column is a real,
//     nonzero value), writing and accumulating, on values with subnormals and underflowing products; run_ct's finite
//     flag against the model's values, an overflow among them;
//   - on normal values (pairs_exact holds), bit for bit against the fp32 RA kernel of the same tile on the fp32 rows
//     and panels: the claim gemm_weight_shifted relies on;
//   - C outside the m × n (n × m) corner (poisoned with a NaN payload) untouched.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <ostream>
#include <string>
#include <vector>

#include "conv_bwd/kernels/gemm_ra_bf16_ukernel.hpp"
#include "conv_bwd/kernels/gemm_ra_ukernel.hpp"
#include "core/isa.hpp"
#include "kernel_test_support.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

static void PrintTo(const GemmRaBf16Ukernel *k, std::ostream *os) { *os << k->name; }

namespace {

using kernel_test::dot_step;
using kernel_test::expected_floor;
using kernel_test::float_bits;
using kernel_test::poison;
using kernel_test::random_bf16;
using kernel_test::same_bits;

std::vector<const GemmRaBf16Ukernel *> kernels() {
  return kernel_test::pointers<GemmRaBf16Ukernel>(gemm_ra_bf16_ukernels());
}

uint32_t bf16_of(float f) { return float_bits(f) >> 16; }

// kc K steps: consecutive, or runs of 5 columns 7 apart (a plane's rows without their junk ends).
std::vector<int32_t> k_steps(int64_t kc, bool gaps) {
  std::vector<int32_t> at(static_cast<size_t>(kc));
  for (int64_t k = 0; k < kc; ++k) at[k] = static_cast<int32_t>(gaps ? k / 5 * 7 + k % 5 : k);
  return at;
}

// MR rows of `len` values each (and the zero after them the header asks for), their reversed BF16 windows in one
// buffer and the row pointers the kernels take (row r ≥ m repeats row m − 1, as callers do).
struct Rows {
  int64_t len = 0;
  std::vector<float> x;       // MR × (len + 1)
  std::vector<uint16_t> rev;  // MR × (len + 1) reversed
  int floor = -1;

  float at(int r, int64_t k) const { return x[static_cast<size_t>(r * (len + 1) + k)]; }
  const float *fp32_row(int r) const { return x.data() + r * (len + 1); }
  const uint16_t *pair_row(int r) const { return rev.data() + r * (len + 1) + len - 1; }
};

Rows make_rows(const GemmRaBf16Ukernel &k, int64_t len, uint32_t seed, bool tiny) {
  Rows rows;
  rows.len = len;
  rows.x = random_bf16(k.mr * (len + 1), seed, tiny);
  rows.rev.assign(rows.x.size(), 0xBEEF);
  rows.floor = 254;
  for (int r = 0; r < k.mr; ++r) {
    rows.x[static_cast<size_t>(r * (len + 1) + len)] = 0.0f;
    rows.floor = std::min(rows.floor, k.to_window(rows.fp32_row(r), len + 1, rows.rev.data() + r * (len + 1) + len));
  }
  return rows;
}

// B: kc fp32 steps of NR lines and their pair panel (one panel, NR words per pair step).
struct Panel {
  std::vector<float> fp32;
  std::vector<uint32_t> pairs;
  std::vector<int32_t> pair_at, run_steps;
  int64_t kp = 0, runs = 0;
  int floor = -1;
};

Panel make_panel(const GemmRaBf16Ukernel &k, const std::vector<int32_t> &at, uint32_t seed, bool tiny) {
  const int64_t kc = static_cast<int64_t>(at.size());
  Panel p;
  p.fp32 = random_bf16(kc * k.nr, seed, tiny);
  p.pair_at.assign(at.size() + 1, -1);
  p.run_steps.assign(at.size() + 1, -1);
  p.kp = ra_pair_steps(at.data(), kc, p.pair_at.data(), p.run_steps.data(), &p.runs);
  p.pairs.assign(static_cast<size_t>(std::max<int64_t>(p.kp, 1) * k.nr), 0xDEADBEEFu);
  p.floor = ra_b_pairs(k, p.fp32.data(), kc, 1, p.run_steps.data(), p.runs, p.pairs.data());
  return p;
}

class KernelsGemmRaBf16 : public kernel_test::RunnableKernel<GemmRaBf16Ukernel> {};

TEST_P(KernelsGemmRaBf16, WindowsAreReversedBf16AndFloorsTheDocumentedOnes) {
  const GemmRaBf16Ukernel &k = *GetParam();
  for (int64_t n : {0, 1, 15, 16, 17, 100}) {
    for (int what = 0; what < 5; ++what) {  // normal, tiny, Inf, NaN, subnormal
      std::vector<float> src = random_bf16(n, static_cast<uint32_t>(41 + n + what), what == 1);
      if (what >= 2 && n > 0) src[static_cast<size_t>(n / 2)] = what == 2 ? INFINITY : what == 3 ? NAN : 1e-39f;
      std::vector<uint16_t> dst(static_cast<size_t>(n + 2), 0xBEEF);
      const int floor = k.to_window(src.data(), n, dst.data() + n);  // dst_end: value f at dst[n − f], f < n
      EXPECT_EQ(floor, n == 0 ? 254 : expected_floor(src)) << "n " << n << " case " << what;
      EXPECT_EQ(dst[0], 0xBEEF) << "n " << n << ": wrote before the window";
      EXPECT_EQ(dst[static_cast<size_t>(n + 1)], 0xBEEF) << "n " << n << ": wrote past the window";
      for (int64_t f = 0; f < n; ++f) {
        ASSERT_EQ(dst[static_cast<size_t>(n - f)], bf16_of(src[static_cast<size_t>(f)]))
            << "n " << n << " case " << what << " value " << f;
      }
    }
  }
}

// window_from_bf16 against a scalar reversed gather, at strides 1, 2 (vector paths), 3 and −1, around and past the
// 32-word chunks; words_floor against the scalar floor of the same values (subnormal, Inf, NaN among them). Words
// around the window and the source words between those it takes carry a marker that must not be copied.
TEST_P(KernelsGemmRaBf16, WindowsFromBf16AreTheReversedWordsAndTheirFloor) {
  const GemmRaBf16Ukernel &k = *GetParam();
  for (int64_t stride : {1, 2, 3, -1}) {
    for (int64_t n : {0, 1, 2, 15, 31, 32, 33, 63, 64, 65, 100}) {
      for (int what = 0; what < 5; ++what) {  // normal, tiny, Inf, NaN, subnormal
        std::vector<float> values = random_bf16(n, static_cast<uint32_t>(7 + n + what + 100 * stride), what == 1);
        if (what >= 2 && n > 0) values[static_cast<size_t>(n - 1)] = what == 2 ? INFINITY : what == 3 ? NAN : 1e-39f;
        const int64_t span = std::max<int64_t>(1, n) * std::abs(stride) + 64;
        std::vector<uint16_t> src(static_cast<size_t>(span), 0x7FC1);  // a NaN word: in the floor if ever read
        const int64_t first = stride < 0 ? span - 33 : 32;
        for (int64_t f = 0; f < n; ++f) {
          src[static_cast<size_t>(first + f * stride)] = static_cast<uint16_t>(bf16_of(values[static_cast<size_t>(f)]));
        }
        std::vector<uint16_t> dst(static_cast<size_t>(n + 64), 0xBEEF);
        uint16_t *end = dst.data() + 32 + n - 1;  // value f at end[−f]: dst[32 .. 32 + n)
        k.window_from_bf16(src.data() + first, stride, n, end);
        const std::string where =
            "stride " + std::to_string(stride) + " n " + std::to_string(n) + " case " + std::to_string(what);
        for (int64_t i = 0; i < n + 64; ++i) {
          const bool inside = i >= 32 && i < 32 + n;
          const uint16_t want =
              inside ? static_cast<uint16_t>(bf16_of(values[static_cast<size_t>(32 + n - 1 - i)])) : 0xBEEF;
          ASSERT_EQ(dst[static_cast<size_t>(i)], want) << where << " at word " << i;
        }
        EXPECT_EQ(k.words_floor(dst.data() + 32, n), n == 0 ? 254 : expected_floor(values)) << where;
      }
    }
  }
}

// panel_from_bf16 against ra_b_pairs' panels of the same values (the pairs the fp32 path makes) for NR lines a row
// stride apart (the run's length, a few words more, 1000), runs of odd and even length (the odd last step over a
// zero; a run of one step), written after 3 pair steps of an earlier run; nothing before or after it written.
TEST_P(KernelsGemmRaBf16, PanelsFromBf16AreTheFp32PanelsPairs) {
  const GemmRaBf16Ukernel &k = *GetParam();
  const int nr = k.nr;
  for (int64_t len : {1, 2, 3, 16, 31, 32, 33, 100}) {
    for (int64_t ld : {len, len + 5, int64_t{1000}}) {
      std::vector<float> values = random_bf16(nr * ld, static_cast<uint32_t>(3 + len + ld), len == 33);
      std::vector<uint16_t> words(values.size());
      for (size_t i = 0; i < values.size(); ++i) words[i] = static_cast<uint16_t>(bf16_of(values[i]));
      std::vector<float> panel(static_cast<size_t>(len * nr));  // the fp32 RA panel: step k's NR lines
      for (int64_t s = 0; s < len; ++s) {
        for (int i = 0; i < nr; ++i) panel[static_cast<size_t>(s * nr + i)] = values[static_cast<size_t>(i * ld + s)];
      }
      const int64_t kp = (len + 1) / 2, before = 3 * nr;
      std::vector<uint32_t> want(static_cast<size_t>(before + kp * nr + 1), 0xDEADBEEFu), got = want;
      const int32_t run = static_cast<int32_t>(len);
      ra_b_pairs(k, panel.data(), len, 1, &run, 1, want.data() + before);
      k.panel_from_bf16(words.data(), ld, nr, len, got.data() + before);
      for (size_t i = 0; i < got.size(); ++i) {
        ASSERT_EQ(got[i], want[i]) << "len " << len << " ld " << ld << " word " << i;
      }
      EXPECT_EQ(got.front(), 0xDEADBEEFu) << "wrote before the run's pair steps";
      EXPECT_EQ(got.back(), 0xDEADBEEFu) << "wrote past the panel";
    }
  }
}

TEST_P(KernelsGemmRaBf16, PairStepsFollowTheRunsOfTheKSteps) {
  const GemmRaBf16Ukernel &k = *GetParam();
  const int32_t at[] = {0, 1, 2, 5, 6, 9};
  int32_t pair_at[6], run_steps[6];
  int64_t runs = -1;
  ASSERT_EQ(ra_pair_steps(at, 6, pair_at, run_steps, &runs), 4);
  ASSERT_EQ(runs, 3);
  EXPECT_EQ(std::vector<int32_t>(pair_at, pair_at + 4), (std::vector<int32_t>{0, 2, 5, 9}));
  EXPECT_EQ(std::vector<int32_t>(run_steps, run_steps + 3), (std::vector<int32_t>{3, 2, 1}));
  EXPECT_EQ(ra_pair_steps(at, 0, pair_at, run_steps, &runs), 0);
  EXPECT_EQ(runs, 0);

  // Two panels, 6 steps used of a stride of 8: pair words per run, the odd last steps over a zero.
  const int nr = k.nr;
  const int32_t steps[] = {3, 2, 1};
  std::vector<float> b(static_cast<size_t>(2 * 8 * nr));
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(i % 251) + 1.0f;
  b[static_cast<size_t>(6 * nr)] = 1e-39f;  // a step past those used: not part of the floor
  std::vector<uint32_t> out(static_cast<size_t>(2 * 4 * nr + 1), 0xDEADBEEFu);
  EXPECT_EQ(ra_b_pairs(k, b.data(), 8, 2, steps, 3, out.data()), 127);
  const int hi[4] = {0, 2, 3, 5}, lo[4] = {1, -1, 4, -1};  // steps in each pair word, -1 a zero
  for (int p = 0; p < 2; ++p) {
    for (int i = 0; i < 4; ++i) {
      for (int line = 0; line < nr; ++line) {
        const float *panel = b.data() + p * 8 * nr;
        const uint32_t want =
            bf16_of(panel[hi[i] * nr + line]) << 16 | (lo[i] < 0 ? 0 : bf16_of(panel[lo[i] * nr + line]));
        ASSERT_EQ(out[static_cast<size_t>((p * 4 + i) * nr + line)], want) << "panel " << p << " pair " << i;
      }
    }
  }
  EXPECT_EQ(out.back(), 0xDEADBEEFu) << "wrote past the pair panels";
}

TEST_P(KernelsGemmRaBf16, MatchesTheInstructionsDocumentedArithmetic) {
  const GemmRaBf16Ukernel &k = *GetParam();
  const int mr = k.mr, nr = k.nr;
  for (int64_t kc : {0, 1, 2, 7, 64, 257}) {
    for (bool gaps : {false, true}) {
      for (bool huge : {false, true}) {
        if ((kc < 2 && gaps) || (huge && kc != 7)) continue;
        const std::vector<int32_t> at = k_steps(kc, gaps);
        Rows rows = make_rows(k, (kc == 0 ? 0 : at.back()) + 3, static_cast<uint32_t>(13 + kc + gaps), true);
        Panel b = make_panel(k, at, static_cast<uint32_t>(31 + kc + gaps), true);
        if (huge) {  // a product that overflows in one row: run_ct must report it
          const int64_t step = 4;
          rows.x[static_cast<size_t>((mr - 1) * (rows.len + 1) + at[step])] = 0x1p100f;
          rows.rev.assign(rows.rev.size(), 0);
          for (int r = 0; r < mr; ++r)
            k.to_window(rows.fp32_row(r), rows.len + 1, rows.rev.data() + r * (rows.len + 1) + rows.len);
          b.fp32[static_cast<size_t>(step * nr + nr - 1)] = 0x1p100f;
          b.floor = ra_b_pairs(k, b.fp32.data(), kc, 1, b.run_steps.data(), b.runs, b.pairs.data());
        }
        for (int m = 1; m <= mr; ++m) {
          const uint16_t *a[kMaxRaMr];
          for (int r = 0; r < mr; ++r) a[r] = rows.pair_row(std::min(r, m - 1));
          for (int n = 1; n <= nr; ++n) {
            for (bool accumulate : {false, true}) {
              // The model: per element, the pair steps' A words from the rows (column at high, at + 1 low).
              const int64_t ldc = nr + 3, ldct = mr + 2;
              std::vector<float> c(static_cast<size_t>((mr + 1) * ldc), poison());
              std::vector<float> ct(static_cast<size_t>((nr + 1) * ldct), poison());
              std::vector<float> want(static_cast<size_t>(mr * nr));
              bool finite = true;
              for (int r = 0; r < m; ++r) {
                for (int j = 0; j < n; ++j) {
                  const float start = 0.25f * static_cast<float>(r - j);
                  c[static_cast<size_t>(r * ldc + j)] = start;
                  ct[static_cast<size_t>(j * ldct + r)] = start;
                  float acc = 0.0f;
                  for (int64_t i = 0; i < b.kp; ++i) {
                    const int64_t col = b.pair_at[static_cast<size_t>(i)];
                    const uint32_t word = bf16_of(rows.at(r, col)) << 16 | bf16_of(rows.at(r, col + 1));
                    acc = dot_step(acc, word, b.pairs[static_cast<size_t>(i * nr + j)]);
                  }
                  want[static_cast<size_t>(r * nr + j)] = accumulate ? start + acc : acc;
                  finite = finite && std::isfinite(want[static_cast<size_t>(r * nr + j)]);
                }
              }
              const std::vector<float> c_before = c, ct_before = ct;
              k.run(b.kp, b.pair_at.data(), a, b.pairs.data(), nr, c.data(), ldc, m, n, accumulate);
              const bool stored_finite =
                  k.run_ct(b.kp, b.pair_at.data(), a, b.pairs.data(), nr, ct.data(), ldct, m, n, accumulate);
              const std::string where = "kc " + std::to_string(kc) + (gaps ? " gaps" : "") + (huge ? " huge" : "") +
                                        " m " + std::to_string(m) + " n " + std::to_string(n) + " acc " +
                                        std::to_string(accumulate);
              ASSERT_EQ(stored_finite, finite) << where;
              if (huge && m == mr && n == nr) {
                ASSERT_FALSE(finite) << where << ": the overflow did not happen";
              }
              for (int r = 0; r <= mr; ++r) {
                for (int64_t j = 0; j < ldc; ++j) {
                  const size_t i = static_cast<size_t>(r * ldc + j);
                  const float expected = r < m && j < n ? want[static_cast<size_t>(r * nr + j)] : c_before[i];
                  ASSERT_TRUE(same_bits(c[i], expected))
                      << where << " at " << r << "," << j << ": " << c[i] << " vs " << expected;
                }
              }
              for (int j = 0; j <= nr; ++j) {
                for (int64_t r = 0; r < ldct; ++r) {
                  const size_t i = static_cast<size_t>(j * ldct + r);
                  const float expected = r < m && j < n ? want[static_cast<size_t>(r * nr + j)] : ct_before[i];
                  ASSERT_TRUE(same_bits(ct[i], expected))
                      << where << " ct at " << j << "," << r << ": " << ct[i] << " vs " << expected;
                }
              }
            }
          }
        }
      }
    }
  }
}

TEST_P(KernelsGemmRaBf16, GivesTheFp32RaKernelsBitsOnNormalValues) {
  const GemmRaBf16Ukernel &k = *GetParam();
  const GemmRaUkernel *ra = gemm_ra_ukernel(Isa::kAvx512, k.nr);
  ASSERT_NE(ra, nullptr);
  ASSERT_EQ(ra->mr, k.mr);
  ASSERT_EQ(ra->nr, k.nr);
  ASSERT_EQ(gemm_ra_bf16_ukernel(k.isa, *ra), &k) << "not the pair kernel chosen for " << ra->name;
  for (int64_t kc : {1, 2, 7, 64, 257}) {
    for (bool gaps : {false, true}) {
      const std::vector<int32_t> at = k_steps(kc, gaps);
      const Rows rows = make_rows(k, at.back() + 3, static_cast<uint32_t>(7 + kc + gaps), false);
      const Panel b = make_panel(k, at, static_cast<uint32_t>(19 + kc + gaps), false);
      ASSERT_TRUE(pairs_exact(rows.floor, b.floor)) << rows.floor << " " << b.floor;
      for (int m : {1, 5, k.mr}) {
        const uint16_t *a[kMaxRaMr];
        const float *x[kMaxRaMr];
        for (int r = 0; r < k.mr; ++r) {
          a[r] = rows.pair_row(std::min(r, m - 1));
          x[r] = rows.fp32_row(std::min(r, m - 1));
        }
        for (int n : {1, 11, k.nr}) {
          for (bool accumulate : {false, true}) {
            std::vector<float> pairs_c(static_cast<size_t>(k.mr * k.nr));
            for (size_t i = 0; i < pairs_c.size(); ++i) pairs_c[i] = 0.125f * static_cast<float>(i % 13) - 0.75f;
            std::vector<float> fp32_c = pairs_c, pairs_ct = pairs_c, fp32_ct = pairs_c;
            k.run(b.kp, b.pair_at.data(), a, b.pairs.data(), k.nr, pairs_c.data(), k.nr, m, n, accumulate);
            ra->run(kc, at.data(), x, b.fp32.data(), k.nr, fp32_c.data(), k.nr, m, n, accumulate);
            EXPECT_TRUE(
                k.run_ct(b.kp, b.pair_at.data(), a, b.pairs.data(), k.nr, pairs_ct.data(), k.mr, m, n, accumulate));
            EXPECT_TRUE(ra->run_ct(kc, at.data(), x, b.fp32.data(), k.nr, fp32_ct.data(), k.mr, m, n, accumulate));
            for (size_t i = 0; i < pairs_c.size(); ++i) {
              ASSERT_TRUE(same_bits(pairs_c[i], fp32_c[i]))
                  << "kc " << kc << (gaps ? " gaps" : "") << " m " << m << " n " << n << " element " << i << ": "
                  << pairs_c[i] << " vs " << fp32_c[i];
              ASSERT_TRUE(same_bits(pairs_ct[i], fp32_ct[i]))
                  << "kc " << kc << (gaps ? " gaps" : "") << " m " << m << " n " << n << " ct element " << i;
            }
          }
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryKernel, KernelsGemmRaBf16, ::testing::ValuesIn(kernels()),
                         [](const ::testing::TestParamInfo<const GemmRaBf16Ukernel *> &info) {
                           return std::string(info.param->name);
                         });

}  // namespace
}  // namespace conv_bwd
}  // namespace aclnn_cpu

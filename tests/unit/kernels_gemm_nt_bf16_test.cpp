// The BF16 pair NT kernels (kernels/gemm_nt_bf16_ukernel.hpp), one test per entry of the family's enumerator list
// (ACLNN_CPU_GEMM_NT_BF16_UKERNELS, through gemm_nt_bf16_ukernels()); a kernel this build lacks or whose ISA this CPU
// lacks is skipped, by name and with the reason. For every m ≤ MR and n ≤ NR and kc = 0, 16 (half a pair chunk), 32,
// 48 and 1040 (past the algorithms' K block), writing and accumulating:
//   - to_rows against a scalar pairing (value 32t + l in the high half of word 16t + l, value 32t + 16 + l or zero in
//     its low half) and its exponent floor against a scalar scan, on normal, tiny, subnormal, Inf and NaN values,
//     rows at a pitch wider than kc;
//   - rows_from_bf16 (BF16 rows, any kc, the first n values read) against to_rows on the same values widened to fp32
//     with zeros from n on: the same words and floor, nothing read past n (poison there), on normal, tiny and
//     subnormal values and with an Inf or NaN in either half of a chunk;
//   - the kernel bit for bit against a scalar model: per lane, VDPBF16PS as Intel's manual documents it
//     (kernel_test::dot_step), then the fp32 kernel's documented fold of the 16 lanes (((l0 + l2) + (l1 + l3)) per
//     four, then (B0 + B1) + (B2 + B3)), on random BF16 values with subnormals and underflowing products among them;
//   - on random normal BF16 values (pairs_exact holds), bit for bit against the fp32 NT kernel of the same tile on
//     the fp32 rows: the claim the algorithm relies on;
//   - C outside the m × n corner (poisoned with a NaN payload) untouched, bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "conv_bwd/kernels/gemm_nt_bf16_ukernel.hpp"
#include "conv_bwd/kernels/gemm_nt_ukernel.hpp"
#include "core/isa.hpp"
#include "kernel_test_support.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

static void PrintTo(const GemmNtBf16Ukernel *k, std::ostream *os) { *os << k->name; }

namespace {

using kernel_test::dot_step;
using kernel_test::expected_floor;
using kernel_test::float_bits;
using kernel_test::poison;
using kernel_test::random_bf16;
using kernel_test::same_bits;

std::vector<const GemmNtBf16Ukernel *> kernels() {
  return kernel_test::pointers<GemmNtBf16Ukernel>(gemm_nt_bf16_ukernels());
}

const int64_t kKcs[] = {0, 16, 32, 48, 1040};

// `rows` fp32 rows of kc BF16 values at pitch ld (the rest of each row poison: to_rows must not read it), and their
// pair rows.
struct Rows {
  int64_t kc, ld;
  std::vector<float> fp32;
  std::vector<uint32_t> pairs;
  int floor = -1;

  const float *row(int64_t r) const { return fp32.data() + r * ld; }
  const uint32_t *pair_row(int64_t r) const { return pairs.data() + r * nt_pair_words(kc); }
};

Rows make_rows(const GemmNtBf16Ukernel &k, int rows, int64_t kc, uint32_t seed, bool tiny) {
  Rows p{kc, kc + 16, {}, {}, -1};
  const std::vector<float> values = random_bf16(rows * kc, seed, tiny);
  p.fp32.assign(static_cast<size_t>(rows * p.ld), poison());
  for (int r = 0; r < rows; ++r) std::copy_n(values.begin() + r * kc, kc, p.fp32.begin() + r * p.ld);
  p.pairs.assign(static_cast<size_t>(rows * nt_pair_words(kc)), 0xDEADBEEFu);
  p.floor = k.to_rows(p.fp32.data(), p.ld, rows, kc, p.pairs.data());
  return p;
}

// The documented pairing of word w of a row.
uint32_t expected_word(const float *row, int64_t kc, int64_t w) {
  const int64_t t = w / 16, l = w % 16, hi = 32 * t + l, lo = hi + 16;
  return (float_bits(row[hi]) & 0xFFFF0000u) | (lo < kc ? float_bits(row[lo]) >> 16 : 0u);
}

// One element as the kernel documents it: 16 lanes of VDPBF16PS steps, folded by the fp32 kernel's tree.
float expected_element(const uint32_t *a, const uint32_t *b, int64_t kw) {
  float lane[16];
  for (int l = 0; l < 16; ++l) {
    float acc = 0.0f;
    for (int64_t w = l; w < kw; w += 16) acc = dot_step(acc, a[w], b[w]);
    lane[l] = acc;
  }
  float block[4];
  for (int q = 0; q < 4; ++q) {
    block[q] = (lane[4 * q] + lane[4 * q + 2]) + (lane[4 * q + 1] + lane[4 * q + 3]);
  }
  return (block[0] + block[1]) + (block[2] + block[3]);
}

class KernelsGemmNtBf16 : public kernel_test::RunnableKernel<GemmNtBf16Ukernel> {};

TEST_P(KernelsGemmNtBf16, RowsAndFloorsAreTheDocumentedOnes) {
  const GemmNtBf16Ukernel &k = *GetParam();
  for (int64_t kc : kKcs) {
    for (bool tiny : {false, true}) {
      const Rows p = make_rows(k, 3, kc, static_cast<uint32_t>(7 + kc), tiny);
      std::vector<float> values;
      for (int r = 0; r < 3; ++r) values.insert(values.end(), p.row(r), p.row(r) + kc);
      EXPECT_EQ(p.floor, kc == 0 ? 254 : expected_floor(values)) << "kc " << kc << " tiny " << tiny;
      for (int r = 0; r < 3; ++r) {
        for (int64_t w = 0; w < nt_pair_words(kc); ++w) {
          ASSERT_EQ(p.pair_row(r)[w], expected_word(p.row(r), kc, w)) << "kc " << kc << " row " << r << " word " << w;
        }
      }
    }
  }
  // Inf, NaN and a subnormal each give floor 0, in the second half of a chunk too; zeros alone 254.
  for (float special : {INFINITY, NAN, 1e-39f}) {
    std::vector<float> v(48, 0.5f);
    v[40] = special;
    std::vector<uint32_t> out(static_cast<size_t>(nt_pair_words(48)));
    EXPECT_EQ(k.to_rows(v.data(), 48, 1, 48, out.data()), 0) << special;
  }
  std::vector<float> zeros(32, 0.0f);
  std::vector<uint32_t> out(16);
  EXPECT_EQ(k.to_rows(zeros.data(), 32, 1, 32, out.data()), 254);
}

TEST_P(KernelsGemmNtBf16, RowsFromBf16AreTheRowsOfTheWidenedValues) {
  const GemmNtBf16Ukernel &k = *GetParam();
  const int rows = 3;
  for (int64_t kc : {0, 1, 15, 16, 17, 31, 32, 33, 48, 63, 1040}) {
    for (int64_t n : {kc, kc - 7, int64_t{0}}) {
      if (n < 0) continue;
      for (int variant = 0; variant < 4; ++variant) {  // normal, tiny and subnormal, Inf, NaN
        const int64_t ld = kc + 19, kcp = (kc + 15) / 16 * 16, kw = nt_pair_words(kc);
        const std::vector<float> values = random_bf16(rows * kc, static_cast<uint32_t>(3 + kc + n), variant == 1);
        std::vector<uint16_t> src(static_cast<size_t>(rows * ld), 0x7FC1);  // a NaN past each row's n values
        std::vector<float> widened(static_cast<size_t>(rows * kcp), 0.0f);
        for (int r = 0; r < rows; ++r) {
          for (int64_t i = 0; i < n; ++i) {
            float v = values[static_cast<size_t>(r * kc + i)];
            if (variant >= 2 && r == 1 && i == n / 2) v = variant == 2 ? INFINITY : NAN;
            src[static_cast<size_t>(r * ld + i)] = static_cast<uint16_t>(float_bits(v) >> 16);
            widened[static_cast<size_t>(r * kcp + i)] = v;
          }
        }
        std::vector<uint32_t> want(static_cast<size_t>(rows * kw), 0xDEADBEEFu), got = want;
        const int want_floor = k.to_rows(widened.data(), kcp, rows, kcp, want.data());
        const int got_floor = k.rows_from_bf16(src.data(), ld, rows, n, kc, got.data());
        const std::string where =
            "kc " + std::to_string(kc) + " n " + std::to_string(n) + " variant " + std::to_string(variant);
        EXPECT_EQ(got_floor, want_floor) << where;
        EXPECT_EQ(got, want) << where;
      }
    }
  }
}

// m × n runs of the kernel on A rows (rows ≥ m zeros, as packing fills them) and B rows (rows ≥ n repeating row
// n − 1, as the callers do), each element checked by `want(i, j, before)`; C outside the corner must keep its poison.
template <typename Want>
void check_every_corner(const GemmNtBf16Ukernel &k, const Rows &a, const Rows &b, Want want, const std::string &what) {
  const int64_t kw = nt_pair_words(a.kc);
  for (bool accumulate : {false, true}) {
    for (int m = 1; m <= k.mr; ++m) {
      std::vector<uint32_t> a_pairs(a.pairs.begin(), a.pairs.begin() + k.mr * kw);
      std::fill(a_pairs.begin() + m * kw, a_pairs.end(), 0u);
      for (int n = 1; n <= k.nr; ++n) {
        const uint32_t *rows[kMaxNtNr];
        for (int j = 0; j < k.nr; ++j) rows[j] = b.pair_row(std::min(j, n - 1));
        const int64_t ldc = n + 3;
        std::vector<float> c(static_cast<size_t>((k.mr + 1) * ldc), poison());
        for (int i = 0; i < m; ++i) {
          for (int j = 0; j < n; ++j) c[static_cast<size_t>(i * ldc + j)] = 0.25f * static_cast<float>(i - j) + 0.125f;
        }
        const std::vector<float> before = c;
        k.run(kw, a_pairs.data(), kw, rows, c.data(), ldc, m, n, accumulate);
        for (int64_t at = 0; at < static_cast<int64_t>(c.size()); ++at) {
          const int64_t i = at / ldc, j = at % ldc;
          const std::string where = what + " kc " + std::to_string(a.kc) + " m " + std::to_string(m) + " n " +
                                    std::to_string(n) + (accumulate ? " accumulate" : " overwrite") + " at " +
                                    std::to_string(i) + "," + std::to_string(j);
          if (i >= m || j >= n) {
            ASSERT_TRUE(same_bits(c[at], before[at])) << where << ": wrote outside the corner";
            continue;
          }
          const float sum = want(static_cast<int>(i), static_cast<int>(j));
          const float expected = accumulate ? before[at] + sum : sum;
          ASSERT_TRUE(same_bits(c[at], expected)) << where << ": " << c[at] << " vs " << expected;
        }
      }
    }
  }
}

TEST_P(KernelsGemmNtBf16, MatchesTheInstructionsDocumentedArithmetic) {
  const GemmNtBf16Ukernel &k = *GetParam();
  for (int64_t kc : kKcs) {
    const Rows a = make_rows(k, k.mr, kc, static_cast<uint32_t>(11 + kc), true);
    const Rows b = make_rows(k, k.nr, kc, static_cast<uint32_t>(29 + kc), true);
    const int64_t kw = nt_pair_words(kc);
    check_every_corner(
        k, a, b, [&](int i, int j) { return expected_element(a.pair_row(i), b.pair_row(j), kw); }, "model");
  }
}

TEST_P(KernelsGemmNtBf16, GivesTheFp32KernelsBitsOnNormalValues) {
  const GemmNtBf16Ukernel &k = *GetParam();
  const GemmNtUkernel &nt = gemm_nt_ukernel(Isa::kAvx512);
  ASSERT_EQ(nt.mr, k.mr);
  ASSERT_EQ(nt.nr, k.nr);
  ASSERT_EQ(nt.lanes, k.lanes);
  for (int64_t kc : kKcs) {
    const Rows a = make_rows(k, k.mr, kc, static_cast<uint32_t>(5 + kc), false);
    const Rows b = make_rows(k, k.nr, kc, static_cast<uint32_t>(17 + kc), false);
    ASSERT_TRUE(pairs_exact(a.floor, b.floor)) << a.floor << " " << b.floor;
    // The fp32 kernel's whole tile; an element's bits depend only on its rows (gemm_nt_ukernel.hpp).
    std::vector<float> fp32_c(static_cast<size_t>(k.mr * k.nr));
    const float *b_rows[kMaxNtNr];
    for (int j = 0; j < k.nr; ++j) b_rows[j] = b.row(j);
    nt.run(kc, a.fp32.data(), a.ld, b_rows, fp32_c.data(), k.nr, k.mr, k.nr, false);
    check_every_corner(
        k, a, b, [&](int i, int j) { return fp32_c[i * k.nr + j]; }, "fp32 kernel");
  }
}

INSTANTIATE_TEST_SUITE_P(EveryKernel, KernelsGemmNtBf16, ::testing::ValuesIn(kernels()),
                         [](const ::testing::TestParamInfo<const GemmNtBf16Ukernel *> &info) {
                           return std::string(info.param->name);
                         });

}  // namespace
}  // namespace conv_bwd
}  // namespace aclnn_cpu

// The BF16 pair kernels (kernels/gemm_bf16_ukernel.hpp), one test per entry of the family's enumerator list
// (ACLNN_CPU_GEMM_BF16_UKERNELS, through gemm_bf16_ukernels()); a kernel this build lacks or whose ISA this CPU
// lacks is skipped, by name and with the reason. For every m ≤ MR and n ≤ NR and kc = 0, 1, 2, 7, 64, 257 (odd:
// a last pair over a zero), writing and accumulating:
//   - to_pairs against a scalar pairing (step 2i's BF16 in the high half, step 2i + 1's in the low half) and its
//     exponent floor against a scalar scan, on normal, tiny, subnormal, Inf and NaN values; steps_to_pairs, from
//     BF16 rows, and lines_to_pairs, from fp32 lines, against the same pairing of those values as fp32 panels, at
//     line counts around the widths;
//   - the kernel bit for bit against a scalar model of VDPBF16PS as Intel's manual documents it (per lane: the high
//     halves' product added first, then the low halves'; BF16 subnormal inputs and the accumulator read as zero,
//     each result below 2^-126 flushed to zero; one rounding per addition), on random BF16 values with subnormals
//     and values whose products underflow among them — so the instruction's own behaviour is checked here;
//   - on random normal BF16 values (pairs_exact holds), bit for bit against the fp32 NN kernel of the same tile on
//     the fp32 panels: the claim the algorithms rely on;
//   - C outside the m × n corner (poisoned with a NaN payload) untouched, bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <ostream>
#include <string>
#include <vector>

#include "conv_bwd/kernels/gemm_bf16_ukernel.hpp"
#include "conv_bwd/kernels/gemm_ukernel.hpp"
#include "core/int_math.hpp"
#include "core/isa.hpp"
#include "kernel_test_support.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

static void PrintTo(const GemmBf16Ukernel *k, std::ostream *os) { *os << k->name; }

namespace {

using kernel_test::dot_step;
using kernel_test::expected_floor;
using kernel_test::float_bits;
using kernel_test::poison;
using kernel_test::random_bf16;
using kernel_test::same_bits;

std::vector<const GemmBf16Ukernel *> kernels() { return kernel_test::pointers<GemmBf16Ukernel>(gemm_bf16_ukernels()); }

// fp32 panels of `width` lines, kc steps (the layout of gemm_ukernel.hpp).
struct Panels {
  std::vector<float> fp32;
  std::vector<uint32_t> pairs;
  int floor = -1;
};

Panels make_panels(const GemmBf16Ukernel &k, int width, int64_t kc, uint32_t seed, bool tiny) {
  Panels p;
  p.fp32 = random_bf16(kc * width, seed, tiny);
  p.pairs.assign(static_cast<size_t>(pair_steps(kc) * width), 0xDEADBEEFu);
  p.floor = k.to_pairs(p.fp32.data(), 1, width, kc, p.pairs.data());
  return p;
}

// The scalar pairing of gemm_bf16_ukernel.hpp.
uint32_t expected_pair(const std::vector<float> &v, int width, int64_t kc, int64_t i, int line) {
  const uint32_t hi = float_bits(v[static_cast<size_t>(2 * i * width + line)]) >> 16;
  const uint32_t lo = 2 * i + 1 < kc ? float_bits(v[static_cast<size_t>((2 * i + 1) * width + line)]) >> 16 : 0;
  return hi << 16 | lo;
}

class KernelsGemmBf16 : public kernel_test::RunnableKernel<GemmBf16Ukernel> {};

TEST_P(KernelsGemmBf16, PairsAndFloorsAreTheDocumentedOnes) {
  const GemmBf16Ukernel &k = *GetParam();
  for (int width : {k.mr, k.nr}) {
    for (int64_t kc : {1, 2, 7, 64, 257}) {
      for (bool tiny : {false, true}) {
        Panels p = make_panels(k, width, kc, static_cast<uint32_t>(3 + kc + width), tiny);
        EXPECT_EQ(p.floor, expected_floor(p.fp32)) << "width " << width << " kc " << kc << " tiny " << tiny;
        for (int64_t i = 0; i < pair_steps(kc); ++i) {
          for (int line = 0; line < width; ++line) {
            ASSERT_EQ(p.pairs[static_cast<size_t>(i * width + line)], expected_pair(p.fp32, width, kc, i, line))
                << "width " << width << " kc " << kc << " step " << i << " line " << line;
          }
        }
      }
    }
  }
  // Inf, NaN and a subnormal each give floor 0; zeros alone 254; several panels convert one after the other.
  for (float special : {INFINITY, NAN, 1e-39f}) {
    std::vector<float> v(16 * 3, 0.5f);
    v[37] = special;
    std::vector<uint32_t> out(16 * 2);
    EXPECT_EQ(k.to_pairs(v.data(), 1, 16, 3, out.data()), 0) << special;
  }
  std::vector<float> zeros(8 * 4, 0.0f), two(8 * 2 * 3);
  std::vector<uint32_t> out(8 * 2 * 2);
  EXPECT_EQ(k.to_pairs(zeros.data(), 1, 8, 4, out.data()), 254);
  for (size_t i = 0; i < two.size(); ++i) two[i] = static_cast<float>(i + 1);
  EXPECT_EQ(k.to_pairs(two.data(), 2, 8, 3, out.data()), 127);
  EXPECT_EQ(out[8 * 2 + 1], (float_bits(two[24 + 1]) & 0xFFFF0000u) | float_bits(two[24 + 8 + 1]) >> 16);
  EXPECT_EQ(out[8 * 3 + 1], float_bits(two[24 + 16 + 1]) & 0xFFFF0000u);
}

// steps_to_pairs on BF16 rows (a row pitch beyond `lines`, NaN there, which must be neither read into a panel nor
// seen by the floor; panels back to back and apart) against the scalar pairing of the same values laid out as fp32
// panels, lines past `lines` zero.
TEST_P(KernelsGemmBf16, StepPairsFromBf16RowsAreThePanelsPairs) {
  const GemmBf16Ukernel &k = *GetParam();
  for (int width : {k.mr, k.nr}) {
    // 32, 37, 72 and 107 lines: A's 8-wide panels four at a time, then the rest eight and fewer at a time.
    for (int64_t lines : {int64_t{1}, int64_t{7}, int64_t{8}, int64_t{width - 1}, int64_t{width}, int64_t{width + 1},
                          int64_t{3 * width + 5}, int64_t{32}, int64_t{37}, int64_t{72}, int64_t{107}}) {
      for (int64_t kc : {1, 2, 7, 64, 257}) {
        for (bool tiny : {false, true}) {
          const int64_t pitch = lines + 9, panels = ceil_div(lines, width);
          const std::vector<float> values = random_bf16(kc * lines, static_cast<uint32_t>(7 + kc + lines), tiny);
          std::vector<uint16_t> rows(static_cast<size_t>(kc * pitch), 0x7FC1);  // NaN past each row
          std::vector<float> fp32(static_cast<size_t>(panels * width * kc), 0.0f);
          std::vector<const uint16_t *> steps(static_cast<size_t>(kc));
          for (int64_t s = 0; s < kc; ++s) {
            steps[static_cast<size_t>(s)] = rows.data() + s * pitch;
            for (int64_t i = 0; i < lines; ++i) {
              const float v = values[static_cast<size_t>(s * lines + i)];
              rows[static_cast<size_t>(s * pitch + i)] = static_cast<uint16_t>(float_bits(v) >> 16);
              fp32[static_cast<size_t>((i / width * kc + s) * width + i % width)] = v;
            }
          }
          const int64_t kp = pair_steps(kc);
          // Panels back to back, and 3 steps apart (a block's part of panels holding more K steps): the gap must
          // keep its poison.
          for (int64_t gap : {0, 3}) {
            const int64_t panel_words = (kp + gap) * width;
            std::vector<uint32_t> got(static_cast<size_t>(panels * panel_words), 0xDEADBEEFu);
            const int floor = k.steps_to_pairs(steps.data(), kc, lines, width, got.data(), panel_words);
            EXPECT_EQ(floor, expected_floor(values)) << "width " << width << " lines " << lines << " kc " << kc;
            for (int64_t p = 0; p < panels; ++p) {
              const std::vector<float> panel(fp32.begin() + p * width * kc, fp32.begin() + (p + 1) * width * kc);
              for (int64_t i = 0; i < kp + gap; ++i) {
                for (int line = 0; line < width; ++line) {
                  const uint32_t word = got[static_cast<size_t>(p * panel_words + i * width + line)];
                  ASSERT_EQ(word, i < kp ? expected_pair(panel, width, kc, i, line) : 0xDEADBEEFu)
                      << "width " << width << " lines " << lines << " kc " << kc << " gap " << gap << " panel " << p
                      << " step " << i << " line " << line;
                }
              }
            }
          }
        }
      }
    }
  }
  // Inf, NaN and a subnormal inside the lines each give floor 0 (at both widths, in a group of 32 lines and past the
  // last); zeros alone 254.
  for (uint16_t special : {uint16_t{0x7F80}, uint16_t{0xFFC0}, uint16_t{0x0040}}) {
    for (int width : {k.mr, k.nr}) {
      for (int at : {20, 33}) {
        std::vector<uint16_t> row(40, 0x3F00);
        row[at] = special;
        const uint16_t *steps[3] = {row.data(), row.data(), row.data()};
        std::vector<uint32_t> out(static_cast<size_t>(2 * ceil_div(40, width) * width));
        EXPECT_EQ(k.steps_to_pairs(steps, 3, 40, width, out.data(), 2 * width), 0)
            << special << " width " << width << " line " << at;
      }
    }
  }
  std::vector<uint16_t> zeros(9, 0);
  const uint16_t *zero_steps[2] = {zeros.data(), zeros.data()};
  std::vector<uint32_t> out(8 * 2);
  EXPECT_EQ(k.steps_to_pairs(zero_steps, 2, 9, 8, out.data(), 8), 254);
  // −0 is a zero: it leaves the floor to the other values (1.0, biased exponent 127), at both widths.
  for (int width : {k.mr, k.nr}) {
    std::vector<uint16_t> signed_zeros(40, 0x8000);
    signed_zeros[5] = 0x3F80;
    const uint16_t *steps[3] = {signed_zeros.data(), signed_zeros.data(), signed_zeros.data()};
    std::vector<uint32_t> words(static_cast<size_t>(2 * ceil_div(40, width) * width));
    EXPECT_EQ(k.steps_to_pairs(steps, 3, 40, width, words.data(), 2 * width), 127) << "width " << width;
  }
}

// lines_to_pairs on fp32 lines (a line pitch beyond kc, NaN there, which must be neither read into a panel nor seen by
// the floor) against the scalar pairing of the same values laid out as fp32 panels, lines past `lines` zero.
TEST_P(KernelsGemmBf16, LinePairsFromFp32LinesAreThePanelsPairs) {
  const GemmBf16Ukernel &k = *GetParam();
  for (int width : {k.mr, k.nr}) {
    for (int64_t lines : {int64_t{1}, int64_t{7}, int64_t{8}, int64_t{9}, int64_t{width - 1}, int64_t{width},
                          int64_t{width + 1}, int64_t{3 * width + 5}}) {
      for (int64_t kc : {1, 2, 7, 15, 16, 17, 33, 64, 257}) {
        for (bool tiny : {false, true}) {
          const int64_t ld = kc + 5, panels = ceil_div(lines, width), kp = pair_steps(kc);
          const std::vector<float> values = random_bf16(kc * lines, static_cast<uint32_t>(5 + kc + lines), tiny);
          std::vector<float> src(static_cast<size_t>(lines * ld), NAN);
          std::vector<float> fp32(static_cast<size_t>(panels * width * kc), 0.0f);
          for (int64_t i = 0; i < lines; ++i) {
            for (int64_t s = 0; s < kc; ++s) {
              const float v = values[static_cast<size_t>(i * kc + s)];
              src[static_cast<size_t>(i * ld + s)] = v;
              fp32[static_cast<size_t>((i / width * kc + s) * width + i % width)] = v;
            }
          }
          std::vector<uint32_t> got(static_cast<size_t>(panels * kp * width + 7), 0xDEADBEEFu);
          const int floor = k.lines_to_pairs(src.data(), ld, lines, kc, width, got.data());
          EXPECT_EQ(floor, expected_floor(values)) << "width " << width << " lines " << lines << " kc " << kc;
          for (int64_t p = 0; p < panels; ++p) {
            const std::vector<float> panel(fp32.begin() + p * width * kc, fp32.begin() + (p + 1) * width * kc);
            for (int64_t i = 0; i < kp; ++i) {
              for (int line = 0; line < width; ++line) {
                ASSERT_EQ(got[static_cast<size_t>((p * kp + i) * width + line)],
                          expected_pair(panel, width, kc, i, line))
                    << "width " << width << " lines " << lines << " kc " << kc << " panel " << p << " step " << i
                    << " line " << line;
              }
            }
          }
          for (size_t w = static_cast<size_t>(panels * kp * width); w < got.size(); ++w) {
            ASSERT_EQ(got[w], 0xDEADBEEFu) << "past the panels, width " << width << " lines " << lines << " kc " << kc;
          }
        }
      }
    }
  }
  // Inf, NaN and a subnormal inside the lines each give floor 0; zeros alone 254; 1 and 2 give 127.
  for (float special : {INFINITY, NAN, 1e-39f}) {
    std::vector<float> v(3 * 20, 0.5f);
    v[2 * 20 + 17] = special;
    std::vector<uint32_t> out(2 * 10 * 8);
    EXPECT_EQ(k.lines_to_pairs(v.data(), 20, 3, 20, 8, out.data()), 0) << special;
  }
  const std::vector<float> zeros(4 * 9, 0.0f), ones_twos{1.0f, 2.0f, 2.0f, 1.0f};
  std::vector<uint32_t> out(8 * 5);
  EXPECT_EQ(k.lines_to_pairs(zeros.data(), 9, 4, 9, 8, out.data()), 254);
  EXPECT_EQ(k.lines_to_pairs(ones_twos.data(), 2, 2, 2, 8, out.data()), 127);
}

TEST_P(KernelsGemmBf16, MatchesTheInstructionsDocumentedArithmetic) {
  const GemmBf16Ukernel &k = *GetParam();
  const int mr = k.mr, nr = k.nr;
  for (int64_t kc : {0, 1, 2, 7, 64, 257}) {
    const int64_t kp = pair_steps(kc);
    const Panels a = make_panels(k, mr, kc, static_cast<uint32_t>(11 + kc), true);
    const Panels b = make_panels(k, nr, kc, static_cast<uint32_t>(29 + kc), true);
    for (bool accumulate : {false, true}) {
      for (int m = 1; m <= mr; ++m) {
        for (int n = 1; n <= nr; ++n) {
          const int64_t ldc = nr + 3;
          std::vector<float> c(static_cast<size_t>((mr + 1) * ldc), poison());
          for (int r = 0; r < m; ++r) {
            for (int j = 0; j < n; ++j) c[static_cast<size_t>(r * ldc + j)] = 0.25f * static_cast<float>(r - j);
          }
          const std::vector<float> before = c;
          k.run(kp, a.pairs.data(), b.pairs.data(), c.data(), ldc, m, n, accumulate);
          for (int r = 0; r <= mr; ++r) {
            for (int64_t j = 0; j < ldc; ++j) {
              const size_t at = static_cast<size_t>(r * ldc + j);
              if (r >= m || j >= n) {
                ASSERT_TRUE(same_bits(c[at], before[at])) << "outside the corner: " << r << "," << j;
                continue;
              }
              float acc = 0.0f;
              for (int64_t i = 0; i < kp; ++i) {
                acc = dot_step(acc, a.pairs[static_cast<size_t>(i * mr + r)], b.pairs[static_cast<size_t>(i * nr + j)]);
              }
              const float want = accumulate ? before[at] + acc : acc;
              ASSERT_TRUE(same_bits(c[at], want)) << "kc " << kc << " m " << m << " n " << n << " acc " << accumulate
                                                  << " at " << r << "," << j << ": " << c[at] << " vs " << want;
            }
          }
        }
      }
    }
  }
}

TEST_P(KernelsGemmBf16, GivesTheFp32KernelsBitsOnNormalValues) {
  const GemmBf16Ukernel &k = *GetParam();
  const GemmUkernel &nn = gemm_ukernel(Isa::kAvx512);
  ASSERT_EQ(nn.mr, k.mr);
  ASSERT_EQ(nn.nr, k.nr);
  for (int64_t kc : {1, 2, 7, 64, 257}) {
    const Panels a = make_panels(k, k.mr, kc, static_cast<uint32_t>(5 + kc), false);
    const Panels b = make_panels(k, k.nr, kc, static_cast<uint32_t>(17 + kc), false);
    ASSERT_TRUE(pairs_exact(a.floor, b.floor)) << a.floor << " " << b.floor;
    for (bool accumulate : {false, true}) {
      for (int m : {1, 5, k.mr}) {
        for (int n : {1, 17, k.nr}) {
          std::vector<float> pairs_c(static_cast<size_t>(k.mr * k.nr)), fp32_c;
          for (size_t i = 0; i < pairs_c.size(); ++i) pairs_c[i] = 0.125f * static_cast<float>(i % 13) - 0.75f;
          fp32_c = pairs_c;
          k.run(pair_steps(kc), a.pairs.data(), b.pairs.data(), pairs_c.data(), k.nr, m, n, accumulate);
          nn.run(kc, a.fp32.data(), b.fp32.data(), k.nr, fp32_c.data(), k.nr, m, n, accumulate);
          for (size_t i = 0; i < pairs_c.size(); ++i) {
            ASSERT_TRUE(same_bits(pairs_c[i], fp32_c[i])) << "kc " << kc << " m " << m << " n " << n << " element " << i
                                                          << ": " << pairs_c[i] << " vs " << fp32_c[i];
          }
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryKernel, KernelsGemmBf16, ::testing::ValuesIn(kernels()),
                         [](const ::testing::TestParamInfo<const GemmBf16Ukernel *> &info) {
                           return std::string(info.param->name);
                         });

}  // namespace
}  // namespace conv_bwd
}  // namespace aclnn_cpu

// The strided-row kernels (kernels/rows.hpp) on every ISA this CPU runs, against their definitions: dot_taps at
// every tap-block remainder and length remainder, taps writing (not accumulating), and copy_rows' copy and finite
// scan at every column remainder, with specials both inside and just outside the copied columns; interleave's weave
// and scan at every stride and column remainder; deinterleave2, widen_bf16_rows and add_rows at every column
// remainder; add_rows_every_second and add_taps_rows: their order of additions and the columns they own; the 3 × 3
// grid kernels: taps_3x3 against `taps` bit for bit on every plane shape and strip remainder, dot_taps_3x3 against
// its lanes (integers) and its order of sums (non-integer data, FMA as the ISA has it).
// Integer-valued data keeps every sum exact, so the kernels (FMA or not) must match bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "conv_bwd/kernels/rows.hpp"
#include "core/isa.hpp"
#include "kernel_test_support.hpp"
#include "numerics/formats.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

std::vector<Isa> usable_levels() {
  std::vector<Isa> levels;
  for (const RowKernels &table : row_kernel_tables()) {  // every ISA of ACLNN_CPU_KERNEL_ISAS this CPU runs
    if (table.built() && isa_includes(cpu_isa(), table.isa)) levels.push_back(table.isa);
  }
  return levels;
}

// Small integers in [-4, 4]: products and sums of a few thousand stay exact in fp32.
std::vector<float> integers(int64_t n, uint32_t seed) {
  std::vector<float> v(static_cast<size_t>(n));
  for (auto &x : v) {
    seed = seed * 1664525u + 1013904223u;
    x = static_cast<float>(static_cast<int>((seed >> 16) % 9) - 4);
  }
  return v;
}

TEST(KernelsRows, DotTapsEveryBlockAndLengthRemainder) {
  for (Isa isa : usable_levels()) {
    const RowKernels &k = row_kernels(isa);
    for (int64_t taps : {1, 2, 3, 4, 5, 8, 9, 10, 13, 19}) {
      for (int64_t n : {0, 5, 16, 37, 64, 100}) {
        std::vector<int64_t> shift(static_cast<size_t>(taps));
        for (int64_t t = 0; t < taps; ++t) shift[t] = (t * 7) % 23;
        const std::vector<float> y = integers(n, 1), x = integers(n + 23, 2);
        // Two guard taps past the last: they must stay as they were.
        std::vector<float> lanes = integers((taps + 2) * kTapLanes, 3), expect = lanes;
        for (int64_t t = 0; t < taps; ++t) {
          for (int64_t i = 0; i < n; ++i) expect[t * kTapLanes + i % kTapLanes] += y[i] * x[shift[t] + i];
        }
        k.dot_taps(y.data(), x.data(), shift.data(), taps, n, lanes.data());
        EXPECT_EQ(lanes, expect) << isa_name(isa) << " taps " << taps << " n " << n;
      }
    }
  }
}

TEST(KernelsRows, TapsWriteWhateverTheOutputHeld) {
  for (Isa isa : usable_levels()) {
    const RowKernels &k = row_kernels(isa);
    for (int64_t n : {1, 15, 16, 17, 64, 83, 130}) {
      const int64_t taps = 9;
      std::vector<int64_t> shift(taps);
      for (int64_t t = 0; t < taps; ++t) shift[t] = (t * 5) % 17;
      const std::vector<float> x = integers(n + 17, 4), w = integers(taps, 5);
      std::vector<float> y(static_cast<size_t>(n + 1), std::numeric_limits<float>::quiet_NaN()), expect(y);
      for (int64_t i = 0; i < n; ++i) {
        float acc = 0.0f;
        for (int64_t t = 0; t < taps; ++t) acc += w[t] * x[shift[t] + i];
        expect[i] = acc;
      }
      k.taps(x.data(), shift.data(), w.data(), taps, n, y.data());
      for (int64_t i = 0; i < n; ++i) EXPECT_EQ(y[i], expect[i]) << isa_name(isa) << " n " << n << " i " << i;
      EXPECT_TRUE(std::isnan(y[n])) << isa_name(isa) << " wrote past n = " << n;
    }
  }
}

// taps_channels against `taps` per channel, bit for bit on non-integer data (the same sums in the same order): every
// channel-block remainder (1 .. 13 channels: blocks of 2, 4 or 6 and what is left), positions at every remainder of
// its 16-, 32- and 64-wide steps and of taps' own; and more terms than the AVX2 blocks pack at once (600 > 512).
TEST(KernelsRows, TapsChannelsGiveEachChannelTheBitsOfTaps) {
  for (Isa isa : usable_levels()) {
    const RowKernels &k = row_kernels(isa);
    for (int64_t n : {1, 16, 31, 32, 33, 64, 83, 100}) {
      for (int64_t channels = 1; channels <= 13; ++channels) {
        const int64_t taps = n == 33 && channels >= 6 ? 600 : 7, ldw = taps + 2, ldy = n + 3;
        std::vector<int64_t> shift(taps);
        for (int64_t t = 0; t < taps; ++t) shift[t] = (t * 5) % 13;
        std::vector<float> x = integers(n + 13, 4), w = integers(channels * ldw, 5);
        for (size_t i = 0; i < x.size(); ++i) x[i] = x[i] / 3.0f + 0.1f * static_cast<float>(i % 7);
        for (size_t i = 0; i < w.size(); ++i) w[i] = w[i] / 7.0f;
        std::vector<float> y(static_cast<size_t>(channels * ldy), std::numeric_limits<float>::quiet_NaN());
        k.taps_channels(x.data(), shift.data(), w.data(), ldw, taps, n, y.data(), ldy, channels);
        for (int64_t c = 0; c < channels; ++c) {
          std::vector<float> one(static_cast<size_t>(n));
          k.taps(x.data(), shift.data(), w.data() + c * ldw, taps, n, one.data());
          for (int64_t i = 0; i < n; ++i) {
            EXPECT_EQ(y[c * ldy + i], one[i]) << isa_name(isa) << " n " << n << " of " << channels << " c " << c;
          }
          for (int64_t i = n; i < ldy; ++i) EXPECT_TRUE(std::isnan(y[c * ldy + i])) << isa_name(isa) << " past n";
        }
      }
    }
  }
}

TEST(KernelsRows, CopyRowsCopiesAndScansOnlyTheColumnsItCopies) {
  const float specials[] = {std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::quiet_NaN()};
  for (Isa isa : usable_levels()) {
    const RowKernels &k = row_kernels(isa);
    // 4 .. 7: two overlapping quarter vectors; 8 .. 15: two overlapping half vectors.
    for (int64_t n : {0, 1, 3, 4, 5, 6, 7, 8, 9, 14, 15, 16, 17, 31, 56, 64}) {
      const int64_t rows = 3, lds = n + 3, ldd = n + 2;
      std::vector<float> src = integers(rows * lds, 6);
      // Specials in the source's gaps (columns n .. lds) are not copied and must not count.
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t i = n; i < lds; ++i) src[r * lds + i] = specials[(r + i) % 3];
      }
      std::vector<float> dst(static_cast<size_t>(rows * ldd), -7.0f);
      EXPECT_TRUE(k.copy_rows(src.data(), lds, rows, n, dst.data(), ldd)) << isa_name(isa) << " n " << n;
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t i = 0; i < ldd; ++i) {
          const float want = i < n ? src[r * lds + i] : -7.0f;
          EXPECT_EQ(dst[r * ldd + i], want) << isa_name(isa) << " n " << n << " row " << r << " col " << i;
        }
      }
      // One special at each copied position in turn (first, middle, the overlapping tail, last): found.
      for (int64_t at : {int64_t{0}, n / 2, n - 9, n - 1}) {
        if (at < 0 || at >= n) continue;
        for (const float special : specials) {
          std::vector<float> bad = src;
          bad[(rows - 1) * lds + at] = special;
          EXPECT_FALSE(k.copy_rows(bad.data(), lds, rows, n, dst.data(), ldd))
              << isa_name(isa) << " n " << n << " at " << at;
        }
      }
    }
  }
}

// Every code pattern class (NaN payloads, infinities, subnormals, signs) from a generator: the widening is a shift,
// so each output is the code's bits moved up; columns past n and rows past `rows` stay untouched.
TEST(KernelsRows, WidenBf16RowsWidensEveryColumnItOwnsOnly) {
  for (Isa isa : usable_levels()) {
    const RowKernels &k = row_kernels(isa);
    // 4 .. 7: two overlapping quarter vectors; 8 .. 15: two overlapping half vectors.
    for (int64_t n : {0, 1, 3, 4, 5, 6, 7, 8, 9, 14, 15, 16, 17, 31, 56, 64}) {
      const int64_t rows = 3, lds = n + 5, ldd = n + 2;
      std::vector<uint16_t> src(static_cast<size_t>(rows * lds));
      uint32_t seed = 17;
      for (auto &h : src) {
        seed = seed * 1664525u + 1013904223u;
        h = static_cast<uint16_t>(seed >> 16);
      }
      std::vector<float> dst(static_cast<size_t>(rows * ldd + 1), -7.0f);
      k.widen_bf16_rows(src.data(), lds, rows, n, dst.data(), ldd);
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t i = 0; i < ldd; ++i) {
          uint32_t got;
          std::memcpy(&got, &dst[r * ldd + i], 4);
          const float untouched = -7.0f;
          uint32_t want;
          std::memcpy(&want, &untouched, 4);
          if (i < n) want = static_cast<uint32_t>(src[r * lds + i]) << 16;
          EXPECT_EQ(got, want) << isa_name(isa) << " n " << n << " row " << r << " col " << i;
        }
      }
      EXPECT_EQ(dst[rows * ldd], -7.0f) << isa_name(isa) << " n " << n;
    }
  }
}

// Every column remainder (below one vector: element by element; else vectors and the last one again), against
// numerics' fp32_to_bf16 on random bit patterns with NaNs, Infs, subnormals, zeros and exact ties; the finite flag
// follows the columns it reads (a NaN in a gap does not clear it, one in a row does).
TEST(KernelsRows, NarrowBf16RowsNarrowsAndScansEveryColumnItOwnsOnly) {
  const uint32_t specials[] = {0x00000000u, 0x80000000u, 0x00000001u, 0x807FFFFFu, 0x3F808000u,
                               0x3F818000u, 0x7F7FFFFFu, 0xFF7F8000u, 0x3F80FFFFu, 0x40490FDBu};
  const uint32_t non_finite[] = {0x7F800000u, 0xFF800000u, 0x7F800001u, 0xFFC00001u};
  for (Isa isa : usable_levels()) {
    const RowKernels &k = row_kernels(isa);
    for (int64_t n : {0, 1, 3, 4, 5, 7, 8, 9, 14, 15, 16, 17, 31, 56, 64}) {
      for (int nan_at : {-1, 0, 1}) {  // none, one in a gap, one in a row (every column of the row in turn)
        const int64_t rows = 3, lds = n + 5, ldd = n + 2;
        std::vector<float> src(static_cast<size_t>(rows * lds));
        uint32_t seed = 29;
        for (size_t i = 0; i < src.size(); ++i) {
          seed = seed * 1664525u + 1013904223u;
          uint32_t u = i % 4 == 1 ? specials[(i / 4) % 10] : seed;
          if ((u & 0x7F800000u) == 0x7F800000u) u &= 0xBFFFFFFFu;  // random patterns finite unless placed below
          std::memcpy(&src[i], &u, 4);
        }
        const int64_t gap = lds - 1, col = n > 0 ? (seed >> 8) % n : 0;
        const int64_t placed = nan_at == 0 ? gap : nan_at == 1 ? lds + col : -1;
        if (placed >= 0 && (nan_at == 0 || n > 0)) std::memcpy(&src[placed], &non_finite[col % 4], 4);
        std::vector<uint16_t> dst(static_cast<size_t>(rows * ldd + 1), 0xA5A5);
        const bool finite = k.narrow_bf16_rows(src.data(), lds, rows, n, dst.data(), ldd);
        EXPECT_EQ(finite, !(nan_at == 1 && n > 0)) << isa_name(isa) << " n " << n << " nan_at " << nan_at;
        for (int64_t r = 0; r < rows; ++r) {
          for (int64_t i = 0; i < ldd; ++i) {
            const uint16_t want = i < n ? numerics::fp32_to_bf16(src[r * lds + i]) : uint16_t{0xA5A5};
            ASSERT_EQ(dst[r * ldd + i], want) << isa_name(isa) << " n " << n << " row " << r << " col " << i;
          }
        }
      }
    }
  }
}

// Every column remainder (below one vector: element by element; else vectors and the last one again), both ties and
// both HF32 widths, on random bit patterns with NaNs, Infs, subnormals, zeros and exact ties among them.
TEST(KernelsRows, RoundRowsHf32RoundsEveryColumnItOwnsOnly) {
  const uint32_t specials[] = {0x00000000u, 0x80000000u, 0x00000001u, 0x807FFFFFu, 0x7F800000u, 0xFF800000u,
                               0x7F800001u, 0x7FC00000u, 0xFFFFFFFFu, 0x7F7FFFFFu, 0x3F801000u, 0x3F800800u};
  for (Isa isa : usable_levels()) {
    const RowKernels &k = row_kernels(isa);
    for (int bits : {10, 11}) {
      for (Hf32Rounding ties : {Hf32Rounding::kTiesAway, Hf32Rounding::kNearestEven}) {
        const Hf32Rows h = Hf32Rows::of(bits, ties == Hf32Rounding::kTiesAway);
        for (int64_t n : {0, 1, 3, 7, 8, 9, 14, 15, 16, 17, 31, 56, 64}) {
          const int64_t rows = 3, lds = n + 5, ldd = n + 2;
          std::vector<float> src(static_cast<size_t>(rows * lds));
          uint32_t seed = 23;
          for (size_t i = 0; i < src.size(); ++i) {
            seed = seed * 1664525u + 1013904223u;
            const uint32_t u = i % 5 == 2 ? specials[(i / 5) % 12] : seed;
            std::memcpy(&src[i], &u, 4);
          }
          std::vector<float> dst(static_cast<size_t>(rows * ldd + 1), -7.0f);
          k.round_rows_hf32(src.data(), lds, rows, n, dst.data(), ldd, h);
          for (int64_t r = 0; r < rows; ++r) {
            for (int64_t i = 0; i < ldd; ++i) {
              const float want = i < n ? numerics::round_to_hf32(src[r * lds + i], bits, ties) : -7.0f;
              uint32_t got, expected;
              std::memcpy(&got, &dst[r * ldd + i], 4);
              std::memcpy(&expected, &want, 4);
              ASSERT_EQ(got, expected) << isa_name(isa) << " bits " << bits << " n " << n << " row " << r << " col "
                                       << i;
            }
          }
        }
      }
    }
  }
}

TEST(KernelsRows, Deinterleave2SplitsEveryColumnPairAndWritesNothingElse) {
  for (Isa isa : usable_levels()) {
    const RowKernels &k = row_kernels(isa);
    for (int64_t n : {0, 1, 7, 15, 16, 17, 22, 31, 32, 45}) {  // 17 .. 31: the overlapping last vector
      const int64_t rows = 3, lds = 2 * n + 3, ldd = n + 2;
      const std::vector<float> src = integers(rows * lds, 8);
      std::vector<float> even(static_cast<size_t>(rows * ldd), -7.0f), odd = even;
      k.deinterleave2(src.data(), lds, rows, n, even.data(), odd.data(), ldd);
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t z = 0; z < ldd; ++z) {
          EXPECT_EQ(even[r * ldd + z], z < n ? src[r * lds + 2 * z] : -7.0f) << isa_name(isa) << " n " << n;
          EXPECT_EQ(odd[r * ldd + z], z < n ? src[r * lds + 2 * z + 1] : -7.0f) << isa_name(isa) << " n " << n;
        }
      }
    }
  }
}

TEST(KernelsRows, AddRowsAddsEveryColumnItOwnsOnly) {
  for (Isa isa : usable_levels()) {
    const RowKernels &k = row_kernels(isa);
    for (int64_t n : {0, 1, 7, 8, 9, 14, 15, 16, 17, 23, 24, 25, 31, 32, 47, 56}) {  // whole, half and single floats
      const int64_t rows = 3, lds = n + 5, ldd = n + 3;
      const std::vector<float> src = integers(rows * lds, 9), before = integers(rows * ldd, 10);
      std::vector<float> dst = before;
      k.add_rows(src.data(), lds, rows, n, dst.data(), ldd);
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t i = 0; i < ldd; ++i) {
          const float want = before[r * ldd + i] + (i < n ? src[r * lds + i] : 0.0f);
          EXPECT_EQ(dst[r * ldd + i], want) << isa_name(isa) << " n " << n << " row " << r << " column " << i;
        }
      }
    }
  }
}

// Every remainder of AVX-512's 8-value steps and of the portable 4-value ones: dst[2i] gets src[i] added, bit for bit;
// the columns between (−0, which + 0 would turn into +0) and those past dst[2(n − 1)] (NaN with a payload) keep
// their bits.
TEST(KernelsRows, AddRowsEverySecondAddsTheEvenColumnsOnly) {
  for (Isa isa : usable_levels()) {
    const RowKernels &k = row_kernels(isa);
    for (int64_t n : {0, 1, 2, 4, 5, 7, 8, 9, 15, 16, 17, 28, 33}) {
      const int64_t rows = 3, lds = n + 3, ldd = 2 * n + 21;
      const std::vector<float> src = kernel_test::random_floats(rows * lds, 11);
      std::vector<float> dst = kernel_test::random_floats(rows * ldd, 12);
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t i = 0; i < ldd; ++i) {
          if (i > 2 * (n - 1)) dst[r * ldd + i] = kernel_test::poison();
          if (i <= 2 * (n - 1) && i % 2 == 1) dst[r * ldd + i] = -0.0f;
        }
      }
      std::vector<float> expect = dst;
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t i = 0; i < n; ++i) expect[r * ldd + 2 * i] += src[r * lds + i];
      }
      k.add_rows_every_second(src.data(), lds, rows, n, dst.data(), ldd);
      EXPECT_EQ(std::memcmp(dst.data(), expect.data(), dst.size() * sizeof(float)), 0) << isa_name(isa) << " n " << n;
    }
  }
}

// Taps with column ranges that overlap, leave gaps, are empty, start anywhere in a 16-column step and span several:
// each column must get, bit for bit, its taps' values added one by one in tap order (random non-integer data, so
// another order of the same additions would show; −0 plus its taps' −0 stays −0), and a column no tap owns (−0
// there, NaN in src wherever no tap reads) must keep its bits.
TEST(KernelsRows, AddTapsRowsAddsEachTapsColumnsInTapOrder) {
  struct Case {
    std::vector<int64_t> begin, end;
  };
  const std::vector<Case> cases = {
      {{0}, {14}},
      {{1, 0, 0}, {14, 14, 13}},         // a 3-tap kernel row over 14 columns, padding 1
      {{3, 2, 0}, {30, 29, 27}},         // spans two steps
      {{5, 5, 9, 40}, {5, 20, 12, 41}},  // an empty range, nested, a gap, a far one
      {{17, 0, 33}, {31, 16, 70}},       // disjoint, starting inside steps
      {{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
       {16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31}},
      {{7, 7}, {7, 7}},                                                 // nothing at all
      {{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17},  // more taps than AVX-512's 16 masks per step
       {10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27}},
  };
  for (Isa isa : usable_levels()) {
    const RowKernels &k = row_kernels(isa);
    for (const Case &cs : cases) {
      const int64_t taps = static_cast<int64_t>(cs.begin.size()), width = 80, rows = 3, ldd = width + 3;
      const int64_t tap_len = width + 11, lds = taps * tap_len + 2;
      std::vector<int64_t> src_at(static_cast<size_t>(taps));
      for (int64_t t = 0; t < taps; ++t) src_at[t] = t * tap_len + 5 - t;  // src column of x column i: src_at + i
      const std::vector<float> values = kernel_test::random_floats(rows * lds, 77);
      std::vector<float> src(static_cast<size_t>(rows * lds), std::numeric_limits<float>::quiet_NaN());
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t t = 0; t < taps; ++t) {
          for (int64_t i = cs.begin[t]; i < cs.end[t]; ++i)
            src[r * lds + src_at[t] + i] = values[r * lds + src_at[t] + i];
        }
      }
      std::vector<float> dst = kernel_test::random_floats(rows * ldd, 78);
      for (int64_t i = 0; i < rows * ldd; i += 5) dst[i] = -0.0f;
      // −0 added to −0 stays −0 only if no other tap adds +0 to it on the way.
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t t = 0; t < taps; ++t) {
          for (int64_t i = cs.begin[t]; i < cs.end[t]; ++i) {
            if ((r * ldd + i) % 5 == 0) src[r * lds + src_at[t] + i] = -0.0f;
          }
        }
      }
      std::vector<float> expect = dst;
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t t = 0; t < taps; ++t) {
          for (int64_t i = cs.begin[t]; i < cs.end[t]; ++i) expect[r * ldd + i] += src[r * lds + src_at[t] + i];
        }
      }
      k.add_taps_rows(src.data(), lds, src_at.data(), cs.begin.data(), cs.end.data(), taps, rows, dst.data(), ldd);
      EXPECT_EQ(std::memcmp(dst.data(), expect.data(), dst.size() * sizeof(float)), 0)
          << isa_name(isa) << " taps " << taps << " first range [" << cs.begin[0] << ", " << cs.end[0] << ")";
    }
  }
}

TEST(KernelsRows, InterleaveWeavesAndScansOnlyTheColumnsItStores) {
  const float specials[] = {std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()};
  for (Isa isa : usable_levels()) {
    const RowKernels &k = row_kernels(isa);
    for (int64_t s : {1, 2, 3, 5}) {
      for (int64_t n : {0, 1, 2, 7, 15, 16, 17, 18, 31, 32, 33, 47, 48, 49, 56, 63, 64, 65}) {
        // Phase a's row r at src[a·plane + r·lds], ⌈n / s⌉ values used; the rest of each row (and of each plane)
        // holds specials that are not stored and must not count.
        const int64_t rows = 3, used = (n + s - 1) / s, lds = used + 2, plane = rows * lds + 5, ldd = n + 3;
        std::vector<float> src = integers(s * plane, 7);
        for (int64_t a = 0; a < s; ++a) {
          for (int64_t r = 0; r < rows; ++r) {
            const int64_t stored = (n - a + s - 1) / s;  // columns a, a + s, ... below n
            for (int64_t z = std::max<int64_t>(stored, 0); z < lds; ++z) src[a * plane + r * lds + z] = specials[z % 2];
          }
          for (int64_t z = rows * lds; z < plane; ++z) src[a * plane + z] = specials[z % 2];
        }
        std::vector<float> dst(static_cast<size_t>(rows * ldd), -7.0f);
        const std::string where = std::string(isa_name(isa)) + " s " + std::to_string(s) + " n " + std::to_string(n);
        EXPECT_TRUE(k.interleave(src.data(), plane, s, lds, rows, n, dst.data(), ldd)) << where;
        for (int64_t r = 0; r < rows; ++r) {
          for (int64_t i = 0; i < ldd; ++i) {
            const float want = i < n ? src[(i % s) * plane + r * lds + i / s] : -7.0f;
            EXPECT_EQ(dst[r * ldd + i], want) << where << " row " << r << " col " << i;
          }
        }
        // One special at each stored column in turn (the vector part, the half step, the overlapping last 16, the
        // odd last column): found.
        for (int64_t col : {int64_t{0}, n / 2, n - 17, n - 9, n - 2, n - 1}) {
          if (col < 0 || col >= n) continue;
          std::vector<float> bad = src;
          bad[(col % s) * plane + (rows - 1) * lds + col / s] = specials[col % 2];
          EXPECT_FALSE(k.interleave(bad.data(), plane, s, lds, rows, n, dst.data(), ldd)) << where << " col " << col;
        }
      }
    }
  }
}

// Non-integer values of mixed magnitudes: the bits of a sum then depend on its order.
std::vector<float> fractions(int64_t n, uint32_t seed) {
  std::vector<float> v = integers(n, seed);
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = v[i] / 3.0f + 0.01f * static_cast<float>(i % 11) * (i % 3 == 0 ? 97.0f : 1.0f);
  return v;
}

// A plane of rows × width in the shifted layout (pitch ld), q-space of n positions, x as long as taps read plus the
// 7 columns dot_taps_3x3's last strip may read past it (8 lanes at most, less one): no more, so that the asan build
// catches a read beyond the contract.
struct GridPlane {
  int64_t rows, width, ld, dc;
  int64_t n() const { return (rows - 1) * ld + width; }
  int64_t x_len() const { return n() + 2 * ld + 2 * dc + 7; }
  // The plane's values in q-space: zeros at the junk columns and past the plane (16 more, which the last strip may
  // read).
  std::vector<float> q_space(const std::vector<float> &values) const {
    std::vector<float> y(static_cast<size_t>(n() + 16), 0.0f);
    for (int64_t j = 0; j < rows; ++j) {
      for (int64_t i = 0; i < width; ++i) y[j * ld + i] = values[j * ld + i];
    }
    return y;
  }
  std::vector<int64_t> shifts() const {
    std::vector<int64_t> shift(9);
    for (int64_t t = 0; t < 9; ++t) shift[t] = (t / 3) * ld + (t % 3) * dc;
    return shift;
  }
  std::string name() const {
    return "rows " + std::to_string(rows) + " width " + std::to_string(width) + " ld " + std::to_string(ld) + " dc " +
           std::to_string(dc);
  }
};

std::vector<GridPlane> grid_planes() {
  std::vector<GridPlane> planes;
  for (int64_t rows : {1, 2, 3, 4, 7}) {
    for (int64_t width : {1, 5, 8, 13, 14, 16, 17, 24, 31, 33, 56}) {
      for (int64_t dc : {1, 2}) planes.push_back({rows, width, width + 2 * dc + (width % 3), dc});
    }
  }
  return planes;
}

// taps_3x3 computes the plane's positions with the bits `taps` gives over the flat q-space, for spans from the
// plane's width to the row pitch (below 16: its element loop), and writes nothing outside [0, span) of each row.
TEST(KernelsRows, Taps3x3GivesEveryPlanePositionTheBitsOfTaps) {
  for (Isa isa : usable_levels()) {
    const RowKernels &k = row_kernels(isa);
    for (const GridPlane &p : grid_planes()) {
      const std::vector<float> x = fractions(p.x_len(), 6), w = fractions(9, 7);
      const std::vector<int64_t> shift = p.shifts();
      std::vector<float> flat(static_cast<size_t>(p.n()));
      k.taps(x.data(), shift.data(), w.data(), 9, p.n(), flat.data());
      for (int64_t span : {p.width, p.ld}) {
        std::vector<float> y(static_cast<size_t>(p.rows * p.ld + 16), std::numeric_limits<float>::quiet_NaN());
        k.taps_3x3(x.data(), p.ld, p.dc, w.data(), p.rows, p.width, span, y.data());
        for (int64_t j = 0; j < p.rows; ++j) {
          for (int64_t i = 0; i < p.width; ++i) {
            EXPECT_EQ(y[j * p.ld + i], flat[j * p.ld + i]) << isa_name(isa) << " " << p.name() << " span " << span;
          }
          for (int64_t i = span; i < p.ld; ++i) {
            EXPECT_TRUE(std::isnan(y[j * p.ld + i])) << isa_name(isa) << " " << p.name() << " wrote column " << i;
          }
        }
        for (size_t i = static_cast<size_t>(p.rows * p.ld); i < y.size(); ++i) EXPECT_TRUE(std::isnan(y[i]));
      }
    }
  }
}

// dot_taps_3x3's lanes (integers: exact whatever the order): tap t's lane l gets the products of the columns
// i ≡ l (mod 16); the lanes past the nine stay as they were.
TEST(KernelsRows, DotTaps3x3AddsEveryColumnIntoItsLane) {
  for (Isa isa : usable_levels()) {
    const RowKernels &k = row_kernels(isa);
    for (const GridPlane &p : grid_planes()) {
      const std::vector<float> x = integers(p.x_len(), 8);
      const std::vector<float> y = p.q_space(integers(p.n(), 9));
      std::vector<float> lanes = integers(11 * kTapLanes, 10), expect = lanes;
      const std::vector<int64_t> shift = p.shifts();
      for (int64_t t = 0; t < 9; ++t) {
        for (int64_t j = 0; j < p.rows; ++j) {
          for (int64_t i = 0; i < p.width; ++i) {
            expect[t * kTapLanes + i % kTapLanes] += y[j * p.ld + i] * x[j * p.ld + i + shift[t]];
          }
        }
      }
      k.dot_taps_3x3(y.data(), x.data(), p.ld, p.dc, p.rows, p.width, lanes.data());
      EXPECT_EQ(lanes, expect) << isa_name(isa) << " " << p.name();
    }
  }
}

// dot_taps_3x3's order of sums (non-integer data): per lane, from 0, the columns ascending and in each column the
// rows ascending, then added to the lane. Each product is added with a fused multiply-add or not, as the build
// contracts the kernels' multiply-adds (the release build on FMA ISAs does, the -O1 asan build does not): all lanes
// must match one of the two.
TEST(KernelsRows, DotTaps3x3SumsColumnsThenRowsInOrder) {
  for (Isa isa : usable_levels()) {
    const RowKernels &k = row_kernels(isa);
    for (const GridPlane &p : grid_planes()) {
      const std::vector<float> x = fractions(p.x_len(), 11);
      const std::vector<float> y = p.q_space(fractions(p.n(), 12));
      std::vector<float> lanes = fractions(9 * kTapLanes, 13), fused = lanes, plain = lanes;
      const std::vector<int64_t> shift = p.shifts();
      for (int64_t t = 0; t < 9; ++t) {
        for (int64_t l = 0; l < kTapLanes; ++l) {
          float acc_fused = 0.0f, acc_plain = 0.0f;
          for (int64_t i = l; i < p.width; i += kTapLanes) {
            for (int64_t j = 0; j < p.rows; ++j) {
              const float a = y[j * p.ld + i], b = x[j * p.ld + i + shift[t]];
              acc_fused = std::fma(a, b, acc_fused);
              const volatile float product = a * b;  // rounded on its own, as an unfused multiply-add
              acc_plain = acc_plain + product;
            }
          }
          fused[t * kTapLanes + l] += acc_fused;
          plain[t * kTapLanes + l] += acc_plain;
        }
      }
      k.dot_taps_3x3(y.data(), x.data(), p.ld, p.dc, p.rows, p.width, lanes.data());
      EXPECT_TRUE(lanes == fused || lanes == plain) << isa_name(isa) << " " << p.name();
    }
  }
}

}  // namespace
}  // namespace conv_bwd
}  // namespace aclnn_cpu

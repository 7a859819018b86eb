// The array conversions of numerics/batch.hpp (used when packing operands) against the scalar ones, bit for
// bit: every FP16 code, and for the roundings every float near each threshold plus millions of random patterns.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "numerics/batch.hpp"
#include "numerics/formats.hpp"

namespace {

using namespace aclnn_cpu;

uint32_t bits_of(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  return u;
}

float float_of(uint32_t u) {
  float x;
  std::memcpy(&x, &u, 4);
  return x;
}

// Patterns that probe every branch: both signs of zero, subnormals, neighbourhoods of the FP16 and BF16
// thresholds and of powers of two (ties at several widths), the largest finite, Inf, NaNs; then random bits.
std::vector<float> probe_values() {
  std::vector<uint32_t> centres = {0x0u,        0x1u,        0x00400000u, 0x00800000u, 0x33000000u,
                                   0x33800000u, 0x387FE000u, 0x38800000u, 0x3F800000u, 0x3F801000u,
                                   0x3F808000u, 0x477FE000u, 0x477FF000u, 0x47800000u, 0x7F7F8000u,
                                   0x7F7FFFFFu, 0x7F800000u, 0x7FC00000u, 0x7F800001u, 0x7FFFFFFFu};
  std::vector<float> out;
  for (uint32_t c : centres) {
    for (int64_t d = -4100; d <= 4100; ++d) {
      const int64_t u = static_cast<int64_t>(c) + d;
      if (u < 0 || u > 0x7FFFFFFF) continue;
      out.push_back(float_of(static_cast<uint32_t>(u)));
      out.push_back(float_of(static_cast<uint32_t>(u) | 0x80000000u));
    }
  }
  std::mt19937 rng(7);
  for (int i = 0; i < 3000000; ++i) out.push_back(float_of(static_cast<uint32_t>(rng())));
  return out;
}

template <typename Batch, typename Scalar>
void expect_same(const std::vector<float> &in, Batch batch, Scalar scalar, const char *what) {
  std::vector<float> v = in;
  batch(v.data(), static_cast<int64_t>(v.size()));
  int64_t bad = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    if (bits_of(v[i]) != bits_of(scalar(in[i]))) {
      if (++bad <= 5) {
        ADD_FAILURE() << what << ": input 0x" << std::hex << bits_of(in[i]) << " gives 0x" << bits_of(v[i])
                      << ", scalar gives 0x" << bits_of(scalar(in[i]));
      }
    }
  }
  EXPECT_EQ(bad, 0) << what;
}

TEST(NumericsBatch, RoundingsMatchTheScalarConversions) {
  const std::vector<float> in = probe_values();
  expect_same(in, numerics::round_to_fp16_n, numerics::round_to_fp16, "fp16");
  expect_same(in, numerics::round_to_bf16_n, numerics::round_to_bf16, "bf16");
  for (int bits : {10, 11}) {
    for (Hf32Rounding r : {Hf32Rounding::kTiesAway, Hf32Rounding::kNearestEven}) {
      expect_same(
          in, [&](float *v, int64_t n) { numerics::round_to_hf32_n(v, n, bits, r); },
          [&](float x) { return numerics::round_to_hf32(x, bits, r); }, "hf32");
    }
  }
}

TEST(NumericsBatch, RoundingAsCopiedMatchesTheScalarConversion) {
  const std::vector<float> in = probe_values();
  for (int bits : {10, 11, 23}) {  // 23: nothing dropped, a plain copy
    for (Hf32Rounding r : {Hf32Rounding::kTiesAway, Hf32Rounding::kNearestEven}) {
      auto scalar = [&](float x) { return bits >= 23 ? x : numerics::round_to_hf32(x, bits, r); };
      expect_same(
          in,
          [&](float *v, int64_t n) {
            const std::vector<float> src(v, v + n);
            numerics::round_to_hf32_copy(src.data(), n, v, bits, r);
          },
          scalar, "hf32 copy");
      // Every length of a vector's tail, from an unaligned start; the element past the end is left alone.
      for (int64_t n = 0; n <= 19; ++n) {
        std::vector<float> out(n + 1, -7.0f);
        numerics::round_to_hf32_copy(in.data() + 8193 + n, n, out.data(), bits, r);
        for (int64_t i = 0; i < n; ++i) {
          EXPECT_EQ(bits_of(out[i]), bits_of(scalar(in[8193 + n + i]))) << "length " << n << ", element " << i;
        }
        EXPECT_EQ(out[n], -7.0f) << "length " << n;
      }
    }
  }
}

TEST(NumericsBatch, EncodingsMatchTheScalarConversions) {
  const std::vector<float> in = probe_values();
  for (int64_t stride : {1, 2}) {  // the contiguous loops and the strided ones are separate code
    std::vector<uint16_t> h(stride * in.size()), b(stride * in.size());
    numerics::fp32_to_fp16_n(in.data(), static_cast<int64_t>(in.size()), h.data(), stride);
    numerics::fp32_to_bf16_n(in.data(), static_cast<int64_t>(in.size()), b.data(), stride);
    int64_t bad = 0;
    for (size_t i = 0; i < in.size(); ++i) {
      if (h[stride * i] != numerics::fp32_to_fp16(in[i]) || b[stride * i] != numerics::fp32_to_bf16(in[i])) {
        if (++bad <= 5) ADD_FAILURE() << "stride " << stride << ", input 0x" << std::hex << bits_of(in[i]);
      }
    }
    EXPECT_EQ(bad, 0) << "stride " << stride;
  }
}

TEST(NumericsBatch, Fp16DecodeMatchesForEveryCode) {
  std::vector<uint16_t> codes(2 * 65536);
  for (uint32_t c = 0; c < 65536; ++c) codes[2 * c] = static_cast<uint16_t>(c);
  std::vector<float> out(65536);
  numerics::fp16_to_fp32_n(codes.data(), 2, 65536, out.data());  // stride 2: every other element
  for (uint32_t c = 0; c < 65536; ++c) {
    ASSERT_EQ(bits_of(out[c]), bits_of(numerics::fp16_to_fp32(static_cast<uint16_t>(c)))) << "code " << c;
  }
}

TEST(NumericsBatch, Fp16DecodeMatchesForEveryCodeContiguous) {
  std::vector<uint16_t> codes(65536);
  for (uint32_t c = 0; c < 65536; ++c) codes[c] = static_cast<uint16_t>(c);
  std::vector<float> out(65536);
  numerics::fp16_to_fp32_n(codes.data(), 1, 65536, out.data());  // whole vectors (F16C where the CPU has it)
  for (uint32_t c = 0; c < 65536; ++c) {
    ASSERT_EQ(bits_of(out[c]), bits_of(numerics::fp16_to_fp32(static_cast<uint16_t>(c)))) << "code " << c;
  }
}

// Every run length up to three vectors and more, from a shifting start, so that every remainder of the vector loops
// (and runs shorter than one vector) meets NaNs, subnormals and both zeros; nothing past the run is written.
TEST(NumericsBatch, ShortRunsConvertEveryElementAndNothingElse) {
  std::mt19937 rng(11);
  std::vector<uint16_t> codes(64);
  std::vector<float> floats(64);
  const uint16_t specials[] = {0x0000, 0x8000, 0x0001, 0x83FF, 0x7C00, 0xFC00, 0x7C01, 0x7E00, 0xFDFF, 0x3C00};
  const float poison = float_of(0x7FA5A5A5u);
  const uint16_t poison16 = 0xA5A5;
  for (int64_t n = 0; n <= 40; ++n) {
    for (int64_t start = 0; start < 3; ++start) {
      for (size_t i = 0; i < codes.size(); ++i) {
        codes[i] = (i % 7 == 3) ? specials[(i / 7) % 10] : static_cast<uint16_t>(rng());
        floats[i] = numerics::fp16_to_fp32(codes[i]) * ((i % 5 == 1) ? 1.0009765625f : 1.0f);  // some need rounding
      }
      std::vector<float> out(n + 8, poison);
      numerics::fp16_to_fp32_n(codes.data() + start, 1, n, out.data());
      std::vector<uint16_t> h(n + 8, poison16), b(n + 8, poison16);
      numerics::fp32_to_fp16_n(floats.data() + start, n, h.data(), 1);
      numerics::fp32_to_bf16_n(floats.data() + start, n, b.data(), 1);
      for (int64_t i = 0; i < n + 8; ++i) {
        const bool in_run = i < n;
        const uint16_t code = codes[start + i];
        const float x = floats[start + i];
        EXPECT_EQ(bits_of(out[i]), in_run ? bits_of(numerics::fp16_to_fp32(code)) : bits_of(poison))
            << "decode n " << n << " start " << start << " i " << i;
        EXPECT_EQ(h[i], in_run ? numerics::fp32_to_fp16(x) : poison16) << "fp16 n " << n << " i " << i;
        EXPECT_EQ(b[i], in_run ? numerics::fp32_to_bf16(x) : poison16) << "bf16 n " << n << " i " << i;
      }
    }
  }
}

// Rows of a plane with their own pitches on both sides: every row's elements converted, the gaps left alone.
TEST(NumericsBatch, Fp16RowsConvertEachRowAndLeaveTheGaps) {
  const uint16_t specials[] = {0x0000, 0x8000, 0x0001, 0x83FF, 0x7C00, 0xFC00, 0x7C01, 0x7E00, 0xFDFF, 0x3C00};
  const float poison = float_of(0x7FA5A5A5u);
  std::mt19937 rng(5);
  for (int64_t n : {1, 7, 8, 9, 14, 16, 23}) {
    const int64_t rows = 5, lds = n + 3, ldd = n + 2;
    std::vector<uint16_t> src(rows * lds);
    for (size_t i = 0; i < src.size(); ++i) src[i] = i % 4 == 1 ? specials[i % 10] : static_cast<uint16_t>(rng());
    std::vector<float> dst(rows * ldd, poison);
    numerics::fp16_rows_to_fp32(src.data(), lds, rows, n, dst.data(), ldd);
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t i = 0; i < ldd; ++i) {
        const uint32_t want = i < n ? bits_of(numerics::fp16_to_fp32(src[r * lds + i])) : bits_of(poison);
        EXPECT_EQ(bits_of(dst[r * ldd + i]), want) << "n " << n << " row " << r << " i " << i;
      }
    }
  }
}

}  // namespace

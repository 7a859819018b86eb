// What the per-family microkernel tests share: seeded operands, the poison they check untouched, a scalar model of
// the BF16 pair instruction, and the parameter list of one family's kernels with the reason a kernel cannot run on
// this host.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/isa.hpp"
#include "numerics/bits.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace kernel_test {

// Uniform in (-1, 1) with 23 random mantissa bits: products and sums round (unlike small integers).
inline std::vector<float> random_floats(int64_t n, uint32_t seed) {
  std::vector<float> v(static_cast<size_t>(n));
  for (auto &x : v) {
    seed = seed * 1664525u + 1013904223u;
    x = static_cast<float>(static_cast<int32_t>(seed)) / 2147483648.0f;
  }
  return v;
}

// A quiet NaN with a payload no kernel computes: C outside the corner must keep these exact bits.
inline float poison() {
  const uint32_t bits = 0x7fc0beefu;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

inline bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

using numerics::detail::bits_float;
using numerics::detail::float_bits;

// BF16 values held as fp32, seeded: sign, exponent and 7 mantissa bits random. `tiny` mixes in subnormals and
// exponents whose products fall below 2^-126; otherwise exponents in [2^-20, 2^4).
inline std::vector<float> random_bf16(int64_t n, uint32_t seed, bool tiny) {
  std::vector<float> v(static_cast<size_t>(n));
  for (auto &x : v) {
    seed = seed * 1664525u + 1013904223u;
    const uint32_t r = seed >> 8;
    uint32_t exponent = 107 + r % 24;
    if (tiny && r % 5 == 0) exponent = (r >> 5) % 4 == 0 ? 0 : 1 + (r >> 5) % 60;
    x = bits_float(((r >> 16 & 1u) << 31) | (exponent << 23) | ((r >> 3 & 0x7Fu) << 16));
  }
  return v;
}

// The exponent floor of gemm_bf16_ukernel.hpp (pairs_exact), by a scalar scan.
inline int expected_floor(const std::vector<float> &v) {
  uint32_t largest = 0, smallest = 0x7F7FFFFF;
  for (float x : v) {
    const uint32_t mag = float_bits(x) & 0x7FFFFFFFu;
    largest = std::max(largest, mag);
    if (mag != 0) smallest = std::min(smallest, mag);
  }
  if (largest >= 0x7F800000u || smallest < 0x00800000u) return 0;
  return static_cast<int>(smallest >> 23);
}

// One VDPBF16PS lane, as documented: DAZ on the inputs and the accumulator, FTZ after each of its two additions.
inline float flush(float x) { return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x; }
inline float bf16_half(uint32_t word, bool high) { return flush(bits_float(high ? word & 0xFFFF0000u : word << 16)); }
inline float dot_step(float acc, uint32_t a, uint32_t b) {
  acc = flush(std::fma(bf16_half(a, true), bf16_half(b, true), flush(acc)));
  return flush(std::fma(bf16_half(a, false), bf16_half(b, false), acc));
}

// Pointers to every kernel of a family's table (gtest parameters), in the table's order.
template <typename Kernel, typename List>
std::vector<const Kernel *> pointers(const List &list) {
  std::vector<const Kernel *> all;
  for (const Kernel &k : list) all.push_back(&k);
  return all;
}

// Why `k` cannot run here, naming it ("" when it can): not built for this target, or an ISA the CPU lacks.
template <typename Kernel>
std::string cannot_run(const Kernel &k) {
  if (!k.built()) return std::string(k.name) + ": not built for this target (a kernel of another architecture)";
  if (!isa_includes(cpu_isa(), k.isa)) {
    return std::string(k.name) + ": needs " + isa_name(k.isa) + ", this CPU runs " + isa_name(cpu_isa());
  }
  return "";
}

// A fixture for one family's kernels as gtest parameters: a kernel that cannot run here is skipped, by name and why.
template <typename Kernel>
class RunnableKernel : public ::testing::TestWithParam<const Kernel *> {
 protected:
  void SetUp() override {
    const std::string why = cannot_run(*this->GetParam());
    if (!why.empty()) GTEST_SKIP() << why;
  }
};

}  // namespace kernel_test
}  // namespace conv_bwd
}  // namespace aclnn_cpu

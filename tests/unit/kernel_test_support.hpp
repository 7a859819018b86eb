// What the per-family microkernel tests share: seeded operands, the poison they check untouched, and the
// parameter list of one family's kernels with the reason a kernel cannot run on this host.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/isa.hpp"

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
  if (!k.built()) return std::string(k.name) + ": not built for this target (an x86 kernel)";
  if (static_cast<int>(k.isa) > static_cast<int>(cpu_isa())) {
    return std::string(k.name) + ": needs " + isa_name(k.isa) + ", this CPU runs " + isa_name(cpu_isa());
  }
  return "";
}

}  // namespace kernel_test
}  // namespace conv_bwd
}  // namespace aclnn_cpu

// Bit patterns that exercise float conversions: exact ties and their neighbours at every bit position of every
// binade, plus seeded random patterns. Test-only.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

namespace numerics_patterns {

// For both signs, every biased exponent 0..255 and every cut position d = 1..23 (the number of mantissa bits a
// narrower format drops there): a few kept-mantissa values combined with the dropped part 0, 1, half - 1, half,
// half + 1 and all ones. About 280 000 patterns.
inline std::vector<uint32_t> rounding_edges() {
  std::vector<uint32_t> out;
  std::mt19937 rng(12345);
  for (uint32_t sign = 0; sign < 2; ++sign) {
    for (uint32_t exponent = 0; exponent < 256; ++exponent) {
      for (int d = 1; d <= 23; ++d) {
        const uint32_t kept_max = (1u << (23 - d)) - 1u;
        const uint32_t half = 1u << (d - 1);
        const uint32_t some_kept = kept_max > 0 ? static_cast<uint32_t>(rng() % kept_max) : 0u;
        const uint32_t kept_values[4] = {0, kept_max, kept_max > 0 ? 1u : 0u, some_kept};
        const uint32_t low_values[6] = {0, 1, half - 1, half, half + 1, (half << 1) - 1};
        for (uint32_t kept : kept_values) {
          for (uint32_t low : low_values) out.push_back((sign << 31) | (exponent << 23) | (kept << d) | low);
        }
      }
    }
  }
  return out;
}

// n random patterns with the biased exponent uniform in [min_exponent, max_exponent] and random sign/mantissa.
inline std::vector<uint32_t> random_in_exponents(size_t n, uint32_t min_exponent, uint32_t max_exponent,
                                                 uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<uint32_t> exponent(min_exponent, max_exponent);
  std::vector<uint32_t> out(n);
  for (auto &u : out) u = (static_cast<uint32_t>(rng()) & 0x807FFFFFu) | (exponent(rng) << 23);
  return out;
}

// n uniformly random 32-bit patterns.
inline std::vector<uint32_t> random_any(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint32_t> out(n);
  for (auto &u : out) u = static_cast<uint32_t>(rng());
  return out;
}

}  // namespace numerics_patterns

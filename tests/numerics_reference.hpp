// Slow, obviously correct reference conversions for the number formats of docs/contract.md §4 (test-only; used by the
// unit tests and by fuzz/numerics_fuzz.cpp). Deliberately shares no code or technique with src/numerics/: values are
// computed in double from the format definitions, and rounding picks the nearer of the two representable
// neighbours found in a sorted table of every value of the format (or, for HF32, from ulp arithmetic in double).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace numerics_ref {

inline uint32_t bits_of(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  return u;
}

inline float float_of(uint32_t u) {
  float x;
  std::memcpy(&x, &u, 4);
  return x;
}

// One representable non-negative value of a format and its code.
struct Entry {
  double value;
  uint32_t code;
};

enum class Tie { kToEvenCode, kAwayFromZero };

// The entry nearest to v (v ≥ 0), ties resolved by `tie`. Returns nullptr when v is above the last entry. The
// comparison is against the exact midpoint of the two neighbours (both have few significant bits, so their sum
// is exact in double), never against rounded distances.
inline const Entry *nearest(const std::vector<Entry> &table, double v, Tie tie) {
  auto hi = std::lower_bound(table.begin(), table.end(), v,
                             [](const Entry &e, double value) { return e.value < value; });
  if (hi == table.end()) return nullptr;
  if (hi->value == v || hi == table.begin()) return &*hi;
  auto lo = hi - 1;
  const double mid = (lo->value + hi->value) / 2;
  if (v < mid) return &*lo;
  if (v > mid) return &*hi;
  if (tie == Tie::kAwayFromZero) return &*hi;
  return (lo->code & 1u) == 0 ? &*lo : &*hi;
}

inline std::vector<Entry> sorted(std::vector<Entry> table) {
  std::sort(table.begin(), table.end(), [](const Entry &a, const Entry &b) { return a.value < b.value; });
  return table;
}

// ---------------------------------------------------------------- IEEE binary16
inline double fp16_value(uint16_t code) {  // finite codes only
  const int e = (code >> 10) & 31;
  const int m = code & 1023;
  const double mag = e == 0 ? std::ldexp(m, -24) : std::ldexp(1024 + m, e - 25);
  return (code & 0x8000) ? -mag : mag;
}

inline const std::vector<Entry> &fp16_table() {
  static const std::vector<Entry> table = [] {
    std::vector<Entry> t;
    for (uint32_t c = 0; c < 0x7C00; ++c) t.push_back({fp16_value(static_cast<uint16_t>(c)), c});
    t.push_back({65536.0, 0x7C00});  // Inf stands where the next binade would start (IEEE overflow rule)
    return sorted(t);
  }();
  return table;
}

inline uint16_t fp32_to_fp16(float x) {
  const uint32_t u = bits_of(x);
  const uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  if (std::isnan(x)) return static_cast<uint16_t>(sign | 0x7C00 | 0x0200 | ((u & 0x7FFFFF) >> 13));
  if (std::isinf(x)) return sign | 0x7C00;
  const Entry *e = nearest(fp16_table(), std::fabs(static_cast<double>(x)), Tie::kToEvenCode);
  return static_cast<uint16_t>(sign | (e == nullptr ? 0x7C00 : e->code));
}

inline float fp16_to_fp32(uint16_t code) {
  const bool neg = (code & 0x8000) != 0;
  if ((code & 0x7C00) == 0x7C00) {
    if ((code & 0x3FF) == 0) return neg ? -std::numeric_limits<float>::infinity()
                                        : std::numeric_limits<float>::infinity();
    return float_of((neg ? 0x80000000u : 0u) | 0x7FC00000u | (static_cast<uint32_t>(code & 0x3FF) << 13));
  }
  return static_cast<float>(fp16_value(code));
}

// ---------------------------------------------------------------- bfloat16
inline double bf16_value(uint16_t code) {  // finite codes only
  const int e = (code >> 7) & 255;
  const int m = code & 127;
  const double mag = e == 0 ? std::ldexp(m, -133) : std::ldexp(128 + m, e - 134);
  return (code & 0x8000) ? -mag : mag;
}

inline const std::vector<Entry> &bf16_table() {
  static const std::vector<Entry> table = [] {
    std::vector<Entry> t;
    for (uint32_t c = 0; c < 0x7F80; ++c) t.push_back({bf16_value(static_cast<uint16_t>(c)), c});
    t.push_back({std::ldexp(1.0, 128), 0x7F80});
    return sorted(t);
  }();
  return table;
}

inline uint16_t fp32_to_bf16(float x) {
  const uint32_t u = bits_of(x);
  const uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  if (std::isnan(x)) return static_cast<uint16_t>(sign | 0x7FC0 | ((u & 0x7FFFFF) >> 16));
  if (std::isinf(x)) return sign | 0x7F80;
  const Entry *e = nearest(bf16_table(), std::fabs(static_cast<double>(x)), Tie::kToEvenCode);
  return static_cast<uint16_t>(sign | (e == nullptr ? 0x7F80 : e->code));
}

inline float bf16_to_fp32(uint16_t code) {
  if ((code & 0x7F80) == 0x7F80) return float_of(static_cast<uint32_t>(code) << 16);  // Inf/NaN kept as is
  return static_cast<float>(bf16_value(code));
}

// ---------------------------------------------------------------- HF32
// Keep m of the 23 mantissa bits: in the binade of |x| (the lowest one for subnormals) the step is
// 2^(e - m); round to the nearer multiple, ties away or to the even multiple; reaching 2^128 means Inf.
inline float round_to_hf32(float x, int m, bool ties_away) {
  if (std::isnan(x) || std::isinf(x) || x == 0) return x;
  const double v = std::fabs(static_cast<double>(x));
  int frexp_exp = 0;
  std::frexp(v, &frexp_exp);
  const int e = std::max(frexp_exp - 1, -126);
  const double ulp = std::ldexp(1.0, e - m);
  const double k = std::floor(v / ulp);
  const double lo = k * ulp;
  const double hi = lo + ulp;
  const double mid = lo + ulp / 2;
  double r;
  if (v < mid) {
    r = lo;
  } else if (v > mid) {
    r = hi;
  } else {
    r = (ties_away || std::fmod(k, 2.0) != 0) ? hi : lo;
  }
  const float mag = r >= std::ldexp(1.0, 128) ? std::numeric_limits<float>::infinity() : static_cast<float>(r);
  return std::signbit(x) ? -mag : mag;
}

// ---------------------------------------------------------------- HiFloat8
// Decode by reading the 7 magnitude bits as text and matching the Dot prefixes of docs/contract.md §4.3. 0x6F decodes
// here to the value its bits would have (1.5 · 2^15); hif8_to_fp32 maps it to Inf.
inline double hif8_pattern_value(uint8_t code) {
  std::string bits;
  for (int i = 6; i >= 0; --i) bits += ((code >> i) & 1) ? '1' : '0';
  const auto field = [&](size_t pos, size_t len) {
    return len == 0 ? 0 : std::stoi(bits.substr(pos, len), nullptr, 2);
  };
  double mag;
  if (bits.compare(0, 4, "0000") == 0) {
    const int m = field(4, 3);
    mag = m == 0 ? 0.0 : std::ldexp(1.0, m - 23);
  } else {
    size_t dot_len;
    int d;
    if (bits.compare(0, 4, "0001") == 0) {
      dot_len = 4, d = 0;
    } else if (bits.compare(0, 3, "001") == 0) {
      dot_len = 3, d = 1;
    } else if (bits.compare(0, 2, "01") == 0) {
      dot_len = 2, d = 2;
    } else if (bits.compare(0, 2, "10") == 0) {
      dot_len = 2, d = 3;
    } else {
      dot_len = 2, d = 4;
    }
    const size_t mant_len = 7 - dot_len - d;
    int e = 0;
    if (d > 0) {
      const bool negative = bits[dot_len] == '1';
      const int magnitude = (1 << (d - 1)) + field(dot_len + 1, d - 1);
      e = negative ? -magnitude : magnitude;
    }
    const int mant = field(dot_len + d, mant_len);
    mag = std::ldexp(1.0 + std::ldexp(mant, -static_cast<int>(mant_len)), e);
  }
  return (code & 0x80) ? -mag : mag;
}

inline float hif8_to_fp32(uint8_t code) {
  if (code == 0x80) return std::numeric_limits<float>::quiet_NaN();
  if (code == 0x6F) return std::numeric_limits<float>::infinity();
  if (code == 0xEF) return -std::numeric_limits<float>::infinity();
  return static_cast<float>(hif8_pattern_value(code));
}

inline const std::vector<Entry> &hif8_table() {
  static const std::vector<Entry> table = [] {
    std::vector<Entry> t;
    for (uint32_t c = 0; c < 0x80; ++c) t.push_back({hif8_pattern_value(static_cast<uint8_t>(c)), c});
    return sorted(t);
  }();
  return table;
}

// Ties away; the Inf pattern 0x6F takes part with the value 1.5 · 2^15 and everything above it is Inf too.
inline uint8_t fp32_to_hif8(float x) {
  if (std::isnan(x)) return 0x80;
  const uint8_t sign = std::signbit(x) ? 0x80 : 0;
  if (std::isinf(x)) return sign | 0x6F;
  const Entry *e = nearest(hif8_table(), std::fabs(static_cast<double>(x)), Tie::kAwayFromZero);
  const uint32_t code = e == nullptr ? 0x6F : e->code;
  return code == 0 ? 0 : static_cast<uint8_t>(sign | code);
}

// ---------------------------------------------------------------- FLOAT8_E4M3FN
inline double e4m3_pattern_value(uint8_t code) {
  const int e = (code >> 3) & 15;
  const int m = code & 7;
  const double mag = e == 0 ? std::ldexp(m, -9) : std::ldexp(8 + m, e - 10);
  return (code & 0x80) ? -mag : mag;
}

inline float e4m3fn_to_fp32(uint8_t code) {
  if ((code & 0x7F) == 0x7F) return float_of((code & 0x80 ? 0x80000000u : 0u) | 0x7FC00000u);
  return static_cast<float>(e4m3_pattern_value(code));
}

inline const std::vector<Entry> &e4m3_table() {
  static const std::vector<Entry> table = [] {
    std::vector<Entry> t;
    for (uint32_t c = 0; c <= 0x7F; ++c) t.push_back({e4m3_pattern_value(static_cast<uint8_t>(c)), c});
    return sorted(t);  // 0x7F takes part as 480 so that RNE decides the tie at 464
  }();
  return table;
}

// RNE; a result past 448 (the NaN pattern, or beyond) is overflow: ±448 when saturating, else NaN. Sign kept.
inline uint8_t fp32_to_e4m3fn(float x, bool saturate) {
  const uint8_t sign = std::signbit(x) ? 0x80 : 0;
  if (std::isnan(x)) return sign | 0x7F;
  const uint8_t overflow = static_cast<uint8_t>(sign | (saturate ? 0x7E : 0x7F));
  if (std::isinf(x)) return overflow;
  const Entry *e = nearest(e4m3_table(), std::fabs(static_cast<double>(x)), Tie::kToEvenCode);
  if (e == nullptr || e->code == 0x7F) return overflow;
  return static_cast<uint8_t>(sign | e->code);
}

}  // namespace numerics_ref

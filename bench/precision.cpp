#include "precision.hpp"

#include <cmath>
#include <cstring>

namespace aclnn_cpu {
namespace bench {
namespace {

uint32_t bits_of(float f) {
  uint32_t u = 0;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

float float_of(uint32_t u) {
  float f = 0;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// FP32 and HF32 share the FP32 dtype; HF32 is cubeMathType 3 (USE_HF32).
const PrecisionInfo kInfo[] = {
    {"f32", ACL_FLOAT, 0, 4},
    {"hf32", ACL_FLOAT, 3, 4},
    {"bf16", ACL_BF16, 0, 2},
    {"f16", ACL_FLOAT16, 0, 2},
};

}  // namespace

const PrecisionInfo &info(Precision p) { return kInfo[static_cast<int>(p)]; }

bool parse_precision(const std::string &name, Precision *out) {
  for (int i = 0; i < 4; ++i) {
    if (name == kInfo[i].name) {
      *out = static_cast<Precision>(i);
      return true;
    }
  }
  return false;
}

uint16_t float_to_bf16(float f) {
  const uint32_t u = bits_of(f);
  if (std::isnan(f)) return static_cast<uint16_t>((u >> 16) | 0x40);
  return static_cast<uint16_t>((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}

float bf16_to_float(uint16_t h) { return float_of(static_cast<uint32_t>(h) << 16); }

uint16_t float_to_fp16(float f) {
  const uint32_t u = bits_of(f);
  const uint16_t sign = static_cast<uint16_t>((u >> 16) & 0x8000);
  const uint32_t a = u & 0x7fffffff;
  if (a > 0x7f800000) return sign | 0x7e00;                          // NaN
  if (a >= 0x477ff000) return sign | 0x7c00;                         // rounds to 65536 or beyond: infinity
  if (a < 0x38800000) {                                              // below 2^-14: FP16 subnormal, a multiple of 2^-24
    const float scaled = std::nearbyint(float_of(a) * 16777216.0f);  // default rounding: to nearest even
    return sign | static_cast<uint16_t>(scaled);                     // 1024 becomes the smallest normal, as it should
  }
  const uint32_t mantissa = a & 0x7fffff;
  uint32_t h = ((((a >> 23) - 127 + 15) << 10) | (mantissa >> 13));
  const uint32_t rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (h & 1))) ++h;  // a carry rolls into the exponent correctly
  return sign | static_cast<uint16_t>(h);
}

float fp16_to_float(uint16_t h) {
  const float sign = (h & 0x8000) ? -1.0f : 1.0f;
  const int exponent = (h >> 10) & 0x1f;
  const int mantissa = h & 0x3ff;
  if (exponent == 0) return sign * std::ldexp(static_cast<float>(mantissa), -24);
  if (exponent == 31) return mantissa ? NAN : sign * INFINITY;
  return sign * std::ldexp(static_cast<float>(mantissa | 0x400), exponent - 25);
}

void round_to_dtype(Precision p, std::vector<float> *values) {
  for (float &v : *values) {
    if (p == Precision::kBF16) v = bf16_to_float(float_to_bf16(v));
    if (p == Precision::kF16) v = fp16_to_float(float_to_fp16(v));
  }
}

std::vector<unsigned char> to_bytes(Precision p, const std::vector<float> &values) {
  std::vector<unsigned char> bytes(values.size() * info(p).element_bytes);
  for (size_t i = 0; i < values.size(); ++i) {
    if (info(p).element_bytes == 4) {
      std::memcpy(&bytes[4 * i], &values[i], 4);
    } else {
      const uint16_t h = p == Precision::kBF16 ? float_to_bf16(values[i]) : float_to_fp16(values[i]);
      std::memcpy(&bytes[2 * i], &h, 2);
    }
  }
  return bytes;
}

std::vector<float> from_bytes(Precision p, const std::vector<unsigned char> &bytes) {
  const size_t size = info(p).element_bytes;
  std::vector<float> values(bytes.size() / size);
  for (size_t i = 0; i < values.size(); ++i) {
    if (size == 4) {
      std::memcpy(&values[i], &bytes[4 * i], 4);
    } else {
      uint16_t h = 0;
      std::memcpy(&h, &bytes[2 * i], 2);
      values[i] = p == Precision::kBF16 ? bf16_to_float(h) : fp16_to_float(h);
    }
  }
  return values;
}

}  // namespace bench
}  // namespace aclnn_cpu

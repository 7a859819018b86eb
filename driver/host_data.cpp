#include "host_data.hpp"

#include <cstring>

#include "conformance_tensor.hpp"

namespace aclnn_cpu {
namespace demo {
namespace {

// splitmix64: the same sequence on every platform, so a seed reproduces a case anywhere.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1p-53 * 2.0 - 1.0; }    // [-1, 1)
  double integer() { return static_cast<double>(static_cast<int64_t>(next() % 5) - 2); }  // [-2, 2]

 private:
  uint64_t state_;
};

double draw(Rng &rng, DataKind data, aclDataType dtype) {
  switch (data) {
    case DataKind::kOnes:
      return 1.0;
    case DataKind::kIntegers:
      return rng.integer();
    case DataKind::kRandom:
      break;
  }
  // 8-bit formats have few values near zero; a wider range uses more of their codes.
  const bool narrow = dtype == ACL_HIFLOAT8 || dtype == ACL_FLOAT8_E4M3FN;
  return rng.uniform() * (narrow ? 2.0 : 1.0);
}

}  // namespace

int64_t element_count(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

HostData make_host_data(const conv_bwd::ConvDesc &desc, DataKind data, uint64_t seed) {
  HostData h;
  conv_bwd::desc_shapes(desc, h.shape);
  Rng rng(seed);
  for (int t = 0; t < kTensors; ++t) {
    if (!desc.present[t]) continue;
    const aclDataType dtype = desc.dtype[t];
    const size_t size = conformance::element_bytes(dtype);
    const int64_t n = element_count(h.shape[t]);
    h.bytes[t].assign(static_cast<size_t>(n) * size, 0);
    if (t >= conv_bwd::kDescGradInput) {
      for (int64_t i = 0; i < n; ++i) conformance::poison_pattern(dtype, &h.bytes[t][i * size]);
      continue;
    }
    h.values[t].resize(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      unsigned char *at = &h.bytes[t][i * size];
      conformance::encode(dtype, draw(rng, data, dtype), at);
      h.values[t][i] = conformance::decode(dtype, at);
    }
  }
  return h;
}

std::vector<double> decode_all(aclDataType dtype, const std::vector<unsigned char> &bytes) {
  const size_t size = conformance::element_bytes(dtype);
  std::vector<double> v(bytes.size() / size);
  for (size_t i = 0; i < v.size(); ++i) v[i] = conformance::decode(dtype, &bytes[i * size]);
  return v;
}

bool all_poison(aclDataType dtype, const std::vector<unsigned char> &bytes) {
  const size_t size = conformance::element_bytes(dtype);
  unsigned char poison[4];
  conformance::poison_pattern(dtype, poison);
  for (size_t i = 0; i + size <= bytes.size(); i += size) {
    if (std::memcmp(&bytes[i], poison, size) != 0) return false;
  }
  return true;
}

}  // namespace demo
}  // namespace aclnn_cpu

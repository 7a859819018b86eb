// A user-visible tensor for the conformance tests: a host buffer holding a strided view of any supported
// dtype (permuted dims, gaps, storage offset), followed by guard bytes. Bytes that are not view elements
// are filled with a fixed pattern so that a test can prove nothing outside the view was written.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "acl/acl_base.h"
#include "numerics/formats.hpp"

namespace conformance {

constexpr int64_t kGuardBytes = 64;
constexpr unsigned char kFillByte = 0x5A;

inline size_t element_bytes(aclDataType dtype) {
  switch (dtype) {
    case ACL_FLOAT:
      return 4;
    case ACL_FLOAT16:
    case ACL_BF16:
      return 2;
    default:
      return 1;  // HIFLOAT8, FLOAT8_E4M3FN
  }
}

// How a view is laid out in its buffer.
struct Layout {
  std::vector<int> order;    // dims from outermost to innermost; empty: natural (row-major) order
  int64_t inner_step = 1;    // stride of the innermost dim; > 1 leaves gaps between elements
  int64_t offset = 0;        // storage offset, in elements
};

inline Layout contiguous() { return Layout{}; }

// Encodes `v` in `dtype` (rounding as the library's store would; tests only pass representable values when
// they need exactness).
inline void encode(aclDataType dtype, double v, unsigned char *out,
                   aclnn_cpu::Fp8Overflow overflow = aclnn_cpu::Fp8Overflow::kSaturate) {
  const float f = static_cast<float>(v);
  switch (dtype) {
    case ACL_FLOAT:
      std::memcpy(out, &f, 4);
      break;
    case ACL_FLOAT16: {
      const uint16_t h = aclnn_cpu::numerics::fp32_to_fp16(f);
      std::memcpy(out, &h, 2);
      break;
    }
    case ACL_BF16: {
      const uint16_t b = aclnn_cpu::numerics::fp32_to_bf16(f);
      std::memcpy(out, &b, 2);
      break;
    }
    case ACL_HIFLOAT8:
      *out = aclnn_cpu::numerics::fp32_to_hif8(f);
      break;
    default:
      *out = aclnn_cpu::numerics::fp32_to_e4m3fn(f, overflow);
      break;
  }
}

inline double decode(aclDataType dtype, const unsigned char *in) {
  switch (dtype) {
    case ACL_FLOAT: {
      float f;
      std::memcpy(&f, in, 4);
      return f;
    }
    case ACL_FLOAT16: {
      uint16_t h;
      std::memcpy(&h, in, 2);
      return aclnn_cpu::numerics::fp16_to_fp32(h);
    }
    case ACL_BF16: {
      uint16_t b;
      std::memcpy(&b, in, 2);
      return aclnn_cpu::numerics::bf16_to_fp32(b);
    }
    case ACL_HIFLOAT8:
      return aclnn_cpu::numerics::hif8_to_fp32(*in);
    default:
      return aclnn_cpu::numerics::e4m3fn_to_fp32(*in);
  }
}

// `v` as it reads back after being stored in `dtype`.
inline double round_to(aclDataType dtype, double v,
                       aclnn_cpu::Fp8Overflow overflow = aclnn_cpu::Fp8Overflow::kSaturate) {
  unsigned char bytes[4];
  encode(dtype, v, bytes, overflow);
  return decode(dtype, bytes);
}

// A NaN bit pattern no computation produces (a payload of 0xA5s where the format has room for one).
inline void poison_pattern(aclDataType dtype, unsigned char *out) {
  switch (dtype) {
    case ACL_FLOAT: {
      const uint32_t u = 0x7FA5A5A5u;
      std::memcpy(out, &u, 4);
      break;
    }
    case ACL_FLOAT16: {
      const uint16_t u = 0x7DA5u;
      std::memcpy(out, &u, 2);
      break;
    }
    case ACL_BF16: {
      const uint16_t u = 0x7FA5u;
      std::memcpy(out, &u, 2);
      break;
    }
    case ACL_HIFLOAT8:
      *out = 0x80;  // HiFloat8's only NaN
      break;
    default:
      *out = 0xFF;  // E4M3FN's negative NaN
      break;
  }
}

class TestTensor {
 public:
  TestTensor() = default;
  TestTensor(std::vector<int64_t> shape, aclDataType dtype, const Layout &layout = Layout{})
      : shape_(std::move(shape)), dtype_(dtype), offset_(layout.offset) {
    const size_t rank = shape_.size();
    std::vector<int> order = layout.order;
    if (order.empty()) {
      order.resize(rank);
      std::iota(order.begin(), order.end(), 0);
    }
    strides_.assign(rank, 0);
    int64_t running = layout.inner_step;
    for (size_t i = rank; i-- > 0;) {
      strides_[order[i]] = running;
      running *= std::max<int64_t>(1, shape_[order[i]]);
    }
    numel_ = 1;
    int64_t last = offset_;
    for (size_t d = 0; d < rank; ++d) {
      numel_ *= shape_[d];
      if (shape_[d] > 0) last += (shape_[d] - 1) * strides_[d];
    }
    const int64_t elements = numel_ > 0 ? last + 1 : offset_;
    storage_elements_ = elements;
    buffer_.assign(static_cast<size_t>(elements) * element_bytes(dtype_) + kGuardBytes, kFillByte);
  }

  const std::vector<int64_t> &shape() const { return shape_; }
  const std::vector<int64_t> &strides() const { return strides_; }
  int64_t offset() const { return offset_; }
  aclDataType dtype() const { return dtype_; }
  int64_t numel() const { return numel_; }
  int64_t storage_elements() const { return storage_elements_; }
  void *data() { return buffer_.data(); }
  const std::vector<unsigned char> &bytes() const { return buffer_; }

  // Storage element of logical element `i` (row-major over shape).
  int64_t storage_index(int64_t i) const {
    int64_t at = offset_;
    for (size_t d = shape_.size(); d-- > 0;) {
      at += (i % shape_[d]) * strides_[d];
      i /= shape_[d];
    }
    return at;
  }
  unsigned char *element(int64_t i) { return buffer_.data() + storage_index(i) * element_bytes(dtype_); }
  const unsigned char *element(int64_t i) const {
    return buffer_.data() + storage_index(i) * element_bytes(dtype_);
  }

  double get(int64_t i) const { return decode(dtype_, element(i)); }
  void set(int64_t i, double v) { encode(dtype_, v, element(i)); }
  std::vector<double> values() const {
    std::vector<double> v(static_cast<size_t>(numel_));
    for (int64_t i = 0; i < numel_; ++i) v[i] = get(i);
    return v;
  }

  // Every view element becomes the poison NaN (the rest of the buffer keeps the fill pattern).
  void poison() {
    for (int64_t i = 0; i < numel_; ++i) poison_pattern(dtype_, element(i));
  }
  bool is_poison(int64_t i) const {
    unsigned char p[4];
    poison_pattern(dtype_, p);
    return std::memcmp(p, element(i), element_bytes(dtype_)) == 0;
  }

  // Describes the first byte outside the view that differs from `before` ("" when there is none).
  std::string changed_outside_view(const std::vector<unsigned char> &before) const {
    std::vector<bool> in_view(buffer_.size(), false);
    for (int64_t i = 0; i < numel_; ++i) {
      const size_t at = static_cast<size_t>(storage_index(i)) * element_bytes(dtype_);
      for (size_t b = 0; b < element_bytes(dtype_); ++b) in_view[at + b] = true;
    }
    for (size_t b = 0; b < buffer_.size(); ++b) {
      if (!in_view[b] && buffer_[b] != before[b]) {
        return "byte " + std::to_string(b) + " of " + std::to_string(buffer_.size()) +
               (b >= buffer_.size() - kGuardBytes ? " (guard)" : " (gap)") + " was written";
      }
    }
    return "";
  }

 private:
  std::vector<int64_t> shape_;
  std::vector<int64_t> strides_;
  aclDataType dtype_ = ACL_FLOAT;
  int64_t offset_ = 0;
  int64_t numel_ = 0;
  int64_t storage_elements_ = 0;
  std::vector<unsigned char> buffer_;
};

}  // namespace conformance

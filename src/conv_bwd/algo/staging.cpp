#include "conv_bwd/algo/staging.hpp"

#include <limits>

#include "conv_bwd/parallel.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

constexpr uint64_t kAlignment = 64;

uint64_t float_bytes(const TensorArg &t) {
  uint64_t n = 1;
  for (int64_t s : t.shape) {
    if (s <= 0) return 0;
    if (__builtin_mul_overflow(n, static_cast<uint64_t>(s), &n)) return std::numeric_limits<uint64_t>::max();
  }
  if (__builtin_mul_overflow(n, uint64_t{sizeof(float)}, &n)) return std::numeric_limits<uint64_t>::max();
  return n;
}

// Appends a block of `bytes` at the next aligned offset; saturates instead of wrapping.
uint64_t append(uint64_t *total, uint64_t bytes) {
  const uint64_t kMax = std::numeric_limits<uint64_t>::max();
  const uint64_t at = *total;
  uint64_t end = 0;
  if (__builtin_add_overflow(at, bytes, &end) || end > kMax - kAlignment) {
    *total = kMax;
    return at;
  }
  *total = (end + kAlignment - 1) / kAlignment * kAlignment;
  return at;
}

}  // namespace

StagingLayout staging_layout(const Problem &p, bool grad_input, bool grad_weight) {
  StagingLayout layout;
  if (p.empty_path) return layout;
  layout.grad_output = grad_input || grad_weight;
  layout.input = grad_weight;
  layout.weight = grad_input;
  if (layout.grad_output) layout.grad_output_at = append(&layout.bytes, float_bytes(p.grad_output));
  if (layout.input) layout.input_at = append(&layout.bytes, float_bytes(p.input));
  if (layout.weight) layout.weight_at = append(&layout.bytes, float_bytes(p.weight));
  return layout;
}

void stage_operand(const View5 &src, const Rounding &rounding, float *dst) {
  const int64_t rows = src.shape[0] * src.shape[1] * src.shape[2] * src.shape[3];
  const int64_t width = src.shape[4];
  parallel_for(rows, width, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      int64_t rest = r;
      const int64_t h = rest % src.shape[3];
      rest /= src.shape[3];
      const int64_t d = rest % src.shape[2];
      rest /= src.shape[2];
      const int64_t b = rest % src.shape[1];
      const int64_t a = rest / src.shape[1];
      const int64_t at = src.index(a, b, d, h, 0);
      float *row = dst + r * width;
      for (int64_t w = 0; w < width; ++w) {
        row[w] = rounding.operand(load_value(src.data, src.dtype, at + w * src.strides[4]));
      }
    }
  });
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu

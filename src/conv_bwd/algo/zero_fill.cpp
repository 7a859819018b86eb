#include "conv_bwd/algo/zero_fill.hpp"

#include "conv_bwd/tensor_io.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

void zero_fill(const TensorArg &tensor) {
  const size_t rank = tensor.shape.size();
  for (int64_t s : tensor.shape) {
    if (s <= 0) return;
  }
  // Odometer over the view; the last dim varies fastest. (Ranks are at most 8, the aclTensor limit of CANN's formats
  // this operator accepts; on the stack: a launch allocates nothing.)
  constexpr size_t kMaxRank = 8;
  if (rank > kMaxRank) return;
  int64_t idx[kMaxRank] = {};
  for (;;) {
    int64_t at = tensor.offset;
    for (size_t i = 0; i < rank; ++i) at += idx[i] * tensor.strides[i];
    store_value(tensor.data, tensor.dtype, at, 0.0f, Fp8Overflow::kSaturate);
    size_t i = rank;
    while (i > 0 && ++idx[i - 1] == tensor.shape[i - 1]) idx[--i] = 0;
    if (i == 0) return;
  }
}

void zero_fill_outside(const View5 &v, const int64_t begin[3], const int64_t size[3]) {
  bool empty_box = false;
  for (int d = 0; d < 3; ++d) empty_box = empty_box || size[d] <= 0;
  auto zero = [&](int64_t at) { store_value(v.data, v.dtype, at, 0.0f, Fp8Overflow::kSaturate); };
  auto inside = [&](int d, int64_t i) { return !empty_box && i >= begin[d] && i < begin[d] + size[d]; };
  for (int64_t a = 0; a < v.shape[0]; ++a) {
    for (int64_t b = 0; b < v.shape[1]; ++b) {
      for (int64_t d = 0; d < v.shape[2]; ++d) {
        for (int64_t h = 0; h < v.shape[3]; ++h) {
          const bool row_inside = inside(0, d) && inside(1, h);
          for (int64_t w = 0; w < v.shape[4]; ++w) {
            if (!row_inside || !inside(2, w)) zero(v.index(a, b, d, h, w));
          }
        }
      }
    }
  }
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu

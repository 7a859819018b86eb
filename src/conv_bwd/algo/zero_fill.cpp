#include "conv_bwd/algo/zero_fill.hpp"

#include <vector>

#include "conv_bwd/tensor_io.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

void zero_fill(const TensorArg &tensor) {
  const size_t rank = tensor.shape.size();
  for (int64_t s : tensor.shape) {
    if (s <= 0) return;
  }
  // Odometer over the view; the last dim varies fastest.
  std::vector<int64_t> idx(rank, 0);
  for (;;) {
    int64_t at = tensor.offset;
    for (size_t i = 0; i < rank; ++i) at += idx[i] * tensor.strides[i];
    store_value(tensor.data, tensor.dtype, at, 0.0f, Fp8Overflow::kSaturate);
    size_t i = rank;
    while (i > 0 && ++idx[i - 1] == tensor.shape[i - 1]) idx[--i] = 0;
    if (i == 0) return;
  }
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu

#include "conv_bwd/algo/grad_bias.hpp"

#include "conv_bwd/parallel.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

void grad_bias(const View5 &go, const Rounding &rounding, const TensorArg &grad_bias) {
  const int64_t channels = go.shape[1];
  parallel_for(channels, go.shape[0] * go.spatial_numel(), [&](int64_t begin, int64_t end) {
    for (int64_t c = begin; c < end; ++c) {
      double sum = 0.0;
      for (int64_t n = 0; n < go.shape[0]; ++n) {
        for (int64_t d = 0; d < go.shape[2]; ++d) {
          for (int64_t h = 0; h < go.shape[3]; ++h) {
            const int64_t at = go.index(n, c, d, h, 0);
            for (int64_t w = 0; w < go.shape[4]; ++w) sum += load_value(go.data, go.dtype, at + w * go.strides[4]);
          }
        }
      }
      store_value(grad_bias.data, grad_bias.dtype, grad_bias.offset + c * grad_bias.strides[0],
                  rounding.grad_bias(sum), rounding.fp8_overflow());
    }
  });
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu

#include "conv_bwd/algo/weight_partials.hpp"

#include <atomic>

#include "conv_bwd/algo/operand_reader.hpp"
#include "conv_bwd/algo/result_runs.hpp"
#include "conv_bwd/parallel.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

bool store_weight_partials(const Canonical &c, int64_t parts, const GemmScratch &s, const Rounding &rounding,
                           const View5 &grad_weight) {
  const int64_t m = c.cy_per_group, n_cols = c.cx_per_group * c.kernel_numel(), rows = c.groups * m;
  std::atomic<bool> finite{true};
  // One dW row per item.
  parallel_for_slots(rows, s.slots, static_cast<double>(rows) * n_cols * parts, [&](int, int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const int64_t g = r / m, row = r % m;
      float *sum = weight_partial(c, s, 0, g) + row * n_cols;
      for (int64_t part = 1; part < parts; ++part) {
        const float *add = weight_partial(c, s, part, g) + row * n_cols;
        for (int64_t j = 0; j < n_cols; ++j) sum[j] += add[j];
      }
      if (!all_finite(sum, n_cols)) finite.store(false, std::memory_order_relaxed);
      store_run(grad_weight, r, -1, 0, n_cols, sum, ResultKind::kGradWeight, rounding);
    }
  });
  return finite.load();
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu

#include "conv_bwd/algo/weight_partials.hpp"

#include <atomic>

#include "conv_bwd/algo/operand_reader.hpp"
#include "conv_bwd/algo/result_runs.hpp"
#include "conv_bwd/parallel.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

bool weight_written_in_place(int64_t k_parts, const Canonical &c, const View5 &grad_weight) {
  return k_parts == 1 && grad_weight.dtype == ACL_FLOAT && grad_weight.contiguous_rows() &&
         grad_weight.strides[0] >= c.cx_per_group * c.kernel_numel();
}

float *weight_accumulator(const Canonical &c, const GemmScratch &s, const View5 &grad_weight, bool in_place,
                          int64_t part, int64_t g, int64_t row0, int64_t col0, int64_t *ldc) {
  if (in_place) {
    *ldc = grad_weight.strides[0];
    return static_cast<float *>(grad_weight.data) + grad_weight.index(g * c.cy_per_group + row0, 0, 0, 0, 0) + col0;
  }
  *ldc = c.cx_per_group * c.kernel_numel();
  return weight_partial(c, s, part, g) + row0 * *ldc + col0;
}

bool finish_weight_columns(const Canonical &c, const View5 &grad_weight, bool in_place, const float *acc, int64_t ldc,
                           int64_t g, int64_t row0, int64_t rows, int64_t col0, int64_t count, const Rounding &rounding,
                           bool scan) {
  if (in_place && !scan) return true;
  bool finite = true;
  for (int64_t r = 0; r < rows; ++r) {
    const float *row = acc + r * ldc;
    if (scan) finite &= all_finite(row, count);
    if (!in_place)
      store_run(grad_weight, g * c.cy_per_group + row0 + r, -1, col0, count, row, ResultKind::kGradWeight, rounding);
  }
  return finite;
}

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

WorkPhase weight_partials_phase(const Canonical &c, int64_t parts, int slots, Isa isa) {
  const int64_t n_cols = c.cx_per_group * c.kernel_numel(), rows = c.groups * c.cy_per_group;
  return uniform_phase("weight_partials", LoopKind::kSlots, rows, slots, static_cast<double>(rows) * n_cols * parts,
                       stream_cost(isa) * static_cast<double>(n_cols * (parts + 1)));
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu

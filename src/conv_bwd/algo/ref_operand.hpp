// An operand of the reference algorithms (gather.hpp, grad_weight.hpp): its staged fp32 copy — dense in the view's
// [A][B][D][H][W] order, each value rounded to the compute type — or, when there is none (a fast algorithm met a
// non-finite value and hands its output over at launch, where nothing may be allocated), the caller's view itself,
// each value rounded as it is read. Both give the same values, so the same sums.
#pragma once

#include <cstdint>

#include "conv_bwd/algo/rounding.hpp"
#include "conv_bwd/tensor_io.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

class RefOperand {
 public:
  // staged: the copy of `view` (or nullptr: read `view`).
  RefOperand(const float *staged, const View5 &view, const Rounding &rounding)
      : staged_(staged), view_(view), rounding_(&rounding) {
    if (staged_ != nullptr) {
      offset_ = 0;
      strides_[4] = 1;
      for (int d = 3; d >= 0; --d) strides_[d] = strides_[d + 1] * view.shape[d + 1];
    } else {
      offset_ = view.offset;
      for (int d = 0; d < 5; ++d) strides_[d] = view.strides[d];
    }
  }

  int64_t index(int64_t a, int64_t b, int64_t d, int64_t h, int64_t w) const {
    return offset_ + a * strides_[0] + b * strides_[1] + d * strides_[2] + h * strides_[3] + w * strides_[4];
  }
  int64_t stride(int dim) const { return strides_[dim]; }

  double at(int64_t index) const {
    if (staged_ != nullptr) return staged_[index];
    return rounding_->operand(load_value(view_.data, view_.dtype, index));
  }

  // The same reads for loops that decide once (with_reader) whether the operand is staged.
  struct Staged {
    const float *values;
    double at(int64_t index) const { return values[index]; }
  };
  struct Viewed {
    View5 view;
    const Rounding *rounding;
    double at(int64_t index) const { return rounding->operand(load_value(view.data, view.dtype, index)); }
  };
  template <typename Visit>
  void with_reader(Visit visit) const {
    if (staged_ != nullptr) {
      visit(Staged{staged_});
    } else {
      visit(Viewed{view_, rounding_});
    }
  }

 private:
  const float *staged_;
  View5 view_;
  const Rounding *rounding_;
  int64_t strides_[5] = {0, 0, 0, 0, 0};
  int64_t offset_ = 0;
};

}  // namespace conv_bwd
}  // namespace aclnn_cpu

#include "conv_bwd/output_size.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

// A value of the formula in 128 bits, and whether it and every step on the way to it fit in int64: what a chain of
// overflow-checked int64 operations in the same order would have said.
class Steps {
 public:
  explicit Steps(Int128 v) : value_(v), fit_(v >= INT64_MIN && v <= INT64_MAX) {}

  Steps plus(Int128 x) const { return then(value_ + x); }
  Steps minus(Int128 x) const { return then(value_ - x); }
  Steps times(Int128 x) const { return then(value_ * x); }
  Int128 value() const { return value_; }
  bool fit() const { return fit_; }

 private:
  Steps then(Int128 v) const {
    Steps next(v);
    next.fit_ = next.fit_ && fit_;
    return next;
  }

  Int128 value_;
  bool fit_;
};

Steps pads(const DimSizes &d) { return Steps(d.attr.pad_begin).plus(d.attr.pad_end); }
Steps reach(const DimSizes &d) { return Steps(d.kernel - 1).times(d.attr.dilation); }

}  // namespace

OutputSize forward_output_size(const DimSizes &d) {
  const Steps p = pads(d), r = reach(d);
  const Steps span = Steps(d.in).plus(p.value()).minus(r.value()).minus(1);
  OutputSize size;
  size.overflow = !p.fit() || !r.fit() || !span.fit();
  size.kernel_too_big = !size.overflow && span.value() < 0;
  size.exact = floor_div(span.value(), Int128{d.attr.stride}) + 1;
  return size;
}

OutputSize transposed_output_size(const DimSizes &d) {
  const Steps p = pads(d), r = reach(d);
  const Steps size_steps =
      Steps(d.in - 1).times(d.attr.stride).minus(p.value()).plus(r.value()).plus(d.attr.output_padding).plus(1);
  OutputSize size;
  size.overflow = !p.fit() || !r.fit() || !size_steps.fit();
  size.exact = size_steps.value();
  return size;
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu

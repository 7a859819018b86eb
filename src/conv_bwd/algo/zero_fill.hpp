// The empty-tensor path's only arithmetic (docs/contract.md §2.5, §3.9): an output filled with zeros through its view.
#pragma once

#include <cstdint>

#include "conv_bwd/problem.hpp"
#include "conv_bwd/tensor_io.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

// Writes +0 (in the tensor's dtype) to every element of `tensor`'s view, of any rank.
void zero_fill(const TensorArg &tensor);

// Writes +0 to every element of `view` whose spatial position (D, H, W) lies outside the box [begin, begin + size)
// (all of them when the box is empty).
void zero_fill_outside(const View5 &view, const int64_t begin[3], const int64_t size[3]);

}  // namespace conv_bwd
}  // namespace aclnn_cpu

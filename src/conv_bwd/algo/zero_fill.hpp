// The empty-tensor path's only arithmetic (SPEC §2.5, §3.9): an output filled with zeros through its view.
#pragma once

#include "conv_bwd/problem.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

// Writes +0 (in the tensor's dtype) to every element of `tensor`'s view, of any rank.
void zero_fill(const TensorArg &tensor);

}  // namespace conv_bwd
}  // namespace aclnn_cpu

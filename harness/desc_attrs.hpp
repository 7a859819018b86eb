// The non-tensor arguments of the call a problem descriptor (conv_bwd/descriptor.hpp) describes.
#pragma once

#include "conv_bwd/descriptor.hpp"
#include "harness/conv_call.hpp"

namespace aclnn_cpu {
namespace harness {

// The attributes from the descriptor's D/H/W slots that the call names (1-D: W, 2-D: H and W); asymmetric
// padding as a begin and an end per dim (the 4-value 2-D form; other ranks take no such form and are refused);
// biasSizes [oc]; the descriptor's mask, groups and cubeMathType.
ConvAttrs desc_attrs(const conv_bwd::ConvDesc &desc);

}  // namespace harness
}  // namespace aclnn_cpu

// Reads the attributes of one spatial dim once V5 has validated the array lengths. A 2-D padding of length 4
// is [top, bottom, left, right] (docs/contract.md §2.4b). outputPadding only ever adds at the end of a dim, so from a
// 4-element 2-D outputPadding we take the begin entries [0] (H) and [2] (W), by analogy with padding.
#include "conv_bwd/validate/stages.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

SpatialAttr spatial_attr(const Call &call, int d) {
  const size_t i = static_cast<size_t>(d);
  const bool four = call.dims == 4;
  SpatialAttr a;
  a.stride = call.stride()[i];
  a.dilation = call.dilation()[i];
  const Span<int64_t> pad = call.padding();
  if (four && pad.size() == 4) {
    a.pad_begin = pad[2 * i];
    a.pad_end = pad[2 * i + 1];
  } else {
    a.pad_begin = a.pad_end = pad[i];
  }
  const Span<int64_t> op = call.output_padding();
  a.output_padding = (four && op.size() == 4) ? op[2 * i] : op[i];
  return a;
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu

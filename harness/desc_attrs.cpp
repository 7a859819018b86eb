#include "harness/desc_attrs.hpp"

namespace aclnn_cpu {
namespace harness {

ConvAttrs desc_attrs(const conv_bwd::ConvDesc &d) {
  ConvAttrs a;
  std::vector<int64_t> pad_pairs;
  bool asymmetric = false;
  for (int s = 3 - d.spatial_rank; s < 3; ++s) {
    a.stride.push_back(d.stride[s]);
    a.dilation.push_back(d.dilation[s]);
    a.output_padding.push_back(d.output_padding[s]);
    a.padding.push_back(d.pad_begin[s]);
    pad_pairs.push_back(d.pad_begin[s]);
    pad_pairs.push_back(d.pad_end[s]);
    asymmetric = asymmetric || d.pad_begin[s] != d.pad_end[s];
  }
  if (asymmetric) a.padding = pad_pairs;
  a.bias_sizes = {d.oc};
  a.transposed = d.transposed;
  a.groups = static_cast<int>(d.groups);
  for (int i = 0; i < 3; ++i) a.mask[i] = d.mask[i];
  a.cube_math_type = static_cast<int8_t>(d.cube_math_type);
  return a;
}

}  // namespace harness
}  // namespace aclnn_cpu

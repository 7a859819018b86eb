// A convolution-backward call described by sizes, attributes and settings only (no data), and its one-line
// text form in the manner of benchdnn's problem descriptors. The text is printed by logs and the demo driver
// and read back by the driver, so a failing case can be re-run from its line:
//
//   mb2_g1_ic2oc2_ih7iw7_oh7ow7_kh1kw1_sh1sw1_ph0pw0_dh1dw1_dtf32_mask111_cmt1_Ascend910B
//
// Fields (separated by '_'; order as above, any order accepted when reading):
//   mb N, g groups, ic channels of `input`, oc channels of `gradOutput`;
//   i{d,h,w} sizes of `input`, o{d,h,w} sizes of `gradOutput`, k{d,h,w} kernel, s{d,h,w} stride,
//   p{d,h,w} padding ("ph1" symmetric, "ph1:2" begin 1 end 2, as a 4-value 2-D padding gives),
//   d{d,h,w} dilation (1 = dense, CANN's convention, not oneDNN's 0-based one);
//   a 1-D call names only w, a 2-D call h and w, a 3-D call d, h and w;
//   "tr1" transposed, followed by "op{d,h,w}" outputPadding (both only when transposed);
//   dt dtypes of gradOutput:input:weight:gradInput:gradWeight:gradBias ("dtf16" when all six are equal;
//   tokens f32 f16 bf16 hif8 e4m3; "-" for an output that is not passed);
//   mask outputMask as three 0/1 digits; cmt cubeMathType; the emulated product's SoC name.
// When reading, omitted fields take defaults: mb1 g1, k1 s1 p0 d1 op0, all f32, mask111, cmt0,
// Ascend910B; omitted gradOutput sizes are computed from the others.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl_base.h"
#include "core/config.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

enum DescTensor { kDescGradOutput, kDescInput, kDescWeight, kDescGradInput, kDescGradWeight, kDescGradBias };

struct ConvDesc {
  int spatial_rank = 2;  // 1, 2 or 3
  bool transposed = false;
  int64_t mb = 1, groups = 1;
  int64_t ic = 1;  // input.shape[1]
  int64_t oc = 1;  // gradOutput.shape[1]
  // Spatial values in D, H, W order; a 1-D call uses W only, a 2-D call H and W (the rest stay at defaults).
  int64_t in[3] = {1, 1, 1};
  int64_t out[3] = {1, 1, 1};
  int64_t kernel[3] = {1, 1, 1};
  int64_t stride[3] = {1, 1, 1};
  int64_t pad_begin[3] = {0, 0, 0};
  int64_t pad_end[3] = {0, 0, 0};
  int64_t dilation[3] = {1, 1, 1};
  int64_t output_padding[3] = {0, 0, 0};
  aclDataType dtype[6] = {ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, ACL_FLOAT};
  bool present[6] = {true, true, true, true, true, true};  // outputs may be absent (not passed)
  bool mask[3] = {true, true, true};
  int cube_math_type = 0;
  Product product = Product::kAscend910B;
};

// gradOutput's size along one spatial dim implied by the others (docs/contract.md §3.2 / §3.3).
int64_t implied_out_size(const ConvDesc &desc, int dim);

// Shapes of the six tensors ([N, C, spatial...]; weight [Cout, Cin/g, k...] or [Cin, Cout/g, k...];
// gradBias [oc]).
void desc_shapes(const ConvDesc &desc, std::vector<int64_t> shapes[6]);

std::string format_desc(const ConvDesc &desc);

// Reads a line written by format_desc (or a hand-written one). On failure returns false and says why.
bool parse_desc(const std::string &text, ConvDesc *desc, std::string *error);

const char *dtype_token(aclDataType dtype);

}  // namespace conv_bwd
}  // namespace aclnn_cpu

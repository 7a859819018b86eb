// Case lists shared by the direct-path and API-path conformance suites: named feature cases (each isolates
// one geometry feature: stride, padding, dilation, groups, transposition, rank) and seeded random configurations.
#pragma once

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "problem_builder.hpp"

namespace conformance {

// Geometry features; dtypes and settings default (fp32, mask111, cmt0, Ascend910B).
inline const std::vector<std::string> &feature_cases() {
  static const std::vector<std::string> cases = {
      // 1-D
      "mb2_g1_ic3oc4_iw11_kw3_sw2_pw1_dw2",               // stride, padding, dilation
      "mb2_g4_ic4oc8_iw9_kw3_sw1_pw1_dw1",                // depthwise, channel multiplier 2
      "mb1_g1_ic2oc3_iw13_kw2_sw5_pw0_dw1",               // stride > kernel: skipped positions
      "mb1_g1_ic2oc2_iw5_kw2_sw1_pw3_dw1",                // padding >= kernel
      "mb2_g1_ic1oc1_iw16_kw16_sw1_pw0_dw1",              // kernel spans the whole length (950 matmul shape)
      // 2-D
      "mb2_g2_ic4oc6_ih7iw8_kh3kw2_sh2sw1_ph1pw0_dh1dw2",  // groups, mixed attributes
      "mb1_g1_ic3oc2_ih6iw7_kh3kw3_sh2sw2_ph0:2pw1:0_dh1dw1",  // asymmetric padding
      "mb2_g6_ic6oc6_ih9iw9_kh3kw3_sh2sw2_ph1pw1_dh1dw1",  // depthwise
      "mb1_g3_ic3oc6_ih5iw6_kh3kw3_sh1sw1_ph1pw1_dh1dw1",  // depthwise, multiplier 2
      "mb1_g1_ic2oc2_ih10iw11_kh3kw3_sh3sw4_ph0pw1_dh1dw1",  // (In+pb+pe-dil(k-1)-1) mod s != 0
      "mb1_g1_ic2oc2_ih12iw12_kh2kw2_sh5sw4_ph0pw0_dh1dw1",  // stride > kernel
      "mb1_g1_ic2oc2_ih4iw4_kh2kw3_sh1sw1_ph2pw4_dh1dw1",  // padding >= kernel
      "mb1_g2_ic4oc4_ih16iw21_kh5kw5_sh1sw1_ph3pw4_dh4dw7",  // large dilation (ttk_003-like)
      "mb2_g1_ic3oc5_ih10iw10_kh3kw3_sh1sw1_ph1pw1_dh1dw1",  // torch_npu test_noncontig_conv_grad geometry
      "mb2_g2_ic2oc2_ih4iw20_kh3kw5_sh1sw10_ph0pw0_dh1dw1",  // test_Conv2d_backward_depthwise
      "mb1_g1_ic1oc1_ih10iw11_kh4kw5_sh1sw1_ph3pw4_dh2dw2",  // test_conv2d_same_padding_backward
      "mb1_g1_ic1oc1_ih10iw11_kh4kw4_sh1sw1_ph1:2pw1:2_dh1dw1",  // 'same' with an even kernel (asymmetric)
      "mb3_g1_ic4oc5_ih6iw6_kh1kw1_sh2sw2_ph0pw0_dh1dw1",  // 1x1 strided
      "mb1_g1_ic1oc1_iw12_kw4_sw1_pw3_dw2",                // test_conv1d_same_padding_backward
      "mb1_g1_ic1oc1_iw12_kw4_sw1_pw0_dw1",                // test_conv1d_valid_padding_backward
      "mb2_g1_ic3oc3_ih5iw5_kh1kw1_sh1sw1_ph0pw0_dh1dw1",  // test_Conv2d_size_1_kernel
      // 3-D
      "mb2_g2_ic4oc4_id5ih6iw5_kd3kh2kw3_sd2sh1sw2_pd1ph0pw1_dd1dh2dw1",
      "mb1_g4_ic4oc8_id4ih5iw4_kd3kh3kw3_sd1sh2sw1_pd1ph1pw1_dd1dh1dw1",  // depthwise 3-D
      "mb2_g2_ic4oc16_id6ih6iw6_kd3kh3kw3_sd1sh1sw1_pd0ph0pw0_dd1dh1dw1",  // test_Conv3d_groups_nobias
      "mb1_g1_ic3oc4_id3ih7iw5_kd2kh3kw2_sd3sh2sw3_pd2ph0pw1_dd1dh2dw1",
      "mb1_g1_ic1oc1_id1ih11iw12_kd1kh2kw5_sd1sh1sw1_pd0ph1pw4_dd2dh2dw2",  // test_conv3d_same_padding_backward
      // transposed
      "mb2_g1_ic3oc2_iw5_kw3_sw2_pw1_dw1_tr1_opw1",
      "mb1_g2_ic4oc6_ih4iw5_kh3kw3_sh2sw3_ph1pw1_dh1dw1_tr1_oph1opw2",
      "mb1_g1_ic2oc3_ih4iw4_kh3kw2_sh2sw2_ph1:0pw0:1_dh1dw1_tr1_oph0opw1",
      "mb1_g1_ic2oc3_id3ih4iw3_kd2kh3kw2_sd2sh2sw1_pd0ph1pw0_dd1dh1dw2_tr1_opd1oph0opw0",
      "mb2_g4_ic4oc4_ih5iw5_kh3kw3_sh2sw2_ph1pw1_dh1dw1_tr1_oph1opw1",  // transposed depthwise
      "mb1_g1_ic4oc3_ih6iw6_kh3kw3_sh2sw2_ph1pw1_dh1dw1_tr1_oph1opw1",  // ConvTranspose2d large output padding
      "mb1_g1_ic16oc3_id4ih10iw10_kd4kh4kw4_sd2sh2sw2_pd3ph3pw3_dd1dh1dw1_tr1_opd0oph0opw0",  // atk 211 scaled
      "mb2_g1_ic3oc3_id3ih5iw5_kd1kh1kw1_sd1sh1sw1_pd0ph0pw0_dd1dh1dw1_tr1_opd0oph0opw0",  // size-1 kernel
      "mb2_g1_ic3oc3_ih5iw5_kh1kw1_sh1sw1_ph0pw0_dh1dw1_tr1_oph0opw0",  // test_ConvTranspose2d_size_1_kernel
      "mb1_g1_ic16oc8_ih6iw6_kh3kw3_sh2sw2_ph1pw1_dh1dw1_tr1_oph1opw1",  // ConvTranspose2d chain, first layer scaled
      "mb1_g2_ic4oc6_iw6_kw3_sw2_pw0_dw3_tr1_opw2",  // output padding >= stride, < dilation (PyTorch allows it)
  };
  return cases;
}

// A valid random configuration (sizes small enough for the fp64 reference).
inline ConvCase random_case(uint64_t seed) {
  Rng r(seed * 7919 + 17);
  ConvCase c;
  c.seed = seed;
  ConvDesc &d = c.desc;
  d.spatial_rank = 1 + static_cast<int>(r.next() % 3);
  d.transposed = r.next() % 3 == 0;
  const bool depthwise = r.next() % 5 == 0;
  d.groups = depthwise ? 1 + static_cast<int64_t>(r.next() % 4) : (r.next() % 3 == 0 ? 2 + static_cast<int64_t>(r.next() % 2) : 1);
  const int64_t cx_g = depthwise ? 1 : 1 + static_cast<int64_t>(r.next() % 3);
  const int64_t cy_g = 1 + static_cast<int64_t>(r.next() % 3);
  d.mb = 1 + static_cast<int64_t>(r.next() % 2);
  const int first = 3 - d.spatial_rank;
  const int64_t max_k = d.spatial_rank == 3 ? 2 : 3;
  for (int i = first; i < 3; ++i) {
    d.kernel[i] = 1 + static_cast<int64_t>(r.next() % max_k);
    d.stride[i] = 1 + static_cast<int64_t>(r.next() % 3);
    d.dilation[i] = 1 + static_cast<int64_t>(r.next() % 2);
    d.pad_begin[i] = static_cast<int64_t>(r.next() % (d.kernel[i] + 2));
    d.pad_end[i] = d.pad_begin[i];
    if (d.spatial_rank == 2 && r.next() % 3 == 0) d.pad_end[i] = static_cast<int64_t>(r.next() % (d.kernel[i] + 2));
    const int64_t span = d.dilation[i] * (d.kernel[i] - 1) + 1;
    const int64_t extra = static_cast<int64_t>(r.next() % (d.spatial_rank == 3 ? 3 : 6));
    if (!d.transposed) {
      d.in[i] = std::max<int64_t>(1, span - d.pad_begin[i] - d.pad_end[i]) + extra;
    } else {
      d.output_padding[i] = static_cast<int64_t>(r.next() % d.stride[i]);
      d.in[i] = 1 + extra;
      // gradOutput (the transposed output) must have at least one position.
      while ((d.in[i] - 1) * d.stride[i] - d.pad_begin[i] - d.pad_end[i] + span + d.output_padding[i] < 1) {
        ++d.in[i];
      }
    }
  }
  d.ic = d.groups * (d.transposed ? cy_g : cx_g);
  d.oc = d.groups * (d.transposed ? cx_g : cy_g);
  for (int i = first; i < 3; ++i) d.out[i] = aclnn_cpu::conv_bwd::implied_out_size(d, i);
  do {
    for (int m = 0; m < 3; ++m) d.mask[m] = r.next() % 4 != 0;
  } while (!d.mask[0] && !d.mask[1] && !d.mask[2]);
  const uint64_t dt = r.next() % 10;
  const aclDataType dtype = dt < 6 ? ACL_FLOAT : dt < 8 ? ACL_FLOAT16 : ACL_BF16;
  for (aclDataType &t : d.dtype) t = dtype;
  d.cube_math_type = static_cast<int>(r.next() % 4);
  d.product = r.next() % 2 ? aclnn_cpu::Product::kAscend910B : aclnn_cpu::Product::kAscend950;
  c.data = r.next() % 2 ? Data::kIntegers : Data::kRandom;
  for (int s = 0; s < kSlots; ++s) {
    if (r.next() % 3 != 0) continue;
    const int rank = s == kGradBias ? 1 : d.spatial_rank + 2;
    Layout &l = c.layout[s];
    l.order.resize(rank);
    std::iota(l.order.begin(), l.order.end(), 0);
    for (int i = rank - 1; i > 0; --i) std::swap(l.order[i], l.order[r.next() % (i + 1)]);
    l.inner_step = 1 + static_cast<int64_t>(r.next() % 2);
    l.offset = static_cast<int64_t>(r.next() % 8);
  }
  return c;
}

}  // namespace conformance

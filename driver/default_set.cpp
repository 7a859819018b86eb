#include "default_set.hpp"

namespace aclnn_cpu {
namespace demo {

std::vector<DemoCase> default_set() {
  std::vector<DemoCase> cases;
  // CANN's sample: every input 1, so each gradInput element sums 2 output channels and each gradWeight and
  // gradBias element 2 images x 7 x 7 positions.
  DemoCase sample;
  sample.label = "CANN documentation sample, all ones (expect gradInput 2, gradWeight 98, gradBias 98)";
  sample.problem = "mb2_g1_ic2oc2_ih7iw7_kh1kw1_sh1sw1_ph0pw0_dh1dw1_dtf32_mask111_cmt1_Ascend910B";
  sample.all_ones = true;
  sample.has_expected = true;
  sample.expected[0] = 2;
  sample.expected[1] = 98;
  sample.expected[2] = 98;
  cases.push_back(sample);

  const DemoCase layers[] = {
      {"ResNet-50 conv3_x 3x3 s1 p1, FP32 (cubeMathType 0)",
       "mb1_g1_ic128oc128_ih28iw28_kh3kw3_sh1sw1_ph1pw1_dh1dw1_dtf32_mask111_cmt0_Ascend910B"},
      {"ResNet-50 conv4_x 1x1, FP16 inputs with FP32 outputs",
       "mb2_g1_ic256oc128_ih14iw14_kh1kw1_sh1sw1_ph0pw0_dh1dw1_dtf16:f16:f16:f32:f32:f32_mask111_cmt0_Ascend910B"},
      {"3x3 s2 with TensorFlow 'SAME' padding (top/left 0, bottom/right 1), BF16",
       "mb1_g1_ic128oc128_ih28iw28_kh3kw3_sh2sw2_ph0:1pw0:1_dh1dw1_dtbf16_mask111_cmt0_Ascend910B"},
      {"MobileNet depthwise 3x3, FP32 as HF32 (cubeMathType 1) on Ascend950 (10-bit mantissa)",
       "mb2_g128_ic128oc128_ih28iw28_kh3kw3_sh1sw1_ph1pw1_dh1dw1_dtf32_mask111_cmt1_Ascend950"},
      {"DCGAN-like transposed 4x4 s2 p1, FP32 computed in FP16 (cubeMathType 2)",
       "mb2_g1_ic64oc32_ih14iw14_kh4kw4_sh2sw2_ph1pw1_dh1dw1_tr1_oph0opw0_dtf32_mask111_cmt2_Ascend910B"},
      {"1-D k5 p2 (speech/text), FP32 as HF32 (cubeMathType 3) on Ascend910_93",
       "mb4_g1_ic64oc64_iw200_kw5_sw1_pw2_dw1_dtf32_mask111_cmt3_Ascend910_93"},
      {"3-D 3x3x3 p1 (video), FP32 (cubeMathType 0)",
       "mb1_g1_ic16oc32_id8ih14iw14_kd3kh3kw3_sd1sh1sw1_pd1ph1pw1_dd1dh1dw1_dtf32_mask111_cmt0_Ascend910B"},
      {"dilated 3x3 d2 on Ascend910 (legacy: cubeMathType 1 computes FP32 in FP16)",
       "mb2_g1_ic32oc32_ih20iw20_kh3kw3_sh1sw1_ph2pw2_dh2dw2_dtf32_mask111_cmt1_Ascend910"},
      {"HiFloat8 transposed 2x2 s2 gradInput only on Ascend950",
       "mb1_g1_ic32oc16_ih8iw8_kh2kw2_sh2sw2_ph0pw0_dh1dw1_tr1_oph0opw0_dthif8:hif8:hif8:hif8:-:-_mask100_cmt0_"
       "Ascend950"},
  };
  for (const DemoCase &c : layers) cases.push_back(c);
  return cases;
}

}  // namespace demo
}  // namespace aclnn_cpu

// The GEMM algorithms at geometry extremes the fast-path suite does not reach, checked against
// the fp64 reference under ASan/UBSan; Inf/NaN next to implicit zeros on every GEMM path.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "conformance_harness.hpp"
#include "conv_bwd/plan.hpp"
#include "core/config.hpp"

namespace conformance {
namespace {

const char *const kEdges[] = {
    "mb1_g1_ic1oc1_ih5iw5_kh1kw1",                             // tiny, kernel 1
    "mb2_g4_ic4oc4_ih9iw9_kh3kw3_ph1pw1",                      // depthwise
    "mb2_g4_ic4oc8_ih9iw9_kh3kw3_sh2sw2_ph1pw1",               // depthwise multiplier 2, strided
    "mb1_g1_ic3oc2_ih4iw4_kh5kw5_ph4pw4",                      // kernel > input, padding = kernel - 1
    "mb1_g1_ic2oc3_ih11iw11_kh1kw1_sh3sw3",                    // stride > kernel, 1x1
    "mb1_g1_ic2oc3_iw40_kw3_sw5_pw7",                          // 1-D, padding > kernel, stride > kernel
    "mb1_g1_ic2oc3_id5ih6iw7_kd2kh3kw2_pd1ph2pw0_dd2dh1dw3",   // 3-D dilation
    "mb1_g2_ic4oc6_ih5iw6_kh3kw3_sh3sw2_ph1pw2_tr1_oph2opw1",  // transposed, groups, output padding
    "mb1_g1_ic3oc5_ih4iw4_kh1kw1_sh2sw2_tr1_oph1opw1",         // transposed kernel 1 stride 2
    "mb1_g1_ic600oc7_ih3iw3_kh1kw1",                           // many x channels
    "mb1_g1_ic7oc600_ih4iw4_kh3kw3_ph1pw1",                    // many y channels: 3 K blocks
    "mb1_g1_ic30oc600_ih6iw6_kh3kw3_ph1pw1",        // flipped forward (second_choice): 24 of 30 weight rows per item
    "mb1_g1_ic2oc3_iw2049_kw1",                     // NT: K block remainder of 1
    "mb1_g1_ic2oc2_iw512_kw3_pw1",                  // NT threshold exactly
    "mb1_g1_ic37oc5_ih6iw6_kh3kw3_sh2sw2_ph1pw1",   // channel-block remainder
    "mb1_g1_ic2oc3_id5ih5iw5_kd7kh7kw7_pd3ph3pw3",  // 343 taps > 256 rows per item
    "mb2_g3_ic9oc21_ih8iw8_kh2kw2_sh2sw2",          // Cy_g 7: MR remainders
    "mb1_g1_ic2oc2_ih5iw5_kh3kw3_dh3dw3_ph3pw3",    // dilated taps all beyond the input
    "mb1_g1_ic3oc4_ih1iw1_kh1kw1",                  // 1x1 plane
    "mb3_g1_ic1oc1_iw3_kw3_pw0",                    // 1 output position per sample
    "mb1_g1_ic5oc3_ih7iw7_kh3kw3_sh2sw2_ph1pw1_tr1_oph1opw1_dh2dw2",  // transposed with dilation
    // transposed at stride 2 (gradInput from phase windows): 96 × 9 steps, so the K block from step 512 starts on a
    // channel's last tap and spans 30 channels, the most a block can; rows of 7 (panels across rows)
    "mb1_g1_ic5oc96_ih5iw7_kh3kw3_sh2sw2_ph1pw1_tr1_oph1opw0",
    // RA gradWeight with K blocks of junk only (rows of 302 between depth planes 18 rows apart): no K steps
    "mb1_g1_ic16oc16_id5ih3iw300_kd3kh3kw3_pd0ph9pw1_dh9",
};

TEST(ConformanceEdgeGeometries, AgreeWithTheReference) {
  for (const char *g : kEdges) {
    for (const char *p : {"_dtf32_cmt0", "_dtf16_cmt0"}) {
      const std::string text = std::string(g) + p;
      EXPECT_TRUE(check_case(parse_case(text, Data::kRandom, 21))) << text;
    }
    EXPECT_TRUE(check_case(parse_case(std::string(g) + "_dtf32_cmt0", Data::kIntegers, 22))) << g;
  }
}

// gemm_weight's NN form on planes shorter than its K block sums the whole planes of several samples per block
// (WeightKBlock): blocks of 2 with a last one of 1 (7 samples in 4 parts), 5 per block, blocks of 2 with two blocks in
// some parts (12 samples of 100 positions: 6 blocks in 4 parts), and a group's dW of 2^20 floats in one K part (3
// samples in one block). FP32, FP16 and BF16 against the reference, and a NaN in the last sample of a block.
TEST(ConformanceEdgeGeometries, GradWeightBlocksOfSeveralSamples) {
  struct Expect {
    const char *desc;
    int64_t samples_per_block, k_parts;
  };
  struct Skip {  // gemm_weight_shifted, which would take the 3×3 layers; restored however the test ends
    std::string saved = algo_setting();
    Skip() { set_algo_setting("-gemm_weight_shifted"); }
    ~Skip() { set_algo_setting(saved); }
  } skip;
  for (const Expect &e :
       {Expect{"mb7_g1_ic5oc24_ih5iw5_kh3kw3_ph1pw1", 2, 4},
        Expect{"mb20_g2_ic6oc10_ih3iw4_kh2kw2_sh1sw2_ph1pw0", 5, 4},
        Expect{"mb12_g1_ic4oc8_ih10iw10_kh3kw3_ph1pw1", 2, 4}, Expect{"mb3_g1_ic1024oc1024_iw7_kw1", 3, 1}}) {
    for (const char *p : {"_mask010_dtf32_cmt0", "_mask010_dtf16_cmt0", "_mask010_dtbf16_cmt0"}) {
      const std::string text = std::string(e.desc) + p;
      const ConvCase c = parse_case(text, Data::kRandom, 25);
      CaseTensors tensors(c);
      const aclnn_cpu::conv_bwd::Problem prob = build_problem(c, tensors);
      const aclnn_cpu::conv_bwd::Plan plan = make_plan(prob, aclnn_cpu::conv_bwd::current_plan_context());
      ASSERT_EQ(plan.grad_weight.algorithm, aclnn_cpu::conv_bwd::Algorithm::kGemmWeight) << text;
      const auto &b = plan.grad_weight.blocking<aclnn_cpu::conv_bwd::WeightBlocking>();
      EXPECT_EQ(b.samples_per_block, e.samples_per_block) << text;
      EXPECT_EQ(b.k_parts, e.k_parts) << text;
      EXPECT_TRUE(check_case(c)) << text;
    }
  }
  ConvCase nan = parse_case("mb7_g1_ic5oc24_ih5iw5_kh3kw3_ph1pw1_mask010_dtf32_cmt0", Data::kIntegers, 26);
  const int64_t sample = 24 * 25;  // gradOutput's elements per sample: the NaN is in sample 1, block 0's last
  nan.specials = {{kGradOutput, sample + 3 * 25 + 7, std::nan("")}};
  EXPECT_TRUE(check_case(nan));
}

// gemm_weight by tap (whole planes whose taps read padding, FP32 kernel): each tap's panels over only the positions it
// reads inside x, the RA kernel reading dy's lines at those steps, the sums tap-major and then moved into dW's
// columns. Channels past one panel and a remainder, output channels past MR tiles, several K parts and samples per
// block, strides, dilation with taps beyond x, 1-D, 3-D, groups, a transposed layer; FP16 and BF16 too (BF16 on the
// fp32 kernel where the host has no BF16 pair kernel, on pairs otherwise), and Inf in x and in dy at a corner.
TEST(ConformanceEdgeGeometries, GradWeightByTapSkipsThePaddedTaps) {
  struct Skip {  // gemm_weight_shifted, which would take some of these layers; restored however the test ends
    std::string saved = algo_setting();
    Skip() { set_algo_setting("-gemm_weight_shifted"); }
    ~Skip() { set_algo_setting(saved); }
  } skip;
  const char *const layers[] = {
      "mb7_g1_ic5oc24_ih5iw5_kh3kw3_ph1pw1",          // 4 K parts, 2 samples per block
      "mb3_g1_ic70oc13_ih6iw6_kh3kw3_ph1pw1",         // 70 channels: panels of a tap and a remainder; 13 rows
      "mb4_g1_ic9oc16_ih9iw9_kh3kw3_sh2sw2_ph1pw1",   // stride 2
      "mb3_g1_ic6oc8_ih8iw8_kh3kw3_dh2dw2_ph2pw2",    // dilation
      "mb3_g1_ic3oc5_ih1iw1_kh3kw3_sh2sw2_ph2pw2",    // taps reading nothing inside x (the middle ones)
      "mb2_g1_ic5oc8_id3ih4iw4_kd3kh3kw3_pd1ph1pw1",  // 3-D
      "mb6_g1_ic7oc9_iw12_kw5_pw2",                   // 1-D
      "mb5_g3_ic12oc9_ih6iw6_kh3kw3_ph1pw1",          // groups
      "mb2_g1_ic6oc4_ih5iw5_kh3kw3_sh2sw2_ph1pw1_tr1_oph1opw1",  // transposed
  };
  for (const char *layer : layers) {
    for (const char *p :
         {"_mask010_dtf32_cmt0", "_mask010_dtf32_cmt1", "_mask010_dtf16_cmt0", "_mask010_dtbf16_cmt0"}) {
      const std::string text = std::string(layer) + p;
      const ConvCase c = parse_case(text, Data::kRandom, 28);
      CaseTensors tensors(c);
      const aclnn_cpu::conv_bwd::Problem prob = build_problem(c, tensors);
      const aclnn_cpu::conv_bwd::Plan plan = make_plan(prob, aclnn_cpu::conv_bwd::current_plan_context());
      ASSERT_EQ(plan.grad_weight.algorithm, aclnn_cpu::conv_bwd::Algorithm::kGemmWeight) << text;
      const auto &b = plan.grad_weight.blocking<aclnn_cpu::conv_bwd::WeightBlocking>();
      // By tap where the plan's RA kernel is AVX-512's (with its pair kernel for BF16); the NN form elsewhere (AVX2,
      // NEON, scalar builds), which this test then checks as well.
      const auto *ra = plan.kernels.ra;
      EXPECT_EQ(b.by_tap, ra != nullptr && ra->isa == aclnn_cpu::Isa::kAvx512 &&
                              (plan.kernels.bf16 == nullptr || plan.kernels.ra_bf16 != nullptr))
          << text;
      EXPECT_TRUE(check_case(c)) << text;
    }
  }
  for (int slot : {kInput, kGradOutput}) {
    ConvCase inf = parse_case("mb3_g1_ic70oc13_ih6iw6_kh3kw3_ph1pw1_mask010_dtf32_cmt0", Data::kIntegers, 29);
    inf.specials = {{static_cast<Slot>(slot), 0, std::numeric_limits<double>::infinity()}};
    EXPECT_TRUE(check_case(inf)) << slot;
    // A subnormal where pairs would flush it: in x's corner the four taps that read it leave the pair kernel for the
    // fp32 one, the other five stay; in dy every tap of the block does.
    ConvCase tiny = parse_case("mb3_g1_ic70oc13_ih6iw6_kh3kw3_ph1pw1_mask010_dtbf16_cmt0", Data::kRandom, 30);
    tiny.specials = {{static_cast<Slot>(slot), 0, 1e-39}};
    EXPECT_TRUE(check_case(tiny)) << slot;
  }
}

// gemm_weight on 1 × 1 layers at stride 1 without padding reads each sample's x plane as its im2col column: long planes
// (NT form, two K blocks per sample, the second from position 1024 on) and short ones (NN form, the whole planes of
// several samples per block; BF16 on the pair kernel where the host has it), FP32, FP16 and BF16.
TEST(ConformanceEdgeGeometries, GradWeightOfOneByOneLayersReadsXPlanesAsColumns) {
  struct Skip {  // gemm_weight_shifted, which would take the long planes; restored however the test ends
    std::string saved = algo_setting();
    Skip() { set_algo_setting("-gemm_weight_shifted"); }
    ~Skip() { set_algo_setting(saved); }
  } skip;
  for (const char *desc : {"mb2_g1_ic5oc9_ih40iw41", "mb7_g2_ic80oc48_ih7iw7", "mb3_g1_ic33oc17_id3ih5iw4"}) {
    for (const char *p : {"_mask010_dtf32_cmt0", "_mask010_dtf16_cmt0", "_mask010_dtbf16_cmt0"}) {
      const std::string text = std::string(desc) + p;
      const ConvCase c = parse_case(text, Data::kRandom, 27);
      CaseTensors tensors(c);
      const aclnn_cpu::conv_bwd::Problem prob = build_problem(c, tensors);
      const aclnn_cpu::conv_bwd::Plan plan = make_plan(prob, aclnn_cpu::conv_bwd::current_plan_context());
      ASSERT_EQ(plan.grad_weight.algorithm, aclnn_cpu::conv_bwd::Algorithm::kGemmWeight) << text;
      EXPECT_TRUE(check_case(c)) << text;
    }
  }
}

// One non-finite value in each operand, at the corner that meets the padding. Then 1×1 layers whose gradWeight reads
// FP32 rows in place (no operand scan: the result is checked), strided with and without padding (gemm_weight, planes
// of 1024) and at stride 1 (gemm_weight_shifted); and depthwise layers (shifted gradWeight, stride 2 and 1; gradInput
// by stride phases, whose taps multiply the padding of dy's box: 2-D, 1-D with multiplier 2, and stride 4 with
// phases no tap reads).
TEST(ConformanceEdgeGeometries, NonFiniteOperandsNextToPadding) {
  const double inf = std::numeric_limits<double>::infinity();
  for (const char *g : {"mb1_g1_ic2oc3_ih6iw6_kh3kw3_ph1pw1", "mb1_g1_ic2oc3_ih6iw6_kh3kw3_sh2sw2_ph2pw2",
                        "mb1_g1_ic3oc2_ih4iw4_kh3kw3_sh2sw2_ph1pw1_tr1_oph1opw1", "mb1_g1_ic2oc3_iw600_kw3_pw1",
                        "mb1_g1_ic2oc4_ih64iw64_kh1kw1_sh2sw2", "mb1_g1_ic2oc4_ih62iw62_kh1kw1_sh2sw2_ph1pw1",
                        "mb1_g1_ic2oc4_ih32iw32_kh1kw1",
                        // depthwise: the shifted gradWeight with stride phases, and stride 1
                        "mb1_g3_ic3oc6_ih7iw7_kh3kw3_sh2sw2_ph1pw1", "mb1_g2_ic2oc2_ih6iw6_kh3kw3_ph1pw1",
                        "mb1_g2_ic2oc4_iw40_kw3_sw2_pw1", "mb1_g2_ic2oc2_iw30_kw2_sw4_pw1"}) {
    for (Slot s : {kGradOutput, kInput, kWeight}) {
      for (double v : {inf, -inf, std::nan("")}) {
        ConvCase c = parse_case(std::string(g) + "_dtf32_cmt0", Data::kIntegers, 23);
        c.specials = {{s, 0, v}};
        EXPECT_TRUE(check_case(c)) << g << " special in " << kSlotName[s] << " = " << v;
      }
    }
  }
}

// gemm_weight_shifted and depthwise_weight multiply x values at the ends of rows by the zeros of dy's junk positions,
// and dy values by the box's padding: non-finite values there, and at the last elements, must still give the defining
// sums. Rows of 40 take direct_data's stride-2 weave by vectors.
TEST(ConformanceEdgeGeometries, NonFiniteOperandsAtRowEndsOfTheShiftedLayout) {
  const double inf = std::numeric_limits<double>::infinity();
  for (const char *g : {"mb1_g1_ic2oc3_ih6iw6_kh3kw3_ph1pw1", "mb2_g1_ic2oc3_ih6iw7_kh2kw3_ph0pw0_dh2dw1",
                        "mb1_g2_ic2oc4_ih6iw6_kh3kw3_ph1pw1", "mb2_g2_ic2oc4_ih7iw8_kh3kw3_sh2sw2_ph1pw1",
                        "mb1_g2_ic2oc2_ih5iw40_kh3kw3_sh2sw2_ph1pw1",
                        // gradWeight transposed (RA: 16 or 32 output channels per group, 72 columns), one K block per
                        // item: the kernel's stores report what is not finite instead of a scan
                        "mb1_g2_ic16oc32_ih6iw7_kh3kw3_ph1pw1", "mb1_g1_ic8oc32_ih6iw6_kh3kw3_ph1pw1",
                        // gemm_weight's im2col (1×1 at stride 2) with padding only at the end: its last window reads
                        // past x, so dy's last value meets a zero there
                        "mb1_g1_ic2oc4_ih62iw62_kh1kw1_sh2sw2_ph0:1pw0:1"}) {
    const ConvCase probe = parse_case(std::string(g) + "_dtf32_cmt0", Data::kIntegers, 24);
    CaseTensors t(probe);
    const int64_t iw = probe.desc.in[2];
    for (Slot s : {kGradOutput, kInput}) {
      const int64_t last = t.t[s].numel() - 1;
      for (int64_t at : {iw - 1, 2 * iw - 1, last}) {
        for (double v : {inf, std::nan("")}) {
          ConvCase c = probe;
          c.specials = {{s, at, v}};
          EXPECT_TRUE(check_case(c)) << g << " special in " << kSlotName[s] << "[" << at << "] = " << v;
        }
      }
    }
  }
}

}  // namespace
}  // namespace conformance

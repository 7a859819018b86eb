// The conformance cases through the public API: aclnnConvolutionBackwardGetWorkspaceSize →
// aclnnConvolutionBackward → aclrtSynchronizeStream, with CANN-style aclTensor descriptors (destroyed before
// the stream runs). Besides the arithmetic this checks that validation lets every valid case through and
// derives the same precision mode as the test side's reading of docs/contract.md §3.5.
#include <gtest/gtest.h>

#include <cstring>

#include "conformance_cases.hpp"
#include "conformance_harness.hpp"
#include "core/config.hpp"

namespace conformance {
namespace {

class ConformanceApi : public ::testing::Test {
 protected:
  void SetUp() override {
    saved_ = aclnn_cpu::settings();
    const aclError init = aclInit(nullptr);
    ASSERT_TRUE(init == ACL_SUCCESS || init == ACL_ERROR_REPEAT_INITIALIZE) << init;
    initialised_ = init == ACL_SUCCESS;
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
  }
  void TearDown() override {
    if (stream_ != nullptr) {
      EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
    }
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    if (initialised_) {
      EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
    }
    aclnn_cpu::set_product(saved_.product);
    aclnn_cpu::set_num_threads(saved_.num_threads);
  }

  ::testing::AssertionResult check(const ConvCase &c) { return check_case(c, Path::kApi, stream_); }

  aclnn_cpu::Settings saved_;
  bool initialised_ = false;
  aclrtStream stream_ = nullptr;
};

TEST_F(ConformanceApi, SampleS0GivesTwoNinetyEightNinetyEight) {
  const ConvCase c = parse_case("mb2_g1_ic2oc2_ih7iw7_kh1kw1_sh1sw1_ph0pw0_dh1dw1_dtf32_mask111_cmt1", Data::kOnes);
  CaseTensors t(c);
  ASSERT_TRUE(check_case(c, t, Path::kApi, stream_));
  for (int64_t i = 0; i < t.t[kGradInput].numel(); ++i) ASSERT_EQ(t.t[kGradInput].get(i), 2.0);
  for (int64_t i = 0; i < t.t[kGradWeight].numel(); ++i) ASSERT_EQ(t.t[kGradWeight].get(i), 98.0);
  for (int64_t i = 0; i < t.t[kGradBias].numel(); ++i) ASSERT_EQ(t.t[kGradBias].get(i), 98.0);
}

TEST_F(ConformanceApi, SamplesS1S3AndTtkCases) {
  EXPECT_TRUE(check(parse_case("mb4_g1_ic2oc2_iw9_kw3_sw3_pw0_dw1_dtf32_mask111_cmt0", Data::kOnes)));
  EXPECT_TRUE(check(parse_case("mb2_g1_ic6oc24_ih10iw10_kh3kw3_sh1sw1_ph1pw1_dh1dw1_dtf32_mask111_cmt1", Data::kOnes)));
  EXPECT_TRUE(check(parse_case("mb2_g1_ic2oc2_id7ih7iw7_kd1kh1kw1_sd1sh1sw1_pd0ph0pw0_dd1dh1dw1_cmt1", Data::kOnes)));
  EXPECT_TRUE(check(parse_case("mb1_g4_ic12oc12_ih16iw21_kh5kw5_sh1sw1_ph3pw4_dh4dw7_dtf32_mask111_cmt0_Ascend950")));
  EXPECT_TRUE(check(parse_case("mb0_g1_ic1oc1_iw1_ow1_kw1_sw1_pw0_dw1_tr1_opw0_dtf16_mask111_cmt0_Ascend950")));
}

// docs/contract.md §5.4 realistic shapes (210–214), the large ones scaled down for a 2-core machine.
TEST_F(ConformanceApi, AtkRealisticShapesScaled) {
  EXPECT_TRUE(check(parse_case("mb2_g1_ic2oc2_ih7iw7_kh1kw1_sh1sw1_ph0pw0_dh1dw1_dtf32_mask111_cmt1")));  // 210
  EXPECT_TRUE(check(parse_case(  // 211/212: transposed 3-D, stride 2, padding 3
      "mb1_g1_ic16oc3_id4ih10iw10_kd4kh4kw4_sd2sh2sw2_pd3ph3pw3_dd1dh1dw1_tr1_opd0oph0opw0_dtbf16_mask111_cmt0")));
  EXPECT_TRUE(check(parse_case(  // 213: 1x1x1 kernel, 256 → 4 channels, 4x64x64 scaled to 4x16x16
      "mb1_g1_ic256oc4_id4ih16iw16_kd1kh1kw1_sd1sh1sw1_pd0ph0pw0_dd1dh1dw1_dtbf16_mask111_cmt0")));
  EXPECT_TRUE(check(parse_case(  // 214
      "mb1_g1_ic4oc4_id1ih32iw32_kd1kh1kw1_sd1sh1sw1_pd0ph0pw0_dd1dh1dw1_dtf32_mask111_cmt3")));
  // Channel-sweep cases (0–209): 1x1, N = C = Cout, every mask, several cubeMathTypes.
  for (const char *text :
       {"mb17_g1_ic17oc17_ih1iw1_kh1kw1_dtbf16_mask111_cmt3", "mb33_g1_ic33oc33_id1ih1iw1_kd1kh1kw1_dtf16_mask011_cmt2",
        "mb64_g1_ic64oc64_ih1iw1_kh1kw1_dtf32_mask110_cmt1", "mb9_g1_ic9oc9_id1ih1iw1_kd1kh1kw1_dtbf16_mask101_cmt0"}) {
    EXPECT_TRUE(check(parse_case(text)));
  }
}

TEST_F(ConformanceApi, FeatureCasesExactly) {
  for (const std::string &text : feature_cases()) EXPECT_TRUE(check(parse_case(text, Data::kIntegers, 3)));
}

// A2/A3 reject a grouped 3-D weight gradient into FLOAT with fp16 compute (docs/contract.md §2.3 V13).
bool rejected_by_v13(const ConvCase &c) {
  const ConvDesc &d = c.desc;
  const aclDataType p = promote(promote(d.dtype[0], d.dtype[1]), d.dtype[2]);
  return d.product != aclnn_cpu::Product::kAscend950 && d.spatial_rank == 3 && d.mask[1] && d.groups > 1 &&
         d.dtype[kGradWeight] == ACL_FLOAT && (d.cube_math_type == 2 || p == ACL_FLOAT16 || p == ACL_BF16);
}

TEST_F(ConformanceApi, RandomConfigurations) {
  int ran = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    const ConvCase c = random_case(seed);
    if (rejected_by_v13(c)) continue;
    ASSERT_TRUE(check(c)) << "seed " << seed;
    ++ran;
  }
  EXPECT_GT(ran, 150);
}

TEST_F(ConformanceApi, EveryDtypeCubeMathTypeAndProduct) {
  const char *dtypes[] = {"f32", "f16", "bf16", "f16:f32:bf16:f32:f16:bf16", "f32:f32:f32:f16:bf16:f16"};
  const char *products[] = {"Ascend910B", "Ascend910_93", "Ascend950", "Ascend910", "Ascend310P"};
  int ran = 0;
  for (const char *dt : dtypes) {
    for (const char *product : products) {
      for (int cmt = 0; cmt < 4; ++cmt) {
        const ConvCase c = parse_case(std::string("mb2_g2_ic4oc6_ih6iw5_kh3kw2_sh2sw1_ph1:0pw1_dh1dw2_dt") + dt +
                                          "_cmt" + std::to_string(cmt) + "_" + product,
                                      Data::kRandom, 12);
        bool has_bf16 = false;
        for (aclDataType t : c.desc.dtype) has_bf16 = has_bf16 || t == ACL_BF16;
        const aclDataType p = promote(promote(c.desc.dtype[0], c.desc.dtype[1]), c.desc.dtype[2]);
        if (legacy(c.desc.product) && (has_bf16 || (p == ACL_FLOAT && (cmt == 0 || cmt == 3)))) continue;
        if (c.desc.product == aclnn_cpu::Product::kAscend950 &&
            (c.desc.dtype[kGradInput] != c.desc.dtype[kInput] || c.desc.dtype[kGradWeight] != c.desc.dtype[kWeight] ||
             c.desc.dtype[kGradBias] != c.desc.dtype[kGradOutput])) {
          continue;
        }
        EXPECT_TRUE(check(c));
        ++ran;
      }
    }
  }
  EXPECT_GT(ran, 40);
}

TEST_F(ConformanceApi, EightBitOnAscend950) {
  EXPECT_TRUE(
      check(parse_case("mb2_g1_ic3oc2_ih4iw4_kh3kw3_sh2sw2_ph1pw1_dh1dw1_tr1_oph0opw0"
                       "_dthif8:hif8:hif8:hif8:f32:-_mask110_cmt0_Ascend950",
                       Data::kIntegers, 13)));
  EXPECT_TRUE(
      check(parse_case("mb1_g1_ic2oc3_ih5iw5_kh3kw3_sh1sw1_ph1pw1_dh1dw1_dte4m3:e4m3:e4m3:e4m3:-:-_mask100"
                       "_cmt0_Ascend950")));
}

TEST_F(ConformanceApi, MasksLayoutsAndEmptyTensors) {
  for (int bits = 0; bits < 8; ++bits) {
    ConvCase c = parse_case("mb1_g1_ic3oc2_iw6_kw3_sw2_pw1_dw1_tr1_opw1", Data::kIntegers, 14);
    for (int m = 0; m < 3; ++m) {
      c.desc.mask[m] = (bits >> m) & 1;
      c.desc.present[kGradInput + m] = c.desc.mask[m] || bits == 0;
    }
    EXPECT_TRUE(check(c)) << bits;
  }
  ConvCase strided = parse_case("mb2_g2_ic4oc6_ih6iw5_kh3kw2_sh2sw1_ph1:0pw1_dh1dw2_dtf16", Data::kRandom, 15);
  for (int s = 0; s < kSlots; ++s) strided.layout[s] = Layout{{}, 2, 3};
  strided.layout[kInput] = Layout{{0, 2, 3, 1}, 1, 1};
  EXPECT_TRUE(check(strided));
  EXPECT_TRUE(check(parse_case("mb0_g1_ic4oc4_ih5iw5_kh3kw3_sh1sw1_ph1pw1_dh1dw1")));
  EXPECT_TRUE(check(parse_case("mb2_g1_ic0oc8_iw15_kw2_sw2_pw0_dw1_mask111", Data::kOnes)));
  EXPECT_TRUE(check(parse_case("mb0_g4_ic4oc4_ih4iw4_kh3kw3_sh2sw2_ph1pw1_dh1dw1_tr1_oph1opw1")));
}

TEST_F(ConformanceApi, OneAndTwoThreadsAreBitwiseEqual) {
  const ConvCase c = parse_case("mb2_g2_ic16oc16_ih12iw12_kh3kw3_sh1sw1_ph1pw1_dh1dw1_dtf32_cmt1", Data::kRandom, 16);
  std::vector<unsigned char> results[2];
  for (int threads = 1; threads <= 2; ++threads) {
    aclnn_cpu::set_num_threads(threads);
    CaseTensors t(c);
    ASSERT_TRUE(check_case(c, t, Path::kApi, stream_));
    for (int s = kGradInput; s < kSlots; ++s) {
      results[threads - 1].insert(results[threads - 1].end(), t.t[s].bytes().begin(), t.t[s].bytes().end());
    }
  }
  EXPECT_EQ(results[0], results[1]);
}

}  // namespace
}  // namespace conformance

// The precision model (docs/contract.md §3.5–3.6) through the direct path: operand rounding per
// cubeMathType and product, kernel output types (dX in C, dW in fp32), gradBias reduced in gradOutput's dtype,
// HF32 width and rounding, 8-bit encodings and FP8 overflow, NaN/Inf propagation; then a sweep over every
// dtype combination × cubeMathType × product docs/contract.md §2.3 lets through.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "conformance_harness.hpp"

namespace conformance {
namespace {

using aclnn_cpu::Fp8Overflow;
using aclnn_cpu::Hf32Rounding;

// Runs `c` (checked against the reference) and returns element 0 of `slot`.
double first_value(const ConvCase &c, Slot slot) {
  CaseTensors t(c);
  EXPECT_TRUE(check_case(c, t));
  return t.t[slot].get(0);
}

// Every gradOutput element set to `v` (input and weight stay ones).
ConvCase with_grad_output(ConvCase c, double v) {
  CaseTensors probe(c);
  for (int64_t i = 0; i < probe.t[kGradOutput].numel(); ++i) c.specials.push_back({kGradOutput, i, v});
  return c;
}

TEST(ConformancePrecision, GradBiasIsReducedInGradOutputsDtype) {
  // Σ of 2049 ones is 2049 in fp32, but gradOutput is fp16, where it becomes 2048, then cast to fp32.
  const ConvCase c = parse_case("mb1_g1_ic1oc1_iw2049_kw1_dtf16:f16:f16:f16:f16:f32_mask001", Data::kOnes);
  EXPECT_EQ(first_value(c, kGradBias), 2048.0);
}

TEST(ConformancePrecision, GradInputIsRoundedToTheComputeTypeButGradWeightStaysFp32) {
  // cubeMathType 2 (USE_FP16) on fp32 tensors: dX kernels output fp16, so Σ of 2049 ones is 2048 ...
  EXPECT_EQ(first_value(parse_case("mb1_g1_ic1oc2049_iw1_kw1_dtf32_mask100_cmt2", Data::kOnes), kGradInput), 2048.0);
  // ... while dW kernels output fp32.
  EXPECT_EQ(first_value(parse_case("mb1_g1_ic1oc1_iw2049_kw1_dtf32_mask010_cmt2", Data::kOnes), kGradWeight), 2049.0);
  // bf16 compute with an fp32 gradInput (A2/A3 accept mixed outputs): 257 → 256 (tie to even).
  EXPECT_EQ(
      first_value(parse_case("mb1_g1_ic1oc257_iw1_kw1_dtbf16:bf16:bf16:f32:f32:f32_mask100", Data::kOnes), kGradInput),
      256.0);
}

TEST(ConformancePrecision, Hf32WidthAndRoundingFollowTheProduct) {
  const double x = 1.0 + std::ldexp(1.0, -12);  // a tie for 11 kept bits, below half an ulp for 10
  const char *base = "mb1_g1_ic1oc1_iw1_kw1_dtf32_mask101_cmt";
  ConvCase a = with_grad_output(parse_case(std::string(base) + "1_Ascend910B", Data::kOnes), x);
  EXPECT_EQ(first_value(a, kGradInput), 1.0 + std::ldexp(1.0, -11));  // ties away
  a.hf32_rounding = Hf32Rounding::kNearestEven;
  EXPECT_EQ(first_value(a, kGradInput), 1.0);  // tie to even
  const ConvCase b = with_grad_output(parse_case(std::string(base) + "3_Ascend950", Data::kOnes), x);
  EXPECT_EQ(first_value(b, kGradInput), 1.0);  // 10 bits
  EXPECT_EQ(first_value(b, kGradBias), x);     // gradBias never sees HF32
  const ConvCase c = with_grad_output(parse_case(std::string(base) + "1_Ascend910_93", Data::kOnes), x);
  EXPECT_EQ(first_value(c, kGradInput), 1.0 + std::ldexp(1.0, -11));
  // cubeMathType 0 keeps fp32; on legacy products 1 means fp16.
  EXPECT_EQ(first_value(with_grad_output(parse_case(std::string(base) + "0_Ascend910B", Data::kOnes), x), kGradInput),
            x);
  EXPECT_EQ(first_value(with_grad_output(parse_case(std::string(base) + "1_Ascend910", Data::kOnes), x), kGradInput),
            1.0);
}

TEST(ConformancePrecision, Fp16OperandsUnderUseFp16) {
  // 1 + 2^-11 is a tie for fp16 (RNE → 1.0); 1 + 3·2^-11 rounds up to 1 + 2^-9.
  const char *base = "mb1_g1_ic1oc1_iw1_kw1_dtf32_mask100_cmt2";
  EXPECT_EQ(first_value(with_grad_output(parse_case(base, Data::kOnes), 1.0 + std::ldexp(1.0, -11)), kGradInput), 1.0);
  EXPECT_EQ(first_value(with_grad_output(parse_case(base, Data::kOnes), 1.0 + 3 * std::ldexp(1.0, -11)), kGradInput),
            1.0 + std::ldexp(1.0, -9));
  // bf16 tensors with USE_FP16 are computed in fp16 (docs/contract.md §3.5, UT case 31): 2^-20 is below fp16's range.
  ConvCase small = with_grad_output(
      parse_case("mb1_g1_ic1oc1_iw1_kw1_dtbf16:bf16:bf16:f32:f32:f32_mask100_cmt2", Data::kOnes), std::ldexp(1.0, -26));
  EXPECT_EQ(first_value(small, kGradInput), 0.0);
}

TEST(ConformancePrecision, HiFloat8OnAscend950) {
  // Transposed, all HIFLOAT8 except gradWeight (FLOAT), outputPadding 0; no gradBias (a HIFLOAT8 gradBias fails
  // V14) — what docs/contract.md §2.3 V3 accepts.
  ConvCase c = parse_case(
      "mb2_g1_ic3oc2_ih4iw4_kh3kw3_sh2sw2_ph1pw1_dh1dw1_tr1_oph0opw0"
      "_dthif8:hif8:hif8:hif8:f32:-_mask110_cmt0_Ascend950");
  EXPECT_TRUE(check_case(c));
  c.data = Data::kIntegers;
  c.int_range = 3;
  EXPECT_TRUE(check_case(c));
  // 200·200 = 40000 → 32768 (below the tie at 40960); 300·300 = 90000 → +Inf.
  ConvCase big =
      parse_case("mb1_g1_ic1oc1_iw1_kw1_tr1_opw0_dthif8:hif8:hif8:hif8:f32:-_mask100_Ascend950", Data::kOnes);
  big.specials = {{kGradOutput, 0, 192}, {kWeight, 0, 224}};  // 43008 ≥ 40960
  EXPECT_EQ(first_value(big, kGradInput), std::numeric_limits<double>::infinity());
  big.specials = {{kGradOutput, 0, 160}, {kWeight, 0, 224}};  // 35840
  EXPECT_EQ(first_value(big, kGradInput), 32768.0);
}

TEST(ConformancePrecision, Float8E4M3OverflowSaturatesOrGivesNaN) {
  ConvCase c = parse_case(
      "mb1_g1_ic2oc3_ih5iw5_kh3kw3_sh1sw1_ph1pw1_dh1dw1_dte4m3:e4m3:e4m3:e4m3:-:-_mask100"
      "_cmt0_Ascend950");
  EXPECT_TRUE(check_case(c));
  c.specials = {{kGradOutput, 0, 448}, {kWeight, 0, 448}};
  c.data = Data::kOnes;
  EXPECT_EQ(first_value(c, kGradInput), 448.0);  // saturating (device-like default)
  c.fp8_overflow = Fp8Overflow::kNan;
  EXPECT_TRUE(std::isnan(first_value(c, kGradInput)));  // PyTorch's convention
}

TEST(ConformancePrecision, NanAndInfPropagateAsIeeeArithmetic) {
  ConvCase c = parse_case("mb1_g1_ic2oc2_ih5iw5_kh3kw3_sh2sw2_ph1pw1_dh1dw1", Data::kIntegers);
  c.specials = {{kGradOutput, 0, std::nan("")},
                {kInput, 7, std::numeric_limits<double>::infinity()},
                {kWeight, 4, 0.0},
                {kWeight, 13, -std::numeric_limits<double>::infinity()}};
  CaseTensors t(c);
  ASSERT_TRUE(check_case(c, t));
  // A zero weight times an infinite operand must give NaN, not be skipped: gradWeight of tap 4 meets input's Inf.
  int nans = 0;
  for (int64_t i = 0; i < t.t[kGradInput].numel(); ++i) nans += std::isnan(t.t[kGradInput].get(i));
  EXPECT_GT(nans, 0);
  EXPECT_TRUE(std::isnan(t.t[kGradBias].get(0)));
}

// Every dtype combination a product accepts (docs/contract.md §2.3 V2) under every cubeMathType it accepts (V6).
TEST(ConformancePrecision, EveryDtypeCubeMathTypeAndProduct) {
  const char *geometries[] = {"mb2_g2_ic4oc6_ih6iw5_kh3kw2_sh2sw1_ph1:0pw1_dh1dw2",
                              "mb1_g1_ic3oc2_id3ih4iw3_kd2kh2kw2_sd1sh2sw1_pd1ph0pw1_dd1dh1dw1_tr1_opd0oph1opw0"};
  const char *dtypes[] = {
      "f32", "f16", "bf16", "f16:f32:bf16:f32:f16:bf16", "f32:f32:f32:f16:bf16:f16", "bf16:bf16:bf16:f32:f32:f32"};
  const char *products[] = {"Ascend910B", "Ascend910_93", "Ascend950", "Ascend910", "Ascend310P"};
  int ran = 0;
  for (const char *geometry : geometries) {
    for (const char *dt : dtypes) {
      for (const char *product : products) {
        for (int cmt = 0; cmt < 4; ++cmt) {
          const ConvCase c = parse_case(
              std::string(geometry) + "_dt" + dt + "_cmt" + std::to_string(cmt) + "_" + product, Data::kRandom, 11);
          const bool is_legacy = legacy(c.desc.product);
          bool has_bf16 = false;
          for (aclDataType t : c.desc.dtype) has_bf16 = has_bf16 || t == ACL_BF16;
          const aclDataType p = promote(promote(c.desc.dtype[0], c.desc.dtype[1]), c.desc.dtype[2]);
          if (is_legacy && (has_bf16 || c.desc.spatial_rank == 3 || (p == ACL_FLOAT && (cmt == 0 || cmt == 3))))
            continue;
          if (c.desc.product == aclnn_cpu::Product::kAscend950) {
            // 950 wants gradInput/gradWeight/gradBias in input/weight/gradOutput's dtype.
            if (c.desc.dtype[kGradInput] != c.desc.dtype[kInput] ||
                c.desc.dtype[kGradWeight] != c.desc.dtype[kWeight] ||
                c.desc.dtype[kGradBias] != c.desc.dtype[kGradOutput]) {
              continue;
            }
          }
          EXPECT_TRUE(check_case(c));
          ++ran;
        }
      }
    }
  }
  EXPECT_GT(ran, 100);
}

}  // namespace
}  // namespace conformance

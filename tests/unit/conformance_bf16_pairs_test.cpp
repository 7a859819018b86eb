// The BF16 pair kernels (src/conv_bwd/kernels/gemm_bf16_ukernel.hpp) give bitwise the results of the fp32-FMA path
// they stand in for: every BF16 case below runs under ACLNN_CPU_MAX_ISA=avx512_bf16 and =avx512 and the outputs'
// bytes must agree, on random data and on data whose blocks the pair kernel must leave to the fp32 kernel (values
// whose products or sums would fall below 2^-126, subnormals, Inf, NaN). Skipped, with a message, on CPUs without
// AVX512-BF16.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "conformance_harness.hpp"
#include "conv_bwd/plan.hpp"
#include "core/config.hpp"
#include "core/isa.hpp"

namespace conformance {
namespace {

class ConformanceBf16Pairs : public ::testing::Test {
 protected:
  void SetUp() override {
    if (aclnn_cpu::cpu_isa() < aclnn_cpu::Isa::kAvx512Bf16) {
      GTEST_SKIP() << "this CPU has no AVX512-BF16 (cpu_isa() = " << aclnn_cpu::isa_name(aclnn_cpu::cpu_isa())
                   << "): the pair kernels cannot run here";
    }
    const char *was = std::getenv("ACLNN_CPU_MAX_ISA");
    had_ = was != nullptr;
    if (had_) saved_ = was;
  }
  void TearDown() override {
    if (had_) {
      setenv("ACLNN_CPU_MAX_ISA", saved_.c_str(), 1);
    } else {
      unsetenv("ACLNN_CPU_MAX_ISA");
    }
    std::string error;
    aclnn_cpu::load_settings_from_env(&error);
  }

  static void cap(const char *isa) {
    setenv("ACLNN_CPU_MAX_ISA", isa, 1);
    std::string error;
    ASSERT_TRUE(aclnn_cpu::load_settings_from_env(&error)) << error;
  }

  // The outputs' bytes of one run under the cap `isa`; *pairs: whether its plan took a pair kernel.
  static std::vector<unsigned char> run_under(const char *isa, const ConvCase &c, double dy_scale, bool *pairs) {
    cap(isa);
    CaseTensors t(c);
    for (int64_t i = 0; i < t.t[kGradOutput].numel(); ++i) t.t[kGradOutput].set(i, t.t[kGradOutput].get(i) * dy_scale);
    for (const ConvCase::Special &sp : c.specials) t.t[sp.slot].set(sp.index, sp.value);
    const aclnn_cpu::conv_bwd::Plan plan =
        aclnn_cpu::conv_bwd::make_plan(build_problem(c, t), aclnn_cpu::conv_bwd::current_plan_context());
    *pairs = plan.kernels.bf16 != nullptr;
    std::string error;
    EXPECT_EQ(run_direct(c, t, &error), 0) << error;
    std::vector<unsigned char> out;
    for (int s = kGradInput; s < kSlots; ++s) {
      if (t.present[s]) out.insert(out.end(), t.t[s].bytes().begin(), t.t[s].bytes().end());
    }
    return out;
  }

  static void expect_same_bits(const ConvCase &c, double dy_scale, const std::string &what) {
    bool pairs = false, fp32_pairs = true;
    const std::vector<unsigned char> native = run_under("avx512_bf16", c, dy_scale, &pairs);
    const std::vector<unsigned char> fp32 = run_under("avx512", c, dy_scale, &fp32_pairs);
    EXPECT_TRUE(pairs) << what << ": the plan took no pair kernel";
    EXPECT_FALSE(fp32_pairs) << what << ": the avx512 cap still took a pair kernel";
    EXPECT_TRUE(native == fp32) << what << ": avx512_bf16 and avx512 results differ";
  }

 private:
  bool had_ = false;
  std::string saved_;
};

// Shape families of both GEMM algorithms of gradInput: 1-D, 2-D, 3-D; strides, dilation, padding beyond the kernel,
// groups, 1×1 (dcol is gradInput), K (output channels per group) odd, below and above one block of 256 (the whole
// packed weight, a last block of odd length), transposed calls, and mixes storing FP32.
const char *const kCases[] = {
    "mb2_g1_ic16oc16_ih12iw12_kh3kw3_ph1pw1_dtbf16",
    "mb1_g1_ic9oc7_ih11iw13_kh3kw2_sh2sw1_ph2pw3_dh1dw2_dtbf16",
    "mb1_g1_ic40oc301_ih9iw9_kh3kw3_ph1pw1_dtbf16",
    "mb1_g1_ic20oc515_ih6iw7_kh1kw1_dtbf16",
    "mb2_g2_ic12oc10_ih8iw8_kh3kw3_sh2sw2_ph1pw1_dtbf16",
    "mb1_g1_ic8oc33_iw70_kw5_sw1_pw2_dtbf16",
    "mb1_g1_ic6oc9_id5ih6iw7_kd3kh3kw3_pd1ph1pw1_dtbf16",
    "mb1_g1_ic64oc48_ih14iw14_kh1kw1_sh2sw2_dtbf16",
    "mb1_g1_ic17oc11_ih9iw9_kh2kw2_ph4pw4_dtbf16",
    "mb1_g1_ic24oc12_ih8iw8_kh4kw4_sh2sw2_ph1pw1_tr1_oph0opw0_dtbf16",
    "mb2_g1_ic13oc9_ih7iw7_kh3kw3_ph1pw1_tr1_dtbf16",
    "mb1_g1_ic16oc16_ih10iw10_kh3kw3_ph1pw1_dtbf16:bf16:bf16:f32:f32:f32",
    "mb1_g1_ic16oc16_ih10iw10_kh3kw3_ph1pw1_dtbf16_cmt1",
};

TEST_F(ConformanceBf16Pairs, RandomDataGivesTheFp32PathsBits) {
  for (const char *text : kCases) expect_same_bits(parse_case(text, Data::kRandom, 7), 1.0, text);
}

// gradOutput scaled by 2^-120 (products and sums near or below 2^-126) and by 2^-130 (BF16 subnormals): the pair
// kernel would flush them; pairs_exact sends those blocks to the fp32 kernel, which computes them as the fp32 path.
TEST_F(ConformanceBf16Pairs, TinyValuesAreLeftToTheFp32Kernel) {
  for (const char *text : kCases) {
    expect_same_bits(parse_case(text, Data::kRandom, 8), 0x1p-120, std::string(text) + " dy scaled by 2^-120");
    expect_same_bits(parse_case(text, Data::kRandom, 8), 0x1p-130, std::string(text) + " dy scaled by 2^-130");
  }
}

// A subnormal, Inf or NaN operand in some blocks, normal values elsewhere.
TEST_F(ConformanceBf16Pairs, SubnormalsInfAndNanKeepTheFp32PathsBits) {
  const double specials[] = {1e-39, -3e-40, 1.0 / 0.0, 0.0 / 0.0};
  for (const char *text : kCases) {
    for (double v : specials) {
      ConvCase c = parse_case(text, Data::kRandom, 9);
      c.specials.push_back({kGradOutput, 5, v});
      c.specials.push_back({kWeight, 3, v});
      expect_same_bits(c, 1.0, std::string(text) + " with " + std::to_string(v));
    }
  }
}

}  // namespace
}  // namespace conformance

// gemm_pointwise_data (src/conv_bwd/algo/gemm_pointwise_data.cpp): gradInput of a 1×1 layer on small planes as
// dxᵀ = dyᵀ · w, its position tiles spanning samples. It sums in gemm_backward_data's order, so its outputs must be
// bitwise those of gemm_backward_data (ACLNN_CPU_ALGO=-gemm_pointwise_data) and agree with the fp64 reference, under
// every ISA cap this CPU has: x channels that leave a remainder of the kernel's NR, positions that leave one of MR and
// cut samples, several K blocks and a remainder, groups, every dtype and precision mode, non-contiguous tensors.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "conformance_harness.hpp"
#include "conv_bwd/plan.hpp"
#include "core/config.hpp"
#include "core/isa.hpp"

namespace conformance {
namespace {

class ConformancePointwise : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char *name : {"ACLNN_CPU_MAX_ISA", "ACLNN_CPU_ALGO"}) {
      const char *was = std::getenv(name);
      saved_.push_back(was != nullptr ? was : "");
    }
  }
  void TearDown() override {
    set("ACLNN_CPU_MAX_ISA", saved_[0]);
    set("ACLNN_CPU_ALGO", saved_[1]);
  }

  static void set(const char *name, const std::string &value) {
    if (value.empty()) {
      unsetenv(name);
    } else {
      setenv(name, value.c_str(), 1);
    }
    std::string error;
    ASSERT_TRUE(aclnn_cpu::load_settings_from_env(&error)) << error;
  }

  // The outputs' bytes of one run under ACLNN_CPU_ALGO=`algo`; *chosen: gradInput's algorithm in its plan; *bf16:
  // whether the call computes in BF16.
  static std::vector<unsigned char> run_with(const std::string &algo, const ConvCase &c, std::string *chosen,
                                             bool *bf16) {
    set("ACLNN_CPU_ALGO", algo);
    CaseTensors t(c);
    const aclnn_cpu::conv_bwd::Plan plan =
        aclnn_cpu::conv_bwd::make_plan(build_problem(c, t), aclnn_cpu::conv_bwd::current_plan_context());
    *chosen = aclnn_cpu::conv_bwd::algorithm_name(plan.grad_input.algorithm);
    *bf16 = plan.canonical.compute == aclnn_cpu::conv_bwd::ComputeType::kBf16;
    std::string error;
    EXPECT_EQ(run_direct(c, t, &error), 0) << error;
    return output_bytes(t);
  }

  // Under each cap: the reference agrees, the plan takes gemm_pointwise_data (BF16 calls: gemm_backward_data, for
  // its pair kernels), and its bytes are gemm_backward_data's.
  void expect_pointwise(const ConvCase &c) {
    for (const char *isa : {"scalar", "avx2", "avx512", "neon"}) {
      aclnn_cpu::Isa level;
      if (!aclnn_cpu::parse_isa(isa, &level) || !aclnn_cpu::isa_includes(aclnn_cpu::cpu_isa(), level)) {
        std::printf("[ skipped  ] ISA cap %s: this CPU lacks it (%s)\n", isa,
                    aclnn_cpu::isa_name(aclnn_cpu::cpu_isa()));
        continue;
      }
      set("ACLNN_CPU_MAX_ISA", isa);
      set("ACLNN_CPU_ALGO", "");
      CaseTensors fresh(c);
      EXPECT_TRUE(check_case(c, fresh)) << isa << ": " << case_text(c);
      std::string pointwise, other;
      bool bf16 = false;
      const std::vector<unsigned char> a = run_with("", c, &pointwise, &bf16);
      const std::vector<unsigned char> b = run_with("-gemm_pointwise_data", c, &other, &bf16);
      EXPECT_EQ(pointwise, bf16 ? "gemm_backward_data" : "gemm_pointwise_data") << isa << ": " << case_text(c);
      EXPECT_EQ(other, "gemm_backward_data") << isa << ": " << case_text(c);
      EXPECT_TRUE(a == b) << isa << ": gemm_pointwise_data's bytes differ from gemm_backward_data's, " << case_text(c);
    }
  }

  std::vector<std::string> saved_;
};

// Tiles of MR positions across the samples (3 × 25 positions), x channels 37 (remainders of 8, 16 and 32), K 300
// (one whole block of 256 and a remainder).
const char *const kShapes[] = {
    "mb3_g1_ic37oc300_ih5iw5_kh1kw1_sh1sw1_ph0pw0_dh1dw1",
    "mb5_g2_ic66oc20_ih7iw7_kh1kw1_sh1sw1_ph0pw0_dh1dw1",   // groups: 33 x channels and 10 y channels each
    "mb2_g1_ic600oc40_ih3iw3_kh1kw1_sh1sw1_ph0pw0_dh1dw1",  // more than one chunk of x channels (512)
    "mb40_g1_ic8oc9_ih2iw2_kh1kw1_sh1sw1_ph0pw0_dh1dw1",    // 160 positions: several position chunks
    "mb2_g1_ic20oc24_iw50_kw1_sw1_pw0_dw1",                 // 1-D
    "mb2_g1_ic20oc24_id2ih3iw4_kd1kh1kw1_sd1sh1sw1_pd0ph0pw0_dd1dh1dw1",  // 3-D
};

TEST_F(ConformancePointwise, BitwiseGemmBackwardDataAndTheReference) {
  for (const char *shape : kShapes) expect_pointwise(parse_case(shape, Data::kRandom, 71));
}

TEST_F(ConformancePointwise, EveryDtypeAndPrecisionMode) {
  for (const char *dt : {"_dtf16", "_dtbf16", "_dtf16:f32:bf16:f32:f16:bf16"}) {
    for (int cmt = 0; cmt < 4; ++cmt) {
      expect_pointwise(parse_case(std::string(kShapes[0]) + dt + "_cmt" + std::to_string(cmt), Data::kRandom, 72));
    }
  }
  expect_pointwise(parse_case(std::string(kShapes[0]) + "_cmt3", Data::kRandom, 73));  // FP32 in HF32
}

TEST_F(ConformancePointwise, NonContiguousTensors) {
  ConvCase c = parse_case(kShapes[1], Data::kRandom, 74);
  c.layout[kGradOutput] = Layout{{0, 2, 3, 1}, 1, 5};  // channels innermost
  c.layout[kInput] = Layout{{}, 2, 3};                 // gaps between elements
  c.layout[kWeight] = Layout{{1, 0, 2, 3}, 1, 0};      // transposed
  c.layout[kGradInput] = Layout{{0, 2, 3, 1}, 3, 2};   // channels innermost, with gaps
  expect_pointwise(c);
}

}  // namespace
}  // namespace conformance

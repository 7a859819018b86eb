// The canonical problem (roles of transposed folded in, lifting, the safety re-checks) and execute()'s
// failure paths.
#include <gtest/gtest.h>

#include "aclnn/opdev/op_errno.h"
#include "conformance_harness.hpp"
#include "conv_bwd/canonical.hpp"
#include "conv_bwd/execute.hpp"

namespace conformance {
namespace {

using aclnn_cpu::conv_bwd::Canonical;
using aclnn_cpu::conv_bwd::make_canonical;
using aclnn_cpu::conv_bwd::Problem;

TEST(CanonicalProblem, NonTransposedRolesAreInputAndGradOutput) {
  const ConvCase c = parse_case("mb2_g2_ic4oc6_ih7iw8_kh3kw2_sh2sw1_ph1:0pw0_dh1dw2");
  CaseTensors t(c);
  const Problem p = build_problem(c, t);
  Canonical k;
  std::string error;
  ASSERT_TRUE(make_canonical(p, &k, &error)) << error;
  EXPECT_FALSE(k.transposed);
  EXPECT_EQ(k.x.data, t.t[kInput].data());
  EXPECT_EQ(k.y.data, t.t[kGradOutput].data());
  EXPECT_EQ(k.grad_output.data, t.t[kGradOutput].data());
  EXPECT_EQ(k.batch, 2);
  EXPECT_EQ(k.cx_per_group, 2);
  EXPECT_EQ(k.cy_per_group, 3);
  EXPECT_EQ(k.x_size[0], 1);  // 2-D lifted: D = 1
  EXPECT_EQ(k.x_size[1], 7);
  EXPECT_EQ(k.y_size[1], 3);  // (7 + 1 − 3) / 2 + 1
  EXPECT_EQ(k.pad_begin[1], 1);
  EXPECT_EQ(k.dilation[2], 2);
}

TEST(CanonicalProblem, TransposedRolesAreGradOutputAndInput) {
  const ConvCase c = parse_case("mb1_g2_ic4oc6_iw5_kw3_sw2_pw1_dw1_tr1_opw1");
  CaseTensors t(c);
  const Problem p = build_problem(c, t);
  Canonical k;
  std::string error;
  ASSERT_TRUE(make_canonical(p, &k, &error)) << error;
  EXPECT_TRUE(k.transposed);
  EXPECT_EQ(k.x.data, t.t[kGradOutput].data());
  EXPECT_EQ(k.y.data, t.t[kInput].data());
  EXPECT_EQ(k.cx_per_group, 3);  // weight [Cin = 4, Cout/g = 3, k]
  EXPECT_EQ(k.cy_per_group, 2);
  EXPECT_EQ(k.x_size[2], 10);  // 1-D lifted into W
  EXPECT_EQ(k.y_size[2], 5);
  EXPECT_EQ(k.x_size[1], 1);
}

TEST(CanonicalProblem, InconsistentProblemsAreRefusedWithAReason) {
  const ConvCase c = parse_case("mb2_g2_ic4oc6_ih7iw8_kh3kw2");
  CaseTensors t(c);
  const Problem good = build_problem(c, t);
  struct Breakage {
    const char *what;
    void (*apply)(Problem *);
  };
  const Breakage breakages[] = {
      {"groups", [](Problem *p) { p->groups = 4; }},
      {"weight channels", [](Problem *p) { p->weight.shape[1] = 3; }},
      {"batch", [](Problem *p) { p->input.shape[0] = 1; }},
      {"gradInput shape", [](Problem *p) { p->grad_input.shape[2] = 6; }},
      {"gradWeight shape", [](Problem *p) { p->grad_weight.shape[0] = 3; }},
      {"gradBias length", [](Problem *p) { p->grad_bias.shape[0] = 5; }},
      {"dtype", [](Problem *p) { p->input.dtype = ACL_INT32; }},
      {"data", [](Problem *p) { p->weight.data = nullptr; }},
      {"rank", [](Problem *p) { p->rank = 5; }},
      {"missing output", [](Problem *p) { p->grad_weight.present = false; }},
      {"stride", [](Problem *p) { p->stride[1] = 0; }},
      {"size overflow",
       [](Problem *p) {
         p->input.shape = {INT64_MAX / 2, 4, 7, 8};
       }},
  };
  for (const Breakage &b : breakages) {
    Problem p = good;
    b.apply(&p);
    Canonical k;
    std::string error;
    EXPECT_FALSE(make_canonical(p, &k, &error)) << b.what;
    EXPECT_FALSE(error.empty()) << b.what;
    // execute() turns the refusal into 561103, names the call and writes nothing.
    CaseTensors fresh(c);
    Problem q = build_problem(c, fresh);
    b.apply(&q);
    const std::vector<unsigned char> before = fresh.t[kGradInput].bytes();
    std::vector<unsigned char> workspace(aclnn_cpu::conv_bwd::workspace_size(good));
    EXPECT_EQ(aclnn_cpu::conv_bwd::execute(q, workspace.data(), workspace.size()), ACLNN_ERR_INNER_NULLPTR) << b.what;
    EXPECT_NE(std::string(aclnn_cpu::recent_error()).find("(problem mb"), std::string::npos) << b.what;
    EXPECT_EQ(fresh.t[kGradInput].bytes(), before) << b.what;
  }
}

TEST(CanonicalProblem, DescribeGivesTheReproLine) {
  const ConvCase c = parse_case("mb2_g1_ic2oc2_ih7iw7_kh1kw1_sh1sw1_ph0pw0_dh1dw1_dtf32_mask111_cmt1");
  CaseTensors t(c);
  EXPECT_EQ(aclnn_cpu::conv_bwd::describe(build_problem(c, t)),
            "mb2_g1_ic2oc2_ih7iw7_oh7ow7_kh1kw1_sh1sw1_ph0pw0_dh1dw1_dtf32_mask111_cmt1_Ascend910B");
}

TEST(CanonicalProblem, TooSmallAWorkspaceIsAnErrorAndWritesNothing) {
  const ConvCase c = parse_case("mb2_g2_ic4oc6_ih7iw8_kh3kw2");
  CaseTensors t(c);
  const Problem p = build_problem(c, t);
  const uint64_t need = aclnn_cpu::conv_bwd::workspace_size(p);
  std::vector<unsigned char> workspace(need);
  std::vector<unsigned char> before[kSlots];
  for (int s = 0; s < kSlots; ++s) before[s] = t.t[s].bytes();
  EXPECT_EQ(aclnn_cpu::conv_bwd::execute(p, workspace.data(), need - 1), ACLNN_ERR_INNER_NULLPTR);
  EXPECT_EQ(aclnn_cpu::conv_bwd::execute(p, nullptr, need), ACLNN_ERR_INNER_NULLPTR);
  std::vector<unsigned char> larger(need + 1);
  EXPECT_EQ(aclnn_cpu::conv_bwd::execute(p, larger.data() + 1, need), ACLNN_ERR_INNER_NULLPTR);  // misaligned
  EXPECT_NE(std::string(aclnn_cpu::recent_error()).find("workspace"), std::string::npos);
  for (int s = 0; s < kSlots; ++s) EXPECT_EQ(t.t[s].bytes(), before[s]) << kSlotName[s];
}

}  // namespace
}  // namespace conformance

// A gradBias that shares memory with weight or input must not change what the other outputs read: gradBias is
// summed before anything is written and stored last (found in the issue-4 review, when it was written first).
#include <gtest/gtest.h>

#include "conformance_harness.hpp"

namespace conformance {
namespace {

TEST(ConformanceBiasAlias, GradBiasSharingTheWeightDoesNotChangeGradInput) {
  const ConvCase c = parse_case("mb1_g1_ic3oc4_ih6iw6_kh3kw3_ph1pw1_dtf32_cmt0_mask101", Data::kIntegers, 51);
  CaseTensors clean(c);
  auto p = build_problem(c, clean);
  std::vector<unsigned char> ws(aclnn_cpu::conv_bwd::workspace_size(p));
  ASSERT_EQ(aclnn_cpu::conv_bwd::execute(p, ws.data(), ws.size()), 0);
  const std::vector<unsigned char> expected = clean.t[kGradInput].bytes();

  CaseTensors aliased(c);
  auto q = build_problem(c, aliased);
  // gradBias [4] fp32 written over the first four weight elements (weight [4, 3, 3, 3] fp32, contiguous).
  ASSERT_EQ(q.weight.strides.back(), 1);
  q.grad_bias.data = q.weight.data;
  q.grad_bias.offset = q.weight.offset;
  q.grad_bias.strides = {1};
  std::vector<unsigned char> ws2(aclnn_cpu::conv_bwd::workspace_size(q));
  ASSERT_EQ(aclnn_cpu::conv_bwd::execute(q, ws2.data(), ws2.size()), 0);
  EXPECT_EQ(aliased.t[kGradInput].bytes(), expected)
      << "gradInput was computed from a weight already overwritten by gradBias";
}

}  // namespace
}  // namespace conformance

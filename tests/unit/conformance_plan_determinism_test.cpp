// Results must be bitwise identical across thread counts, so the plan's choice of algorithm must not depend on
// the thread count. It once did, through the per-thread scratch limit (items sized by the thread count made the
// slot too large for one thread only); now chunks are capped by the limit and only chunk 1 can be refused.
#include <gtest/gtest.h>

#include <cstring>

#include "conformance_harness.hpp"
#include "conv_bwd/plan.hpp"
#include "core/config.hpp"

namespace {

using namespace conformance;
using aclnn_cpu::Isa;
using aclnn_cpu::conv_bwd::Algorithm;
using aclnn_cpu::conv_bwd::common_blocking;
using aclnn_cpu::conv_bwd::make_plan;
using aclnn_cpu::conv_bwd::Plan;
using aclnn_cpu::conv_bwd::PlanContext;
using aclnn_cpu::conv_bwd::Problem;
using aclnn_cpu::conv_bwd::TensorArg;

// A contiguous fp32 tensor at a fake address (make_plan never dereferences data; distinct addresses far apart so
// that no two views overlap).
TensorArg fake(std::vector<int64_t> shape, uintptr_t address) {
  TensorArg t;
  t.present = true;
  t.dtype = ACL_FLOAT;
  t.shape = shape;
  t.strides.assign(shape.size(), 1);
  for (int d = static_cast<int>(shape.size()) - 2; d >= 0; --d) t.strides[d] = t.strides[d + 1] * shape[d + 1];
  t.numel = 1;
  for (int64_t s : shape) t.numel *= s;
  t.data = reinterpret_cast<void *>(address);
  return t;
}

// A 3-D stride-1 convolution of a 256×256×160 volume with 32 channels, kernel 3, pad 1 (a medical-imaging layer).
Problem volume_problem(int64_t stride) {
  Problem p;
  p.rank = 5;
  p.mask[0] = true;
  const int64_t o = (256 + 2 - 3) / stride + 1, o2 = (160 + 2 - 3) / stride + 1;
  p.input = fake({1, 32, 256, 256, 160}, uintptr_t{1} << 40);
  p.grad_input = fake({1, 32, 256, 256, 160}, uintptr_t{2} << 40);
  p.weight = fake({32, 32, 3, 3, 3}, uintptr_t{3} << 40);
  p.grad_output = fake({1, 32, o, o, o2}, uintptr_t{4} << 40);
  for (int d = 0; d < 3; ++d) {
    p.stride[d] = stride;
    p.pad_begin[d] = p.pad_end[d] = 1;
  }
  return p;
}

PlanContext context(Isa isa, int threads) {
  PlanContext ctx;
  ctx.isa = isa;
  ctx.threads = threads;
  return ctx;
}

TEST(ConformancePlanDeterminism, AlgorithmChoiceDoesNotDependOnTheThreadCount) {
  for (Isa isa : {Isa::kScalar, Isa::kAvx2, Isa::kAvx512, Isa::kNeon}) {
    for (int64_t stride : {1, 2}) {
      const Problem p = volume_problem(stride);
      const Plan one = make_plan(p, context(isa, 1)), two = make_plan(p, context(isa, 2));
      EXPECT_EQ(one.grad_input.algorithm, two.grad_input.algorithm)
          << "isa " << aclnn_cpu::isa_name(isa) << " stride " << stride << ": 1 thread chose "
          << algorithm_name(one.grad_input.algorithm) << " ("
          << (one.grad_input.refusals.empty() ? "" : one.grad_input.refusals[0]) << "), 2 threads chose "
          << algorithm_name(two.grad_input.algorithm) << " (slot "
          << (common_blocking(two.grad_input.config) ? common_blocking(two.grad_input.config)->slot_floats * 4 : 0)
          << " bytes)";
    }
  }
}

// The two stride-1 gradInput algorithms add in different orders, so a change of algorithm changes bits.
TEST(ConformancePlanDeterminism, BackwardDataAndFlippedForwardDifferInTheLastBits) {
  const ConvCase c = parse_case("mb1_g1_ic8oc64_ih12iw12_kh3kw3_ph1pw1_dtf32_cmt0_mask100", Data::kRandom, 31);
  std::vector<unsigned char> out[2];
  for (int i = 0; i < 2; ++i) {
    CaseTensors t(c);
    const Problem p = build_problem(c, t);
    PlanContext ctx = aclnn_cpu::conv_bwd::current_plan_context();
    ctx.threads = 1;
    ctx.disabled = i == 1 ? ",gemm_backward_data," : "";
    ctx.reference_only = false;
    const Plan plan = make_plan(p, ctx);
    ASSERT_EQ(plan.grad_input.algorithm, i == 0 ? Algorithm::kGemmBackwardData : Algorithm::kGemmFlippedForward);
    std::vector<unsigned char> ws(plan.bytes);
    ASSERT_EQ(aclnn_cpu::conv_bwd::execute(p, plan, ws.data(), ws.size()), 0);
    out[i] = t.t[kGradInput].bytes();
  }
  EXPECT_NE(out[0], out[1]) << "the two algorithms happen to agree bitwise here";
}

}  // namespace

#include "conv_bwd/plan_steps.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

thread_local int64_t g_plan_steps = 0;

}  // namespace

void count_plan_steps(int64_t steps) { g_plan_steps += steps; }

int64_t plan_steps() { return g_plan_steps; }

}  // namespace conv_bwd
}  // namespace aclnn_cpu

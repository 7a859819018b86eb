#include "conv_bwd/plan_steps.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

std::atomic<bool> g_plan_step_counting{false};

namespace {

thread_local int64_t g_plan_steps = 0;

}  // namespace

void add_plan_steps(int64_t steps) { g_plan_steps += steps; }

void set_plan_step_counting(bool on) { g_plan_step_counting.store(on, std::memory_order_relaxed); }

int64_t plan_steps() { return g_plan_steps; }

}  // namespace conv_bwd
}  // namespace aclnn_cpu

#include "conv_bwd/plan_steps.hpp"

#include <atomic>

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

std::atomic<bool> g_counting{false};
thread_local int64_t g_plan_steps = 0;

}  // namespace

void count_plan_steps(int64_t steps) {
  if (g_counting.load(std::memory_order_relaxed)) g_plan_steps += steps;
}

void set_plan_step_counting(bool on) { g_counting.store(on, std::memory_order_relaxed); }

int64_t plan_steps() { return g_plan_steps; }

}  // namespace conv_bwd
}  // namespace aclnn_cpu

// The planner's work counter: every loop of planning whose length depends on the problem adds its iterations, so
// tests can check that planning a call with extreme attribute values does no more work than planning the same
// shapes with ordinary ones. Per thread: a plan is built on the thread that calls GetWorkspaceSize.
#pragma once

#include <atomic>
#include <cstdint>

namespace aclnn_cpu {
namespace conv_bwd {

extern std::atomic<bool> g_plan_step_counting;
void add_plan_steps(int64_t steps);

// Counted only while counting is on (tests), so that calls pay one relaxed load, not a thread-local access.
inline void count_plan_steps(int64_t steps) {
  if (g_plan_step_counting.load(std::memory_order_relaxed)) add_plan_steps(steps);
}

// Turns counting on or off for every thread (off at start).
void set_plan_step_counting(bool on);

// The steps counted on this thread while counting was on.
int64_t plan_steps();

}  // namespace conv_bwd
}  // namespace aclnn_cpu

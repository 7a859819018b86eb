// The planner's work counter: every loop of planning whose length depends on the problem adds its iterations, so
// tests can check that planning a call with extreme attribute values does no more work than planning the same
// shapes with ordinary ones. Per thread: a plan is built on the thread that calls GetWorkspaceSize.
#pragma once

#include <cstdint>

namespace aclnn_cpu {
namespace conv_bwd {

// Counted only while counting is on (tests), so that calls pay one relaxed load, not a thread-local access.
void count_plan_steps(int64_t steps);

// Turns counting on or off for every thread (off at start).
void set_plan_step_counting(bool on);

// The steps counted on this thread while counting was on.
int64_t plan_steps();

}  // namespace conv_bwd
}  // namespace aclnn_cpu

// The planner's work counter: every loop of planning whose length depends on the problem adds its iterations, so
// tests can check that planning a call with extreme attribute values does no more work than planning the same
// shapes with ordinary ones. Per thread: a plan is built on the thread that calls GetWorkspaceSize.
#pragma once

#include <cstdint>

namespace aclnn_cpu {
namespace conv_bwd {

void count_plan_steps(int64_t steps);

// The steps counted on this thread since it started.
int64_t plan_steps();

}  // namespace conv_bwd
}  // namespace aclnn_cpu

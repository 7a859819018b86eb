// Execution of a validated problem: zero fills of the empty path, and the arithmetic of the compute path
// following a Plan (plan.hpp).
#pragma once

#include <cstdint>

#include "conv_bwd/plan.hpp"
#include "conv_bwd/problem.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

// make_plan(problem, current_plan_context()).bytes.
uint64_t workspace_size(const Problem &problem);

// Writes every output selected by problem.mask (and nothing else) as `plan` says. Returns an aclnnStatus.
int execute(const Problem &problem, const Plan &plan, void *workspace, uint64_t workspace_size);

// ACLNN_CPU_VERBOSE=2: the plan GetWorkspaceSize made, with why each faster algorithm refused, on stderr.
void print_plan_verbose(const Problem &problem, const Plan &plan);

// With a plan made now from the current settings.
int execute(const Problem &problem, void *workspace, uint64_t workspace_size);

}  // namespace conv_bwd
}  // namespace aclnn_cpu

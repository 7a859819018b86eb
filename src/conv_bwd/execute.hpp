// Execution of a validated problem: zero fills of the empty path, and the arithmetic of the compute path.
#pragma once

#include <cstdint>

#include "conv_bwd/problem.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

// Bytes of workspace `execute` wants for `problem` (may be 0).
uint64_t workspace_size(const Problem &problem);

// Writes every output selected by problem.mask (and nothing else). Returns an aclnnStatus.
int execute(const Problem &problem, void *workspace, uint64_t workspace_size);

}  // namespace conv_bwd
}  // namespace aclnn_cpu

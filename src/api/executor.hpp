// The aclOpExecutor lifecycle shared by every operator: creation by a first phase, the generic second phase
// (CANN's CommonOpExecutorRun rules), repeatable executors, and refreshing tensor addresses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "acl/acl_base.h"
#include "api/objects.hpp"

namespace aclnn_cpu {

// A new live executor that owns `operation`. Throws std::bad_alloc (nothing is then registered or leaked).
aclOpExecutor *create_executor(std::shared_ptr<Operation> operation);

// Phase two of an operator named `api`:
//   executor NULL                       → 161001 ("executor is nullptr")
//   executor not live                   → 161002, never dereferenced
//   no aclInit, or no device set        → 361001 (before the workspace rules: without them aclrtMalloc fails too)
//   workspaceSize > 0, workspace NULL   → 161001
//   workspaceSize < what the work needs → 161002
//   workspace not 4-byte aligned, outside every live aclrtMalloc allocation, or inside one too small for
//   the work (when the work needs one)                                  → 161002
//   a tensor's aclrtMalloc block freed since the first phase (Operation::check_memory) → 161002
//   the stream refuses the work         → 361001
// otherwise the work is queued on `stream` (NULL: the default stream) and 0 is returned; a failure of the work
// itself is reported by aclrtSynchronizeStream, as the aclnnStatus the operation returned. The stream repeats
// the workspace and memory checks right before running (a buffer freed by another thread in between).
// Whatever the outcome, a live executor that is not repeatable is consumed (destroyed) by the call, as CANN
// deletes it after running or on a missing workspace. The queued work holds its own reference to the
// Operation, so destroying the executor before the stream runs is safe.
int launch_executor(const char *api, void *workspace, uint64_t workspace_size, aclOpExecutor *executor,
                    aclrtStream stream);

// aclnnCpuDescribeExecutor: the executor's Operation::describe() into *text. NULL → 161001; not live → 161002.
int describe_executor(const char *api, const aclOpExecutor *executor, std::string *text);

// The work a live executor records, or nullptr (NULL or not live): for tools that inspect a plan without running it
// (aclnn_cpu_demo --simulate-threads).
std::shared_ptr<const Operation> executor_operation(const aclOpExecutor *executor);

// aclSetAclOpExecutorRepeatable / aclDestroyAclOpExecutor. NULL → 561103 (CANN's code for these two);
// not live → 161002.
int set_executor_repeatable(const char *api, aclOpExecutor *executor);
int destroy_executor(const char *api, aclOpExecutor *executor);

// Points input (or output) tensor `index` of the executor's recorded work at `addr` (see
// Operation::with_tensor_addr). The executor's later launches use the new address; launches already queued
// keep the old one.
int set_executor_tensor_addr(const char *api, aclOpExecutor *executor, bool is_output, size_t index, void *addr);

}  // namespace aclnn_cpu

// What the operator layer needs from the host runtime.
#pragma once

#include <functional>

#include "acl/acl_base.h"

namespace aclnn_cpu {
namespace runtime {

// Appends `work` to `stream` (nullptr: the default stream). The work runs after everything queued before it
// on that stream; a non-success result is reported by the next aclrtSynchronizeStream of that stream.
// Returns ACL_SUCCESS, or an error (unknown or destroyed stream) without queueing anything.
aclError enqueue(aclrtStream stream, std::function<aclError()> work);

// When `p` lies inside a live aclrtMalloc/aclrtMallocHost allocation, stores its byte range [*begin, *end)
// and returns true.
bool find_allocation(const void *p, const unsigned char **begin, const unsigned char **end);

}  // namespace runtime
}  // namespace aclnn_cpu

// What the operator layer needs from the host runtime.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "acl/acl_base.h"
#include "runtime/stream.hpp"

namespace aclnn_cpu {
namespace runtime {

// Appends `work` to `stream` (nullptr: the default stream). The work runs after everything queued before it
// on that stream; a non-success result is reported by the next aclrtSynchronizeStream of that stream.
// Returns ACL_SUCCESS, or an error (unknown or destroyed stream) without queueing anything.
// Like aclrtCreateStream it needs aclInit and a set device: otherwise ACL_ERROR_UNINITIALIZE or
// ACL_ERROR_RT_CONTEXT_NULL (an unknown stream: ACL_ERROR_INVALID_PARAM), each with a message for
// aclGetRecentErrMsg. Never throws. Work runs on the stream's own thread; a message it records with
// set_recent_error when it fails is handed to the thread that synchronizes.
// `on_caller_when_idle`: when nothing is pending on the stream, run the work on the calling thread before
// returning instead (small work, for which the hand-off to the stream's thread costs more than the work). It is
// still counted as the stream's work: later work and synchronize wait for it, its failure is reported by the
// next synchronize, not by enqueue.
aclError enqueue(aclrtStream stream, Work work, bool on_caller_when_idle = false);

// A live aclrtMalloc/aclrtMallocHost allocation: its byte range [begin, end), the whole block this runtime
// reserved, as CANN reserves device memory (the requested size rounded up to 32 bytes plus 32 bytes of padding;
// aclrtMallocAlign32: without the padding), all of it usable; and the size the caller asked for.
struct Allocation {
  const unsigned char *begin = nullptr;
  const unsigned char *end = nullptr;
  size_t requested = 0;
  bool host = false;  // by aclrtMallocHost
};

// When `p` lies inside a live allocation, stores it and returns true.
bool find_allocation(const void *p, Allocation *out);
// The same, storing only its byte range.
bool find_allocation(const void *p, const unsigned char **begin, const unsigned char **end);

// find_allocation for `count` pointers at once, under one lock (found[i], out[i]).
void find_allocations(size_t count, const void *const *ps, bool *found, Allocation *out);

// "the aclrtMalloc allocation of 800 bytes (832 usable)", for messages about bounds: callers know the size they
// asked for, not the rounded one.
std::string allocation_text(const Allocation &allocation);

// The value of ACL_OPT_DETERMINISTIC set through aclrt{Ctx,}SetSysParamOpt, 0 when it was never set (or
// aclFinalize has run since).
int64_t deterministic_option();

}  // namespace runtime
}  // namespace aclnn_cpu

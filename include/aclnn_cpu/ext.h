/*
 * aclnn-cpu extensions: settings a program (or a test) may change at run time (each one can also be set by an
 * environment variable read at aclInit: ACLNN_CPU_SOC, ACLNN_CPU_NUM_THREADS, ACLNN_CPU_STRICT), and queries of
 * what the library does.
 */
#ifndef ACLNN_CPU_EXT_H_
#define ACLNN_CPU_EXT_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "acl/acl_base.h"
#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Emulated Ascend product: "Ascend910B" (default), "Ascend910_93", "Ascend950", "Ascend910", "Ascend310P".
 * Returns ACL_ERROR_INVALID_PARAM (and keeps the current product) for any other name. */
ACL_FUNC_VISIBILITY aclError aclnnCpuSetSoc(const char *socName);
ACL_FUNC_VISIBILITY const char *aclnnCpuGetSoc(void);

/* Threads used to compute one operator call; 0 selects the CPUs this process may use. */
ACL_FUNC_VISIBILITY aclError aclnnCpuSetNumThreads(int32_t numThreads);
ACL_FUNC_VISIBILITY int32_t aclnnCpuGetNumThreads(void);

/* The calling thread's own product and thread count, for programs that make calls with different settings on
 * different threads at once (the process-wide setters above would race). While set, each replaces the process-wide
 * value in what this thread does: aclnnConvolutionBackwardGetWorkspaceSize validates and plans with it, and
 * aclnnCpuGetSoc, aclnnCpuGetNumThreads and aclrtGetSocName report it. An executor keeps the product and thread
 * count of its GetWorkspaceSize call: its launch computes with them whichever thread runs it and whatever the
 * settings are by then. aclnnCpuSetThreadSoc(NULL) and aclnnCpuSetThreadNumThreads(-1) remove the override (the
 * process-wide setting applies again); another invalid value returns ACL_ERROR_INVALID_PARAM and keeps the current
 * one. Not inherited by threads the program creates. */
ACL_FUNC_VISIBILITY aclError aclnnCpuSetThreadSoc(const char *socName);
ACL_FUNC_VISIBILITY aclError aclnnCpuSetThreadNumThreads(int32_t numThreads);

/* Strict mode: additionally reject what the emulated product's hardware cannot run (561103). */
ACL_FUNC_VISIBILITY aclError aclnnCpuSetStrict(bool strict);
ACL_FUNC_VISIBILITY bool aclnnCpuGetStrict(void);

/* What is alive in the process, for leak checks: "aclTensor 2, aclOpExecutor 1, memory blocks 3, device bytes 96,
 * ..." (aclnn objects, data buffers, streams, events, contexts, memory blocks, device bytes, aclInit and device
 * references), or "nothing". The text stays valid until this thread's next call of the function. */
ACL_FUNC_VISIBILITY const char *aclnnCpuGetLiveObjects(void);

/* How an executor made by a first phase (aclnnConvolutionBackwardGetWorkspaceSize) and not launched yet was planned:
 * the lines ACLNN_CPU_VERBOSE=2 prints for it, '\n'-terminated — per requested output, each algorithm tried with
 * its refusal, then the chosen one with its kernel and ISA. Writes at most `capacity` bytes to `text` (always
 * NUL-terminated when capacity > 0; cut when short) and the whole length, without the NUL, to *length (if not
 * NULL). Returns 161001 for a NULL executor and 161002 for one that is not live (as aclnnStatus values). */
ACL_FUNC_VISIBILITY aclnnStatus aclnnCpuDescribeExecutor(const aclOpExecutor *executor, char *text, size_t capacity,
                                                         size_t *length);

/* Library version as "MAJOR.MINOR.PATCH". */
ACL_FUNC_VISIBILITY const char *aclnnCpuGetVersion(void);

#ifdef __cplusplus
}
#endif

#endif  // ACLNN_CPU_EXT_H_

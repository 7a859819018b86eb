/*
 * aclnn-cpu: CANN's graph-engine error codes (values as in CANN; none is produced by this host build).
 */
#ifndef INC_EXTERNAL_GE_GE_ERROR_CODES_H_
#define INC_EXTERNAL_GE_GE_ERROR_CODES_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

static const uint32_t ACL_ERROR_GE_PARAM_INVALID = 145000U;
static const uint32_t ACL_ERROR_GE_EXEC_NOT_INIT = 145001U;
static const uint32_t ACL_ERROR_GE_INTERNAL_ERROR = 545000U;

#ifdef __cplusplus
}
#endif

#endif  // INC_EXTERNAL_GE_GE_ERROR_CODES_H_

// Compile-only (-std=c++11 -Wall -Wextra -Werror): the op header is guarded by CANN's guard name, and a program
// may include op_errno.h and still #define the status codes itself, as CANN samples do, without a diagnostic.
#include "aclnnop/aclnn_convolution_backward.h"

#ifndef OP_API_INC_CONVOLUTION_BACKWARD_H_
#error "the op header must be guarded by OP_API_INC_CONVOLUTION_BACKWARD_H_"
#endif

// Defined before op_errno.h is seen ...
#define ACLNN_ERR_PARAM_INVALID 161002

#include "aclnn/opdev/op_errno.h"
#include "opdev/op_errno.h"  // the same file through -I$P/include/aclnn

// ... and after it, both plainly and behind #ifndef.
#define ACLNN_SUCCESS 0
#define ACLNN_ERR_PARAM_NULLPTR 161001
#define ACLNN_ERR_PARAM_INVALID 161002
#define ACLNN_ERR_RUNTIME_ERROR 361001
#define ACLNN_ERR_INNER 561000
#define ACLNN_ERR_INNER_NULLPTR 561103
#define ACLNN_ERR_INNER_FIND_KERNEL_ERROR 561003
#define ACLNN_ERR_INNER_CREATE_EXECUTOR 561101
#ifndef ACLNN_ERR_PARAM_NULLPTR
#define ACLNN_ERR_PARAM_NULLPTR 161001
#endif

static_assert(ACLNN_ERR_PARAM_NULLPTR == 161001, "ACLNN_ERR_PARAM_NULLPTR");
static_assert(ACLNN_ERR_PARAM_INVALID == 161002, "ACLNN_ERR_PARAM_INVALID");
static_assert(ACLNN_ERR_INNER_NULLPTR == 561103, "ACLNN_ERR_INNER_NULLPTR");

int main() { return ACLNN_SUCCESS; }

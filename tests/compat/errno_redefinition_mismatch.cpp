// Must NOT compile (registered with WILL_FAIL): a different body for a status macro that op_errno.h defines is
// diagnosed, which shows that op_header_guard_and_errno.cpp really exercises identical redefinitions.
#include "aclnn/opdev/op_errno.h"

#define ACLNN_ERR_PARAM_NULLPTR 161001U

int main() { return 0; }

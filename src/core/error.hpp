// Per-thread "most recent error" text, read back through aclGetRecentErrMsg.
#pragma once

#include <string>

namespace aclnn_cpu {

// Records `message` as this thread's most recent error (replacing any earlier one).
void set_recent_error(const std::string &message);

// This thread's most recent error, or nullptr when none has been recorded since the last clear.
const char *recent_error();

void clear_recent_error();

// Formats an aclnn parameter error the way CANN prints it:
// "<api>: AclNN_Parameter_Error(EZ1001): <detail>". Records it and returns `status`.
int param_error(int status, const char *api, const std::string &detail);

// Same shape for internal/unsupported failures: "<api>: AclNN_Inner_Error(EZ9999): <detail>".
int inner_error(int status, const char *api, const std::string &detail);

}  // namespace aclnn_cpu

#include "core/error.hpp"

namespace aclnn_cpu {
namespace {

struct RecentError {
  std::string text;
  bool set = false;
};

RecentError &this_thread_error() {
  thread_local RecentError error;
  return error;
}

}  // namespace

void set_recent_error(const std::string &message) {
  RecentError &e = this_thread_error();
  e.text = message;
  e.set = true;
}

const char *recent_error() {
  const RecentError &e = this_thread_error();
  return e.set ? e.text.c_str() : nullptr;
}

void clear_recent_error() { this_thread_error().set = false; }

int param_error(int status, const char *api, const std::string &detail) {
  set_recent_error(std::string(api) + ": AclNN_Parameter_Error(EZ1001): " + detail);
  return status;
}

int inner_error(int status, const char *api, const std::string &detail) {
  set_recent_error(std::string(api) + ": AclNN_Inner_Error(EZ9999): " + detail);
  return status;
}

}  // namespace aclnn_cpu

// Definitions of CANN's opaque aclnn objects, and the registry that tells live handles from stale ones.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "aclnn/acl_meta.h"

struct aclTensor {
  std::vector<int64_t> view_shape;
  std::vector<int64_t> strides;  // in elements, one per view dim
  int64_t offset = 0;            // in elements, from `data`
  aclDataType dtype = ACL_DT_UNDEFINED;
  aclFormat format = ACL_FORMAT_UNDEFINED;  // view = storage = origin format
  std::vector<int64_t> storage_shape;
  void *data = nullptr;
};

struct aclScalar {
  aclDataType dtype = ACL_DT_UNDEFINED;
  alignas(16) unsigned char bytes[16] = {};
};

struct aclIntArray {
  std::vector<int64_t> values;
};

struct aclFloatArray {
  std::vector<float> values;
};

struct aclBoolArray {
  std::vector<uint8_t> values;  // 0 or 1
};

struct aclTensorList {
  std::vector<aclTensor *> items;  // owned: destroying the list destroys its tensors, as in CANN
};

struct aclScalarList {
  std::vector<aclScalar *> items;  // owned
};

namespace aclnn_cpu {

// Work recorded by an operator's first phase and launched by its second. An Operation is shared between its
// executor and every launch still queued on a stream, so it must not change once built: a call that alters
// it (aclSetInputTensorAddr, ...) builds a new Operation for the executor instead.
class Operation {
 public:
  virtual ~Operation() = default;
  virtual uint64_t workspace_size() const = 0;
  // Runs the recorded work. Called on a stream's thread (or the launching thread: runs_on_caller); returns an
  // aclnnStatus.
  virtual int run(void *workspace, uint64_t workspace_size) = 0;
  // On success stores in *out a copy of this operation whose input (is_output false) or output tensor number
  // `index` starts at `addr`. Returns an aclnnStatus and records a message naming `api` on failure. The
  // default refuses: the operation does not support refreshing addresses.
  virtual int with_tensor_addr(const char *api, bool is_output, size_t index, void *addr,
                               std::shared_ptr<Operation> *out) const;
  // 0 while every aclrtMalloc block the recorded tensors lay in at the first phase is still live; otherwise
  // 161002 with a message naming `api` and the tensor (its memory was freed: running would use freed memory).
  virtual int check_memory(const char *api) const;
  // True when the work is so small that the launch should run it on the calling thread if the stream is idle
  // (see runtime::enqueue).
  virtual bool runs_on_caller() const { return false; }
  // What the workspace size depends on, for the message of a launch given a smaller one ("" when nothing to say).
  virtual std::string workspace_basis() const { return ""; }
  // How the work was planned, for aclnnCpuDescribeExecutor ("" when there is nothing to say).
  virtual std::string describe() const { return ""; }
};

}  // namespace aclnn_cpu

// Create with aclnn_cpu::create_executor (api/executor.hpp), which registers the handle.
struct aclOpExecutor {
  std::shared_ptr<aclnn_cpu::Operation> operation;  // shared with queued launches (see Operation)
  bool repeatable = false;
};

namespace aclnn_cpu {

// Live-handle registry for aclnn objects: lets an API call reject a destroyed, foreign or garbage pointer
// without dereferencing it.
enum class HandleKind { kTensor, kScalar, kIntArray, kFloatArray, kBoolArray, kTensorList, kScalarList, kExecutor };

// Throws std::bad_alloc when the registry cannot grow; the handle is then not registered.
void register_handle(HandleKind kind, const void *handle);
// Removes the handle; returns false if it was not live.
bool unregister_handle(HandleKind kind, const void *handle);
bool is_live_handle(HandleKind kind, const void *handle);

}  // namespace aclnn_cpu

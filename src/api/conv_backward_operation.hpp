// The work an aclnnConvolutionBackward executor records: a validated Problem (a full copy, so the caller's
// descriptors may be destroyed right after launch) executed by conv_bwd::execute.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "api/objects.hpp"
#include "conv_bwd/plan.hpp"
#include "conv_bwd/problem.hpp"
#include "runtime/runtime.hpp"

namespace aclnn_cpu {

class ConvBackwardOperation : public Operation {
 public:
  // Plans the call once (algorithms, kernel, partition, workspace). May throw std::bad_alloc.
  explicit ConvBackwardOperation(conv_bwd::Problem problem);

  uint64_t workspace_size() const override { return plan_.bytes; }
  // Why the validated call cannot be planned (conv_bwd::Plan::unplannable), or "".
  const std::string &unplannable() const { return plan_.unplannable; }
  std::string describe() const override;
  int run(void *workspace, uint64_t workspace_size) override;

  // Inputs are numbered as in the API: 0 gradOutput, 1 input, 2 weight; outputs 0 gradInput, 1 gradWeight,
  // 2 gradBias. Refuses (161002) an index out of range, a tensor that was NULL at GetWorkspaceSize, a NULL
  // address for a non-empty tensor, and an address inside an aclrtMalloc allocation that cannot hold the view.
  int with_tensor_addr(const char *api, bool is_output, size_t index, void *addr,
                       std::shared_ptr<Operation> *out) const override;

  // Refuses (161002) when the aclrtMalloc block that one of the tensors the call reads or writes lay in at
  // GetWorkspaceSize (or at the last address refresh) is no longer live: its memory was freed.
  int check_memory(const char *api) const override;

  bool runs_on_caller() const override { return plan_.on_caller; }

  // The plan's scratch slots: one per thread it runs on, so the size changes with the thread count.
  std::string workspace_basis() const override;

  const conv_bwd::Problem &problem() const { return problem_; }
  const conv_bwd::Plan &plan() const { return plan_; }

 private:
  // A tensor's data and the aclrtMalloc block it lay in when its address was recorded.
  struct Block {
    const char *name;
    const void *data;
    const unsigned char *begin;
    const unsigned char *end;
  };
  static constexpr size_t kMaxBlocks = 6;  // one per tensor
  void record_blocks();
  // Where the recorded tensors' data lie now (one registry lookup for all of them).
  struct Lookup {
    bool found[kMaxBlocks] = {};
    runtime::Allocation blocks[kMaxBlocks];
  };
  Lookup look_up() const;

  conv_bwd::Problem problem_;
  conv_bwd::Plan plan_;      // made at GetWorkspaceSize, and again for a changed tensor address
  uint64_t reported_bytes_;  // the workspace GetWorkspaceSize reported (what the caller holds)
  // A fixed array: a vector's growth cost four allocations per call of the seed problem.
  std::array<Block, kMaxBlocks> blocks_{};
  size_t block_count_ = 0;
};

}  // namespace aclnn_cpu

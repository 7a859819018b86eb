#include "api/conv_backward_operation.hpp"

#include <string>
#include <utility>

#include "api/api_util.hpp"
#include "conv_bwd/execute.hpp"
#include "core/checked.hpp"
#include "core/config.hpp"
#include "core/dtype.hpp"
#include "runtime/runtime.hpp"

namespace aclnn_cpu {
namespace {

constexpr size_t kTensorsPerSide = 3;
const char *const kInputNames[kTensorsPerSide] = {"gradOutput", "input", "weight"};
const char *const kOutputNames[kTensorsPerSide] = {"gradInput", "gradWeight", "gradBias"};

// Byte range [lo, hi) relative to the data pointer that a view touches; false on int64 overflow.
bool view_byte_range(const conv_bwd::TensorArg &t, int64_t *lo, int64_t *hi) {
  int64_t min_el = t.offset;
  int64_t max_el = t.offset;
  for (size_t d = 0; d < t.shape.size() && d < t.strides.size(); ++d) {
    int64_t step = 0;
    if (!checked_mul(t.shape[d] - 1, t.strides[d], &step)) return false;
    if (!checked_add(step < 0 ? min_el : max_el, step, step < 0 ? &min_el : &max_el)) return false;
  }
  const int64_t item = static_cast<int64_t>(dtype_size(t.dtype));
  int64_t end_el = 0;
  return checked_mul(min_el, item, lo) && checked_add(max_el, 1, &end_el) && checked_mul(end_el, item, hi);
}

// The bounds-safety rule of phase one, applied to a refreshed address.
int check_new_addr(const char *api, const char *name, const conv_bwd::TensorArg &t, void *addr) {
  if (t.numel == 0) return ACLNN_SUCCESS;
  if (addr == nullptr) {
    return param_error(ACLNN_ERR_PARAM_INVALID, api,
                       std::string("addr is nullptr but ") + name + " has " + std::to_string(t.numel) + " elements");
  }
  runtime::Allocation block;
  if (!runtime::find_allocation(addr, &block)) return ACLNN_SUCCESS;
  int64_t lo = 0;
  int64_t hi = 0;
  const auto base = reinterpret_cast<intptr_t>(addr);
  const bool inside = view_byte_range(t, &lo, &hi) && lo >= reinterpret_cast<intptr_t>(block.begin) - base &&
                      hi <= reinterpret_cast<intptr_t>(block.end) - base;
  if (!inside) {
    return param_error(ACLNN_ERR_PARAM_INVALID, api,
                       std::string("the view of ") + name + " at addr " + pointer_text(addr) + " reaches outside " +
                           runtime::allocation_text(block) + " holding it, [" + pointer_text(block.begin) + ", " +
                           pointer_text(block.end) + ")");
  }
  return ACLNN_SUCCESS;
}

}  // namespace

ConvBackwardOperation::ConvBackwardOperation(conv_bwd::Problem problem)
    : problem_(std::move(problem)),
      plan_(conv_bwd::make_plan(problem_, conv_bwd::current_plan_context())),
      reported_bytes_(plan_.bytes) {
  record_blocks();
  if (settings().verbose >= 2) conv_bwd::print_plan_verbose(problem_, plan_);
}

// The tensors phase one checks against their allocations: the inputs and the requested outputs. Host memory
// (outside every block) is not tracked.
void ConvBackwardOperation::record_blocks() {
  const conv_bwd::Problem &p = problem_;
  const conv_bwd::TensorArg *const tensors[2 * kTensorsPerSide] = {&p.grad_output, &p.input,       &p.weight,
                                                                   &p.grad_input,  &p.grad_weight, &p.grad_bias};
  static_assert(kMaxBlocks == 2 * kTensorsPerSide, "one block per tensor");
  block_count_ = 0;
  for (size_t i = 0; i < 2 * kTensorsPerSide; ++i) {
    const conv_bwd::TensorArg &t = *tensors[i];
    const bool used = i < kTensorsPerSide || p.mask[i - kTensorsPerSide];
    if (!used || !t.present || t.numel == 0 || t.data == nullptr) continue;
    blocks_[block_count_++] =
        Block{i < kTensorsPerSide ? kInputNames[i] : kOutputNames[i - kTensorsPerSide], t.data, nullptr, nullptr};
  }
  const Lookup found = look_up();
  size_t kept = 0;
  for (size_t i = 0; i < block_count_; ++i) {
    if (!found.found[i]) continue;
    blocks_[kept] = blocks_[i];
    blocks_[kept].begin = found.blocks[i].begin;
    blocks_[kept].end = found.blocks[i].end;
    ++kept;
  }
  block_count_ = kept;
}

ConvBackwardOperation::Lookup ConvBackwardOperation::look_up() const {
  Lookup l;
  const void *data[kMaxBlocks];
  for (size_t i = 0; i < block_count_; ++i) data[i] = blocks_[i].data;
  runtime::find_allocations(block_count_, data, l.found, l.blocks);
  return l;
}

int ConvBackwardOperation::check_memory(const char *api) const {
  const Lookup now = look_up();
  for (size_t i = 0; i < block_count_; ++i) {
    const Block &b = blocks_[i];
    if (now.found[i] && now.blocks[i].begin == b.begin && now.blocks[i].end == b.end) continue;
    return param_error(ACLNN_ERR_PARAM_INVALID, api,
                       std::string(b.name) + " (data " + pointer_text(b.data) + ") lay in the aclrtMalloc block [" +
                           pointer_text(b.begin) + ", " + pointer_text(b.end) +
                           ") at aclnnConvolutionBackwardGetWorkspaceSize, which has been freed since (aclrtFree, "
                           "aclrtResetDevice or aclFinalize); nothing was computed");
  }
  return ACLNN_SUCCESS;
}

std::string ConvBackwardOperation::describe() const { return conv_bwd::describe_dispatch(problem_, plan_); }

std::string ConvBackwardOperation::workspace_basis() const {
  if (plan_.slot_bytes == 0) return "";
  return "; it holds a scratch slot for each of the " + std::to_string(plan_.slots) +
         " threads planned at GetWorkspaceSize, so a size obtained under another thread count can be too small";
}

int ConvBackwardOperation::run(void *workspace, uint64_t workspace_size) {
  const ScopedThreadNumThreads planned(plan_.threads);
  return conv_bwd::execute(problem_, plan_, workspace, workspace_size);
}

int ConvBackwardOperation::with_tensor_addr(const char *api, bool is_output, size_t index, void *addr,
                                            std::shared_ptr<Operation> *out) const {
  if (index >= kTensorsPerSide) {
    return param_error(ACLNN_ERR_PARAM_INVALID, api,
                       "index " + std::to_string(index) + " is out of range: aclnnConvolutionBackward has " +
                           std::to_string(kTensorsPerSide) + (is_output ? " outputs" : " inputs") + " (0.." +
                           std::to_string(kTensorsPerSide - 1) + ")");
  }
  const char *name = is_output ? kOutputNames[index] : kInputNames[index];
  auto copy = std::make_shared<ConvBackwardOperation>(*this);
  conv_bwd::Problem &p = copy->problem_;
  conv_bwd::TensorArg *const inputs[kTensorsPerSide] = {&p.grad_output, &p.input, &p.weight};
  conv_bwd::TensorArg *const outputs[kTensorsPerSide] = {&p.grad_input, &p.grad_weight, &p.grad_bias};
  conv_bwd::TensorArg &t = *(is_output ? outputs : inputs)[index];
  if (!t.present) {
    return param_error(ACLNN_ERR_PARAM_INVALID, api,
                       std::string(name) +
                           " was nullptr at aclnnConvolutionBackwardGetWorkspaceSize, so it has no address to refresh");
  }
  if (int st = check_new_addr(api, name, t, addr)) return st;
  t.data = addr;
  // The plan is the single truth execution trusts: planned again for the new address, with the context of the first
  // (an output that now shares memory with an operand, or a misaligned tensor, takes the reference, which stages the
  // operands in the workspace first). The caller's workspace has the size the first GetWorkspaceSize reported.
  copy->plan_ = conv_bwd::make_plan(p, plan_.context);
  if (copy->plan_.bytes > reported_bytes_) {
    return param_error(ACLNN_ERR_PARAM_INVALID, api,
                       std::string("with ") + name + " at addr " + pointer_text(addr) + " the call needs " +
                           std::to_string(copy->plan_.bytes) + " bytes of workspace (" +
                           conv_bwd::describe_plan(copy->plan_) + "), more than the " +
                           std::to_string(reported_bytes_) +
                           " aclnnConvolutionBackwardGetWorkspaceSize reported; call it again with this address");
  }
  copy->record_blocks();
  *out = std::move(copy);
  return ACLNN_SUCCESS;
}

}  // namespace aclnn_cpu

// Ours, beyond CANN (runs right after V8, or where V8 would run on the empty short-circuit): every tensor the
// op reads or writes must have memory behind its view. Checked: gradOutput, input, weight, and the outputs whose
// outputMask bit is set (a masked-off output is never touched, so it may be a placeholder).
//  * a non-empty view with a NULL data pointer → 161001 (CANN would crash or fail in the kernel);
//  * a negative storage offset or stride → 161002 (not supported: views must grow upwards from data + offset);
//  * a view extent that overflows int64 / the address space → 161002;
//  * a data pointer inside an aclrtMalloc allocation whose view reaches past the allocation's end → 161002.
//  * an output view in which two elements share an address (e.g. a zero stride) → 161002: threads would race
//    on it and results would depend on timing.
// Empty views have no extent and are not checked.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "conv_bwd/validate/stages.hpp"
#include "conv_bwd/validate/text.hpp"
#include "core/checked.hpp"
#include "core/dtype.hpp"
#include "runtime/runtime.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

std::string view_text(const TensorView &t) {
  return "shape " + ints_text(t.shape) + ", strides " + ints_text(t.strides) + ", offset " + std::to_string(t.offset) +
         ", dtype " + dtype_name(t.dtype);
}

int check_signs(int slot, const TensorView &t) {
  bool negative = t.offset < 0;
  for (int64_t s : t.strides) negative = negative || s < 0;
  if (!negative) return ACLNN_SUCCESS;
  return fail_invalid(std::string("the view of ") + slot_name(slot) + " (" + view_text(t) +
                      ") has a negative offset or stride, which is not supported.");
}

// Bytes from `data` to one past the view's last element, or -1 when that does not fit in int64.
int64_t view_end_bytes(const TensorView &t) {
  int64_t last = t.offset;
  for (size_t i = 0; i < t.shape.size(); ++i) {
    int64_t step = 0;
    if (!checked_mul(t.shape[i] - 1, t.strides[i], &step) || !checked_add(last, step, &last)) return -1;
  }
  int64_t bytes = 0;
  const int64_t element = static_cast<int64_t>(dtype_size(t.dtype));
  if (!checked_add(last, 1, &last) || !checked_mul(last, element, &bytes)) return -1;
  return bytes;
}

// A view can outgrow its allocation because its shape is wrong: when a channel rule checked later (V9) says so,
// that is the root cause to name.
std::string with_shape_root_cause(const Call &call, int slot, const std::string &symptom) {
  if (call.short_circuit || slot == kWeight || slot > kGradInput) return symptom;
  const Fault root = channel_fault(call, slot == kGradInput ? kInput : slot);  // gradInput has input's shape (V8)
  return root.slot < 0 ? symptom : with_root_cause(root.text, symptom);
}

// `block`: the allocation the tensor's data lies in, when `in_block`.
int check_extent(const Call &call, int slot, const TensorView &t, bool in_block, const runtime::Allocation &block) {
  if (dtype_size(t.dtype) == 0) {
    return fail_invalid(std::string(slot_name(slot)) + " has dtype " + dtype_name(t.dtype) +
                        " without a whole-byte element size.");
  }
  const int64_t end = view_end_bytes(t);
  const uintptr_t base = reinterpret_cast<uintptr_t>(t.data);
  if (end < 0 || static_cast<uint64_t>(end) > UINTPTR_MAX - base) {
    return fail_invalid(std::string("the byte extent of the view of ") + slot_name(slot) + " (" + view_text(t) +
                        ") overflows the address space.");
  }
  if (!in_block) return ACLNN_SUCCESS;
  const uint64_t available = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(block.end) - base);
  if (static_cast<uint64_t>(end) <= available) return ACLNN_SUCCESS;
  return fail_invalid(with_shape_root_cause(
      call, slot,
      std::string("the view of ") + slot_name(slot) + " (" + view_text(t) + ") needs " + std::to_string(end) +
          " bytes from its data pointer, but " + runtime::allocation_text(block) + " holding it has only " +
          std::to_string(available) + " bytes from there (its data pointer is " +
          std::to_string(base - reinterpret_cast<uintptr_t>(block.begin)) + " bytes into it)."));
}

// True when distinct indices of the view address distinct elements: ordered by stride, each dim (of size > 1)
// must step over the whole extent of the dims below it.
bool is_one_to_one(const TensorView &t) {
  // (stride, size) of the dims above 1: on the stack for the usual ranks (a vector cost three allocations a call).
  constexpr size_t kOnStack = 8;
  std::pair<int64_t, int64_t> stack[kOnStack];
  std::vector<std::pair<int64_t, int64_t>> heap;
  const size_t rank = t.shape.size();
  if (rank > kOnStack) heap.resize(rank);
  std::pair<int64_t, int64_t> *dims = rank > kOnStack ? heap.data() : stack, *end = dims;
  for (size_t i = 0; i < rank; ++i) {
    if (t.shape[i] > 1) *end++ = {t.strides[i], t.shape[i]};
  }
  std::sort(dims, end);
  int64_t span = 1;  // elements covered by the dims so far
  for (const auto *d = dims; d != end; ++d) {
    if (d->first < span) return false;
    if (!checked_mul(d->first, d->second, &span)) return false;
  }
  return true;
}

int check_output_overlap(int slot, const TensorView &t) {
  if (slot < kGradInput || is_one_to_one(t)) return ACLNN_SUCCESS;
  return fail_invalid(std::string("the view of ") + slot_name(slot) + " (" + view_text(t) +
                      ") maps different elements to the same memory; an output view must not overlap itself.");
}

}  // namespace

int check_memory(const Call &call) {
  // The checked tensors' blocks, under one registry lock.
  const void *data[kSlotCount] = {};
  bool found[kSlotCount] = {};
  runtime::Allocation blocks[kSlotCount];
  for (int slot = 0; slot < kSlotCount; ++slot) {
    const TensorView &t = call.tensor(slot);
    if (t.given) data[slot] = t.data;
  }
  runtime::find_allocations(kSlotCount, data, found, blocks);
  for (int slot = 0; slot < kSlotCount; ++slot) {
    const TensorView &t = call.tensor(slot);
    if (!t.given || call.numel[slot] == 0) continue;
    if (slot >= kGradInput && !call.mask[slot - kGradInput]) continue;
    if (t.data == nullptr) {
      return fail_null(std::string(slot_name(slot)) + " has " + std::to_string(call.numel[slot]) + " elements (shape " +
                       ints_text(t.shape) + ") but its data pointer is null.");
    }
    if (int status = check_signs(slot, t)) return status;
    if (int status = check_extent(call, slot, t, found[slot], blocks[slot])) return status;
    if (int status = check_output_overlap(slot, t)) return status;
  }
  return ACLNN_SUCCESS;
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu

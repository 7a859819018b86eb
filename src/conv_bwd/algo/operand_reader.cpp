#include "conv_bwd/algo/operand_reader.hpp"

#include <cstring>

#include "numerics/batch.hpp"
#include "numerics/formats.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

void decode(const View5 &v, int64_t index, int64_t stride, int64_t count, float *out) {
  switch (v.dtype) {
    case ACL_FLOAT: {
      const float *src = static_cast<const float *>(v.data) + index;
      if (stride == 1) {
        std::memcpy(out, src, static_cast<size_t>(count) * sizeof(float));
      } else {
        for (int64_t i = 0; i < count; ++i) out[i] = src[i * stride];
      }
      return;
    }
    case ACL_BF16: {
      const uint16_t *src = static_cast<const uint16_t *>(v.data) + index;
      uint32_t *dst = reinterpret_cast<uint32_t *>(out);
      if (stride == 1) {
        for (int64_t i = 0; i < count; ++i) dst[i] = static_cast<uint32_t>(src[i]) << 16;
      } else {
        for (int64_t i = 0; i < count; ++i) dst[i] = static_cast<uint32_t>(src[i * stride]) << 16;
      }
      return;
    }
    case ACL_FLOAT16:
      numerics::fp16_to_fp32_n(static_cast<const uint16_t *>(v.data) + index, stride, count, out);
      return;
    default:
      for (int64_t i = 0; i < count; ++i) out[i] = load_value(v.data, v.dtype, index + i * stride);
      return;
  }
}

constexpr int64_t kRoundAsCopiedRun = 512;

}  // namespace

bool all_finite(const float *v, int64_t count) {
  uint32_t any_special = 0;
  for (int64_t i = 0; i < count; ++i) {
    uint32_t bits;
    std::memcpy(&bits, v + i, 4);
    any_special |= static_cast<uint32_t>((bits & 0x7F800000u) == 0x7F800000u);
  }
  return any_special == 0;
}

void decode_run(const View5 &view, int64_t index, int64_t stride, int64_t count, float *out) {
  if (count > 0) decode(view, index, stride, count, out);
}

bool OperandReader::read(int64_t index, int64_t stride, int64_t count, float *out) const {
  if (count <= 0) return true;
  // A long FP32 run to round is rounded as it is copied, one pass instead of two (HF32 1×1 56² gradWeight, rows of
  // 784: 1.24 -> 1.18 ms). Short runs keep memcpy, then the rounding in cache: rounding as copied was slower when
  // rows of 128 come from many planes at once (that layer's gradInput 1.20 -> 1.28 ms).
  if (view_.dtype == ACL_FLOAT && stride == 1 && !exact_ && count >= kRoundAsCopiedRun) {
    rounding_.operands_copy(static_cast<const float *>(view_.data) + index, count, out);
    return !check_finite_ || all_finite(out, count);
  }
  decode_run(view_, index, stride, count, out);
  return finish(out, count);
}

bool OperandReader::finish(float *v, int64_t count) const {
  if (!exact_) rounding_.operands(v, count);
  return !check_finite_ || all_finite(v, count);
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu

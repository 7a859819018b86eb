#include "conv_bwd/algo/operand_reader.hpp"

#include <cstring>

#include "numerics/batch.hpp"
#include "numerics/formats.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

uint16_t half_at(const void *data, int64_t index) {
  uint16_t v;
  std::memcpy(&v, static_cast<const unsigned char *>(data) + index * 2, 2);
  return v;
}

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
    case ACL_BF16:
      for (int64_t i = 0; i < count; ++i) {
        const uint32_t bits = static_cast<uint32_t>(half_at(v.data, index + i * stride)) << 16;
        std::memcpy(out + i, &bits, 4);
      }
      return;
    case ACL_FLOAT16:
      numerics::fp16_to_fp32_n(static_cast<const uint16_t *>(v.data) + index, stride, count, out);
      return;
    default:
      for (int64_t i = 0; i < count; ++i) out[i] = load_value(v.data, v.dtype, index + i * stride);
      return;
  }
}

bool all_finite(const float *v, int64_t count) {
  uint32_t any_special = 0;
  for (int64_t i = 0; i < count; ++i) {
    uint32_t bits;
    std::memcpy(&bits, v + i, 4);
    any_special |= static_cast<uint32_t>((bits & 0x7F800000u) == 0x7F800000u);
  }
  return any_special == 0;
}

}  // namespace

void decode_run(const View5 &view, int64_t index, int64_t stride, int64_t count, float *out) {
  if (count > 0) decode(view, index, stride, count, out);
}

bool OperandReader::read(int64_t index, int64_t stride, int64_t count, float *out) const {
  if (count <= 0) return true;
  decode(view_, index, stride, count, out);
  if (!exact_) rounding_.operands(out, count);
  return !check_finite_ || all_finite(out, count);
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu

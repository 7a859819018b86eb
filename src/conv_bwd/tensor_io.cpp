#include "conv_bwd/tensor_io.hpp"

#include <cstring>

#include "numerics/formats.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

// memcpy keeps the accesses free of alignment and aliasing assumptions about user buffers.
template <typename T>
T read_raw(const void *data, int64_t index) {
  T v;
  std::memcpy(&v, static_cast<const unsigned char *>(data) + index * static_cast<int64_t>(sizeof(T)), sizeof(T));
  return v;
}

template <typename T>
void write_raw(void *data, int64_t index, T v) {
  std::memcpy(static_cast<unsigned char *>(data) + index * static_cast<int64_t>(sizeof(T)), &v, sizeof(T));
}

}  // namespace

bool is_supported_dtype(aclDataType dtype) {
  switch (dtype) {
    case ACL_FLOAT:
    case ACL_FLOAT16:
    case ACL_BF16:
    case ACL_HIFLOAT8:
    case ACL_FLOAT8_E4M3FN:
      return true;
    default:
      return false;
  }
}

float load_value(const void *data, aclDataType dtype, int64_t index) {
  switch (dtype) {
    case ACL_FLOAT:
      return read_raw<float>(data, index);
    case ACL_FLOAT16:
      return numerics::fp16_to_fp32(read_raw<uint16_t>(data, index));
    case ACL_BF16:
      return numerics::bf16_to_fp32(read_raw<uint16_t>(data, index));
    case ACL_HIFLOAT8:
      return numerics::hif8_to_fp32(read_raw<uint8_t>(data, index));
    case ACL_FLOAT8_E4M3FN:
      return numerics::e4m3fn_to_fp32(read_raw<uint8_t>(data, index));
    default:
      return 0.0f;  // unreachable: execute() rejects other dtypes before touching data
  }
}

void store_value(void *data, aclDataType dtype, int64_t index, float value, Fp8Overflow overflow) {
  switch (dtype) {
    case ACL_FLOAT:
      write_raw<float>(data, index, value);
      break;
    case ACL_FLOAT16:
      write_raw<uint16_t>(data, index, numerics::fp32_to_fp16(value));
      break;
    case ACL_BF16:
      write_raw<uint16_t>(data, index, numerics::fp32_to_bf16(value));
      break;
    case ACL_HIFLOAT8:
      write_raw<uint8_t>(data, index, numerics::fp32_to_hif8(value));
      break;
    case ACL_FLOAT8_E4M3FN:
      write_raw<uint8_t>(data, index, numerics::fp32_to_e4m3fn(value, overflow));
      break;
    default:
      break;  // unreachable, see load_value
  }
}

float round_to_dtype(float value, aclDataType dtype, Fp8Overflow overflow) {
  switch (dtype) {
    case ACL_FLOAT16:
      return numerics::round_to_fp16(value);
    case ACL_BF16:
      return numerics::round_to_bf16(value);
    case ACL_HIFLOAT8:
      return numerics::hif8_to_fp32(numerics::fp32_to_hif8(value));
    case ACL_FLOAT8_E4M3FN:
      return numerics::e4m3fn_to_fp32(numerics::fp32_to_e4m3fn(value, overflow));
    default:
      return value;
  }
}

View5 lift(const TensorArg &tensor) {
  View5 v;
  v.data = tensor.data;
  v.dtype = tensor.dtype;
  v.offset = tensor.offset;
  const int rank = static_cast<int>(tensor.shape.size());
  for (int i = 0; i < 2; ++i) {
    v.shape[i] = tensor.shape[i];
    v.strides[i] = tensor.strides[i];
  }
  // Spatial dims are right-aligned into D, H, W.
  for (int i = 2; i < rank; ++i) {
    const int j = i + (5 - rank);
    v.shape[j] = tensor.shape[i];
    v.strides[j] = tensor.strides[i];
  }
  return v;
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu

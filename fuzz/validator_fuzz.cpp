// libFuzzer target for aclnnConvolutionBackwardGetWorkspaceSize: arbitrary shapes, strides,
// offsets, dtypes, formats, storage shapes, data placements, NULL/absurd arrays, overflowing products, masks,
// groups, cubeMathType, transposed, every emulated product, strict mode and the deterministic option. Every call
// must return a status (with a message when it fails) and never crash, hang, leak or touch memory outside the
// buffers it was given. Small accepted problems are also run (phase 2) on buffers sized exactly to their views,
// so ASan sees any access outside them.
//
// Input encoding (read from the front; bytes past the end read as 0), see fuzz/make_validator_corpus.sh:
//   soc, flags, deterministic, cubeMathType, number:groups,
//   6 x tensor (gradOutput, input, weight, gradInput, gradWeight, gradBias),
//   5 x int array (biasSizes, stride, padding, dilation, outputPadding), bool array (outputMask)
// number:  byte b < 0xB0 -> b % 8;  0xB0..0xBF -> kCancelling[b - 0xB0];  0xC0..0xEF -> b - 0xB8 (8..55);
//          0xF0..0xFF -> kSpecialNumbers[b - 0xF0] (0xFF: the next 8 bytes, little endian)
// flags:   bit0 strict, bit1 transposed, bit2 run phase 2 when accepted and small, bit3 fit gradOutput: its
//          spatial dims rewritten to what input, weight and the attributes give when that is small (a contiguous
//          buffer of its own), so that valid calls with attribute values from the whole int64 range reach planning
// tensor:  kind byte: bits0-1 == 0 -> NULL tensor; bits2-3 stride mode (0 contiguous, 1 NULL pointer, 2 given);
//          bits4-5 storage mode (0 = view dims, 1 = none, 2 = given, 3 = exact 1-D extent);
//          bits6-7 data (0 our buffer sized to the view, 1 aclrtMalloc sized to the view, 2 aclrtMalloc too
//          small for the view, 3 NULL); then rank byte (% 8), dtype byte, format byte, rank numbers (dims),
//          [rank numbers (strides)], number (offset), [storage rank byte (% 8) + numbers]
// int array: mode byte (% 4: 0 NULL, 1 values, 2 NULL values with a size, 3 empty); unless NULL a count byte
//          (% 7); for mode 1 that many numbers
// bool array: mode byte (% 3: 0 NULL, 1 values, 2 NULL values with a size); unless NULL a count byte (% 6);
//          for mode 1 a bits byte (bit i = element i)
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "acl/acl.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnn_cpu/ext.h"
#include "aclnnop/aclnn_convolution_backward.h"

namespace {

// clang-format off
// 3037000500 squared just exceeds INT64_MAX.
constexpr int64_t kSpecialNumbers[15] = {
    -1, -2, -7, INT64_MIN, INT64_MAX, INT32_MAX, INT64_C(1) << 31, INT64_C(1) << 32, INT64_C(1) << 40,
    3037000500, INT64_C(1) << 62, 255, 256, 65536, 1000001};
// Attribute values near the int64 limits that cancel each other in the output-size formulas (a pad of 10^18 with a
// stride or dilation of 10^18, INT64_MAX / 2 and INT64_MAX − 10, ...), so that valid calls are made of them.
constexpr int64_t kCancelling[16] = {
    INT64_C(1000000000000000000), INT64_C(999999999999999999), INT64_C(2999999999999999997),
    INT64_C(2000000000000000000), INT64_MAX / 2, INT64_MAX - 10, INT64_MAX - 1, INT64_C(1) << 62,
    (INT64_C(1) << 62) - 1, INT64_C(4611686018427387905), INT64_C(1) << 40, (INT64_C(1) << 40) + 1, 2147483647,
    INT64_C(1000000000000000100), INT64_C(500000000000000000), INT64_C(999999999999999998)};
const char *const kSocs[] = {"Ascend910B", "Ascend910_93", "Ascend950", "Ascend910", "Ascend310P", "Ascend310B"};
// Unknown values stay inside the enums' value range ([-64, 63]): anything else is not a valid enum value in C++.
const aclDataType kDtypes[] = {
    ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_HIFLOAT8, ACL_FLOAT8_E4M3FN, ACL_FLOAT8_E5M2, ACL_DOUBLE, ACL_INT8,
    ACL_INT32, ACL_INT64, ACL_BOOL, ACL_DT_UNDEFINED, ACL_INT4, ACL_COMPLEX64, static_cast<aclDataType>(5),
    static_cast<aclDataType>(63)};
const aclFormat kFormats[] = {
    ACL_FORMAT_NCHW, ACL_FORMAT_ND, ACL_FORMAT_NCL, ACL_FORMAT_NCDHW, ACL_FORMAT_NHWC, ACL_FORMAT_NDHWC,
    ACL_FORMAT_NC1HWC0, ACL_FORMAT_FRACTAL_Z, ACL_FORMAT_UNDEFINED, ACL_FORMAT_HWCN, ACL_FORMAT_NC,
    static_cast<aclFormat>(63)};
// clang-format on
constexpr int64_t kMaxBufferBytes = int64_t{1} << 20;  // larger views get a deliberately small allocation
constexpr int64_t kMaxPhase2Work = int64_t{1} << 18;   // elements(dy or x) * elements(w) bound for running
constexpr uint64_t kMaxWorkspace = uint64_t{1} << 26;

class Reader {
 public:
  Reader(const uint8_t *data, size_t size) : data_(data), size_(size) {}

  uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }

  int64_t number() {
    uint8_t b = byte();
    if (b < 0xB0) return b % 8;
    if (b < 0xC0) return kCancelling[b - 0xB0];
    if (b < 0xF0) return b - 0xB8;
    if (b < 0xFF) return kSpecialNumbers[b - 0xF0];
    uint64_t raw = 0;
    for (int i = 0; i < 8; ++i) raw |= static_cast<uint64_t>(byte()) << (8 * i);
    int64_t value;
    std::memcpy(&value, &raw, sizeof value);
    return value;
  }

  template <typename T, size_t N>
  T pick(const T (&table)[N]) {
    return table[byte() % N];
  }

 private:
  const uint8_t *data_;
  size_t size_;
  size_t pos_ = 0;
};

int64_t item_size(aclDataType dtype) {
  switch (dtype) {
    case ACL_FLOAT:
    case ACL_INT32:
      return 4;
    case ACL_FLOAT16:
    case ACL_BF16:
      return 2;
    case ACL_DOUBLE:
    case ACL_INT64:
    case ACL_COMPLEX64:
      return 8;
    default:
      return 1;
  }
}

// Owns whatever one call needs and releases it in every case.
struct Arena {
  std::vector<aclTensor *> tensors;
  std::vector<aclIntArray *> int_arrays;
  std::vector<aclBoolArray *> bool_arrays;
  std::vector<void *> device;
  std::vector<std::unique_ptr<unsigned char[]>> host;

  ~Arena() {
    for (aclTensor *t : tensors) aclDestroyTensor(t);
    for (aclIntArray *a : int_arrays) aclDestroyIntArray(a);
    for (aclBoolArray *a : bool_arrays) aclDestroyBoolArray(a);
    for (void *p : device) aclrtFree(p);
  }

  void *device_alloc(int64_t bytes) {
    void *p = nullptr;
    if (aclrtMalloc(&p, static_cast<size_t>(bytes < 1 ? 1 : bytes), ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
      return nullptr;
    }
    device.push_back(p);
    return p;
  }
};

struct Tensor {
  aclTensor *handle = nullptr;
  std::vector<int64_t> dims;
  aclDataType dtype = ACL_FLOAT;
  aclFormat format = ACL_FORMAT_ND;
  int64_t elements = 0;
  bool exact = true;         // data covers the whole view, so phase 2 may run on it
  bool short_alloc = false;  // data is an aclrtMalloc block the view reaches outside of
};

bool mul(int64_t a, int64_t b, int64_t *out) { return !__builtin_mul_overflow(a, b, out); }
bool add(int64_t a, int64_t b, int64_t *out) { return !__builtin_add_overflow(a, b, out); }
bool sub(int64_t a, int64_t b, int64_t *out) { return !__builtin_sub_overflow(a, b, out); }

// Lowest and highest element index the view touches; false if empty (no element) or not representable.
bool view_span(const std::vector<int64_t> &dims, const std::vector<int64_t> &strides, int64_t offset, int64_t *lo,
               int64_t *hi, bool *empty) {
  *lo = *hi = offset;
  *empty = false;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] <= 0) {
      *empty = true;
      return dims[i] == 0;
    }
  }
  for (size_t i = 0; i < dims.size(); ++i) {
    int64_t reach;
    if (!mul(dims[i] - 1, strides[i], &reach)) return false;
    if (!add(reach < 0 ? *lo : *hi, reach, reach < 0 ? lo : hi)) return false;
  }
  return true;
}

Tensor make_tensor(Reader &in, Arena &arena) {
  Tensor t;
  uint8_t kind = in.byte();
  if ((kind & 3) == 0) return t;
  int stride_mode = (kind >> 2) & 3, storage_mode = (kind >> 4) & 3, data_mode = (kind >> 6) & 3;
  size_t rank = in.byte() % 8;
  aclDataType dtype = in.pick(kDtypes);
  aclFormat format = in.pick(kFormats);
  std::vector<int64_t> dims(rank), strides(rank, 1);
  for (auto &d : dims) d = in.number();
  if (stride_mode == 2) {
    for (auto &s : strides) s = in.number();
  } else {
    for (size_t i = rank; i-- > 1;) {
      if (!mul(strides[i], dims[i] < 1 ? 1 : dims[i], &strides[i - 1])) strides[i - 1] = INT64_MAX;
    }
  }
  int64_t offset = in.number();
  const int64_t item = item_size(dtype);
  int64_t lo = 0, hi = 0, count = 0, bytes = 0;
  bool empty = false;
  bool span_ok = view_span(dims, strides, offset, &lo, &hi, &empty);
  // "sized": the view spans at most kMaxBufferBytes, starting within 1 MiB elements of tensorData.
  bool sized = span_ok && !empty && lo >= -kMaxBufferBytes && lo <= kMaxBufferBytes && sub(hi, lo, &count) &&
               add(count, 1, &count) && mul(count, item, &bytes) && bytes <= kMaxBufferBytes;
  t.elements = 1;
  for (int64_t d : dims) {
    if (!mul(t.elements, d < 0 ? 0 : d, &t.elements)) t.elements = INT64_MAX;
  }

  std::vector<int64_t> storage = dims;
  if (storage_mode == 1) {
    storage.clear();
  } else if (storage_mode == 2) {
    storage.resize(in.byte() % 8);
    for (auto &d : storage) d = in.number();
  } else if (storage_mode == 3) {
    storage.assign(1, sized ? count : 0);
  }

  void *data = nullptr;
  if (data_mode == 3) {
    t.exact = empty;
  } else if (empty) {
    data = arena.device_alloc(32);  // nothing of it is touched
  } else if (data_mode == 2 || !sized) {
    // A block the view reaches outside of. The runtime reserves up to 63 bytes more than requested (32-byte
    // rounding plus padding), so only views longer than that count as provably outside.
    int64_t request = sized ? (bytes >= 256 ? bytes / 2 - 64 : 1) : 64;
    data = arena.device_alloc(request);
    t.exact = false;
    t.short_alloc = data != nullptr && (!sized || lo < 0 || bytes > request + 63);
  } else {
    unsigned char *base = nullptr;
    if (data_mode == 0) {
      arena.host.emplace_back(new unsigned char[static_cast<size_t>(bytes)]());
      base = arena.host.back().get();
    } else {
      base = static_cast<unsigned char *>(arena.device_alloc(bytes));
    }
    t.exact = base != nullptr;
    // Element index `lo` is the buffer's first byte (|lo| <= 1 Mi elements, so this cannot overflow).
    if (base != nullptr) data = base - lo * item;
  }
  t.dims = dims;
  t.dtype = dtype;
  t.format = format;
  t.handle = aclCreateTensor(dims.data(), dims.size(), dtype, stride_mode == 1 ? nullptr : strides.data(), offset,
                             format, storage.empty() ? nullptr : storage.data(), storage.size(), data);
  if (t.handle != nullptr) arena.tensors.push_back(t.handle);
  return t;
}

aclIntArray *make_int_array(Reader &in, Arena &arena, std::vector<int64_t> *kept) {
  int mode = in.byte() % 4;
  if (mode == 0) return nullptr;
  size_t count = in.byte() % 7;
  std::vector<int64_t> values(count);
  if (mode == 1) {
    for (auto &v : values) v = in.number();
    *kept = values;
  }
  aclIntArray *a = nullptr;
  if (mode == 1) a = aclCreateIntArray(values.data(), values.size());
  if (mode == 2) a = aclCreateIntArray(nullptr, count);
  if (mode == 3) a = aclCreateIntArray(values.data(), 0);
  if (a != nullptr) arena.int_arrays.push_back(a);
  return a;
}

aclBoolArray *make_bool_array(Reader &in, Arena &arena) {
  int mode = in.byte() % 3;
  if (mode == 0) return nullptr;
  size_t count = in.byte() % 6;
  bool values[8] = {};
  if (mode == 1) {
    uint8_t bits = in.byte();
    for (size_t i = 0; i < count; ++i) values[i] = (bits >> i) & 1;
  }
  aclBoolArray *a = aclCreateBoolArray(mode == 1 ? values : nullptr, count);
  if (a != nullptr) arena.bool_arrays.push_back(a);
  return a;
}

bool known_status(int status) {
  return status == ACLNN_SUCCESS || status == ACLNN_ERR_PARAM_NULLPTR || status == ACLNN_ERR_PARAM_INVALID ||
         status == ACLNN_ERR_RUNTIME_ERROR || (status >= ACLNN_ERR_INNER && status <= ACLNN_ERR_INNER + 200);
}

[[noreturn]] void fail(const char *what, int status) {
  const char *message = aclGetRecentErrMsg();
  fprintf(stderr, "validator_fuzz: %s (status %d, message: %s)\n", what, status, message ? message : "(none)");
  std::abort();
}

// Runs an accepted, small problem whose buffers all cover their views; consumes the executor either way.
void run_phase2(aclOpExecutor *executor, uint64_t workspace_size, Arena &arena) {
  void *workspace = nullptr;
  if (workspace_size > 0) workspace = arena.device_alloc(static_cast<int64_t>(workspace_size));
  if (workspace_size > 0 && workspace == nullptr) {
    aclDestroyAclOpExecutor(executor);
    return;
  }
  int status = aclnnConvolutionBackward(workspace, workspace_size, executor, nullptr);
  if (!known_status(status)) fail("aclnnConvolutionBackward returned an unknown status", status);
  aclrtSynchronizeStream(nullptr);
}

__extension__ typedef __int128 Wide;

// gradOutput's dims as input, weight and the attributes give them (CANN's forward and transposed size formulas, in
// 128 bits); false unless every size is in [1, 64] and the arrays have the lengths the rules ask.
bool fitted_grad_output(const Tensor &input, const Tensor &weight, const std::vector<int64_t> (&a)[5], bool transposed,
                        int groups, std::vector<int64_t> *dims) {
  const size_t rank = input.dims.size();
  if (rank < 3 || rank > 5 || weight.dims.size() != rank || groups < 1) return false;
  const size_t spatial = rank - 2;
  const std::vector<int64_t> &stride = a[1], &padding = a[2], &dilation = a[3], &out_pad = a[4];
  const bool four = rank == 4 && padding.size() == 4;
  if (stride.size() != spatial || dilation.size() != spatial || (padding.size() != spatial && !four) ||
      (transposed && out_pad.size() != spatial && !(rank == 4 && out_pad.size() == 4))) {
    return false;
  }
  const Wide channels = transposed ? Wide{weight.dims[1]} * groups : Wide{weight.dims[0]};
  if (input.dims[0] < 0 || input.dims[0] > 64 || channels < 0 || channels > 64) return false;
  *dims = {input.dims[0], static_cast<int64_t>(channels)};
  for (size_t d = 0; d < spatial; ++d) {
    const Wide x = input.dims[2 + d], k = weight.dims[2 + d], s = stride[d], dil = dilation[d];
    const Wide pb = four ? padding[2 * d] : padding[d], pe = four ? padding[2 * d + 1] : padding[d];
    const Wide op = transposed ? out_pad[d] : 0;
    // (Sizes past 2^40 would not fit a buffer anyway; below it no sum of these products leaves 128 bits.)
    if (s < 1 || dil < 1 || pb < 0 || pe < 0 || k < 1 || x < 1 || k > (Wide{1} << 40) || x > (Wide{1} << 40)) {
      return false;
    }
    const Wide y =
        transposed ? (x - 1) * s - pb - pe + dil * (k - 1) + op + 1 : (x + pb + pe - dil * (k - 1) - 1) / s + 1;
    if (y < 1 || y > 64) return false;
    dims->push_back(static_cast<int64_t>(y));
  }
  return true;
}

// Replaces gradOutput by a contiguous tensor of the fitted dims on a buffer of its own.
void fit_grad_output(Tensor *go, const std::vector<int64_t> &dims, Arena &arena) {
  int64_t elements = 1;
  for (int64_t d : dims) elements *= d;
  std::vector<int64_t> strides(dims.size(), 1);
  for (size_t i = dims.size(); i-- > 1;) strides[i - 1] = strides[i] * dims[i];
  arena.host.emplace_back(new unsigned char[static_cast<size_t>(elements * item_size(go->dtype))]());
  go->handle = aclCreateTensor(dims.data(), dims.size(), go->dtype, strides.data(), 0, go->format, dims.data(),
                               dims.size(), arena.host.back().get());
  if (go->handle != nullptr) arena.tensors.push_back(go->handle);
  go->dims = dims;
  go->elements = elements;
  go->exact = true;
  go->short_alloc = false;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) std::abort();
  aclnnCpuSetNumThreads(1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Reader in(data, size);
  aclnnCpuSetSoc(kSocs[in.byte() % 6]);  // the last name is unknown: the call fails and keeps the product
  uint8_t flags = in.byte();
  aclnnCpuSetStrict(flags & 1);
  bool transposed = (flags >> 1) & 1;
  bool try_phase2 = (flags >> 2) & 1;
  aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, in.byte() % 3);
  int8_t cube_math_type = static_cast<int8_t>(in.byte());
  int groups = static_cast<int>(in.number());

  Arena arena;
  Tensor t[6];
  for (Tensor &x : t) x = make_tensor(in, arena);
  aclIntArray *arrays[5];
  std::vector<int64_t> values[5];
  for (int i = 0; i < 5; ++i) arrays[i] = make_int_array(in, arena, &values[i]);
  aclBoolArray *mask = make_bool_array(in, arena);
  std::vector<int64_t> fitted;
  if ((flags >> 3) & 1 && t[0].handle != nullptr &&
      fitted_grad_output(t[1], t[2], values, transposed, groups, &fitted)) {
    fit_grad_output(&t[0], fitted, arena);
  }

  uint64_t workspace_size = 0;
  aclOpExecutor *executor = nullptr;
  int status = aclnnConvolutionBackwardGetWorkspaceSize(
      t[0].handle, t[1].handle, t[2].handle, arrays[0], arrays[1], arrays[2], arrays[3], transposed, arrays[4], groups,
      mask, cube_math_type, t[3].handle, t[4].handle, t[5].handle, &workspace_size, &executor);

  if (!known_status(status)) fail("GetWorkspaceSize returned an unknown status", status);
  if (status != ACLNN_SUCCESS) {
    if (aclGetRecentErrMsg() == nullptr) fail("a rejected call left no message", status);
  } else {
    if (executor == nullptr) fail("an accepted call returned no executor", status);
    // Bounds safety: a non-empty input view reaching outside its aclrtMalloc block must have been rejected.
    bool inputs_non_empty = t[0].elements > 0 && t[1].elements > 0 && t[2].elements > 0;
    for (int i = 0; i < 3; ++i) {
      if (inputs_non_empty && t[i].short_alloc) fail("a view reaching outside its allocation was accepted", status);
    }
    bool exact = true;
    for (const Tensor &x : t) exact = exact && (x.handle == nullptr || x.exact);
    int64_t work_dy = 0, work_x = 0;
    bool small = mul(t[0].elements, t[2].elements, &work_dy) && mul(t[1].elements, t[2].elements, &work_x) &&
                 work_dy <= kMaxPhase2Work && work_x <= kMaxPhase2Work && workspace_size <= kMaxWorkspace;
    if (try_phase2 && exact && small) {
      run_phase2(executor, workspace_size, arena);
    } else {
      aclDestroyAclOpExecutor(executor);
    }
  }
  aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, 0);
  return 0;
}

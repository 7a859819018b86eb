/*
 * A program written the way CANN's aclnn samples are (includes, enum spellings, unique_ptr deleters, its own
 * status macros, printf without <cstdio>), compiled by the compatibility tests with -std=c++11 -Wall -Wextra -Werror
 * against the installed tree and linked with CANN's link lines. It also walks the error paths CANN samples take
 * (finalize twice, destroy descriptors and free memory after finalize, unknown stream handles), which must
 * return codes and never crash.
 *
 * Problem: FP32, all ones, gradOutput [1,3,2,2], input [1,2,5,5], weight [3,2,3,3], stride 2, no padding.
 * Each input row/column is covered by 1,1,2,1,1 kernel taps, so gradInput = 3 * c(h) * c(w) with c = {1,1,2,1,1};
 * gradWeight = 4 and gradBias = 4 everywhere (2x2 output positions).
 */
#include <memory>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_convolution_backward.h"

#define ACLNN_SUCCESS 0
#define ACLNN_ERR_PARAM_NULLPTR 161001
#define ACLNN_ERR_PARAM_INVALID 161002

#define CHECK_RET(cond, return_expr) \
  do {                               \
    if (!(cond)) {                   \
      return_expr;                   \
    }                                \
  } while (0)

#define LOG_PRINT(message, ...)     \
  do {                              \
    printf(message, ##__VA_ARGS__); \
  } while (0)

typedef std::unique_ptr<aclTensor, aclnnStatus (*)(const aclTensor *)> TensorHolder;
typedef std::unique_ptr<aclIntArray, aclnnStatus (*)(const aclIntArray *)> IntArrayHolder;
typedef std::unique_ptr<aclBoolArray, aclnnStatus (*)(const aclBoolArray *)> BoolArrayHolder;
typedef std::unique_ptr<void, aclError (*)(void *)> DeviceMemHolder;

static int g_failures = 0;

#define EXPECT_THAT(cond, what)                   \
  do {                                            \
    if (cond) {                                   \
      LOG_PRINT("[ ok ] %s\n", what);             \
    } else {                                      \
      LOG_PRINT("[FAIL] %s (%s)\n", what, #cond); \
      ++g_failures;                               \
    }                                             \
  } while (0)

static const char *RecentError() {
  const char *message = aclGetRecentErrMsg();
  return message != nullptr ? message : "(no message)";
}

static int64_t ElementCount(const std::vector<int64_t> &shape) {
  int64_t count = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    count *= shape[i];
  }
  return count;
}

struct DeviceTensor {
  TensorHolder tensor;
  DeviceMemHolder memory;
  DeviceTensor() : tensor(nullptr, aclDestroyTensor), memory(nullptr, aclrtFree) {}
};

// Copies `host` to new device memory and describes it as a contiguous tensor of `shape`.
static int MakeDeviceTensor(const std::vector<float> &host, const std::vector<int64_t> &shape, aclFormat format,
                            DeviceTensor *out) {
  size_t bytes = static_cast<size_t>(ElementCount(shape)) * sizeof(float);
  void *device = nullptr;
  aclError ret = aclrtMalloc(&device, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMalloc failed: %d\n", ret); return ret);
  out->memory.reset(device);
  ret = aclrtMemcpy(device, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMemcpy failed: %d\n", ret); return ret);

  std::vector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i) {
    strides[i] = strides[i + 1] * shape[i + 1];
  }
  out->tensor.reset(aclCreateTensor(shape.data(), shape.size(), aclDataType::ACL_FLOAT, strides.data(), 0, format,
                                    shape.data(), shape.size(), device));
  CHECK_RET(out->tensor != nullptr, LOG_PRINT("aclCreateTensor failed\n"); return ACL_ERROR_INTERNAL_ERROR);
  return ACL_SUCCESS;
}

static std::vector<float> CopyToHost(const DeviceTensor &t, int64_t count) {
  std::vector<float> host(static_cast<size_t>(count), -1.0f);
  size_t bytes = host.size() * sizeof(float);
  aclError ret = aclrtMemcpy(host.data(), bytes, t.memory.get(), bytes, ACL_MEMCPY_DEVICE_TO_HOST);
  EXPECT_THAT(ret == ACL_SUCCESS, "aclrtMemcpy device to host");
  return host;
}

static int Init(int32_t deviceId, aclrtStream *stream) {
  aclError ret = aclInit(nullptr);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclInit failed: %d\n", ret); return ret);
  ret = aclrtSetDevice(deviceId);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSetDevice failed: %d\n", ret); return ret);
  ret = aclrtCreateStream(stream);
  CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtCreateStream failed: %d\n", ret); return ret);
  return ACL_SUCCESS;
}

static void Finalize(int32_t deviceId, aclrtStream stream) {
  aclrtDestroyStream(stream);
  aclrtResetDevice(deviceId);
  aclFinalize();
}

// Runs the problem; returns with everything finalized but the descriptors and device memory still held, so their
// deleters run after aclFinalize, as on the error paths of CANN samples.
static int RunConvolutionBackward(int32_t deviceId, aclrtStream &stream) {
  int ret = Init(deviceId, &stream);
  CHECK_RET(ret == ACL_SUCCESS, return ret);

  // An unknown handle is an error code, not a crash.
  aclrtStream notAStream = reinterpret_cast<aclrtStream>(static_cast<uintptr_t>(0x10));
  EXPECT_THAT(aclrtSynchronizeStream(notAStream) != ACL_SUCCESS, "aclrtSynchronizeStream(unknown handle) fails");
  EXPECT_THAT(aclrtDestroyStream(notAStream) != ACL_SUCCESS, "aclrtDestroyStream(unknown handle) fails");

  std::vector<int64_t> gradOutputShape = {1, 3, 2, 2};
  std::vector<int64_t> inputShape = {1, 2, 5, 5};
  std::vector<int64_t> weightShape = {3, 2, 3, 3};
  std::vector<int64_t> biasShape = {3};
  std::vector<int64_t> strideValues = {2, 2};
  std::vector<int64_t> zeros = {0, 0};
  std::vector<int64_t> ones = {1, 1};
  bool maskValues[3] = {true, true, true};

  DeviceTensor gradOutput, input, weight, gradInput, gradWeight, gradBias;
  ret = MakeDeviceTensor(std::vector<float>(ElementCount(gradOutputShape), 1.0f), gradOutputShape,
                         aclFormat::ACL_FORMAT_NCHW, &gradOutput);
  CHECK_RET(ret == ACL_SUCCESS, Finalize(deviceId, stream); return ret);
  ret = MakeDeviceTensor(std::vector<float>(ElementCount(inputShape), 1.0f), inputShape, aclFormat::ACL_FORMAT_NCHW,
                         &input);
  CHECK_RET(ret == ACL_SUCCESS, Finalize(deviceId, stream); return ret);
  ret = MakeDeviceTensor(std::vector<float>(ElementCount(weightShape), 1.0f), weightShape, aclFormat::ACL_FORMAT_NCHW,
                         &weight);
  CHECK_RET(ret == ACL_SUCCESS, Finalize(deviceId, stream); return ret);
  ret = MakeDeviceTensor(std::vector<float>(ElementCount(inputShape), 0.0f), inputShape, aclFormat::ACL_FORMAT_NCHW,
                         &gradInput);
  CHECK_RET(ret == ACL_SUCCESS, Finalize(deviceId, stream); return ret);
  ret = MakeDeviceTensor(std::vector<float>(ElementCount(weightShape), 0.0f), weightShape, aclFormat::ACL_FORMAT_NCHW,
                         &gradWeight);
  CHECK_RET(ret == ACL_SUCCESS, Finalize(deviceId, stream); return ret);
  ret = MakeDeviceTensor(std::vector<float>(ElementCount(biasShape), 0.0f), biasShape, aclFormat::ACL_FORMAT_ND,
                         &gradBias);
  CHECK_RET(ret == ACL_SUCCESS, Finalize(deviceId, stream); return ret);

  IntArrayHolder biasSizes(aclCreateIntArray(biasShape.data(), biasShape.size()), aclDestroyIntArray);
  IntArrayHolder stride(aclCreateIntArray(strideValues.data(), strideValues.size()), aclDestroyIntArray);
  IntArrayHolder padding(aclCreateIntArray(zeros.data(), zeros.size()), aclDestroyIntArray);
  IntArrayHolder dilation(aclCreateIntArray(ones.data(), ones.size()), aclDestroyIntArray);
  IntArrayHolder outputPadding(aclCreateIntArray(zeros.data(), zeros.size()), aclDestroyIntArray);
  BoolArrayHolder outputMask(aclCreateBoolArray(maskValues, 3), aclDestroyBoolArray);
  CHECK_RET(biasSizes && stride && padding && dilation && outputPadding && outputMask, Finalize(deviceId, stream);
            return ACL_ERROR_INTERNAL_ERROR);

  // A missing outputMask is rejected with the documented code and a message.
  uint64_t workspaceSize = 0;
  aclOpExecutor *executor = nullptr;
  ret = aclnnConvolutionBackwardGetWorkspaceSize(
      gradOutput.tensor.get(), input.tensor.get(), weight.tensor.get(), biasSizes.get(), stride.get(), padding.get(),
      dilation.get(), false, outputPadding.get(), 1, nullptr, 0, gradInput.tensor.get(), gradWeight.tensor.get(),
      gradBias.tensor.get(), &workspaceSize, &executor);
  EXPECT_THAT(ret == ACLNN_ERR_PARAM_NULLPTR, "outputMask = nullptr is ACLNN_ERR_PARAM_NULLPTR");
  const char *message = aclGetRecentErrMsg();
  EXPECT_THAT(message != nullptr, "aclGetRecentErrMsg explains the rejection");
  LOG_PRINT("       message: %s\n", message != nullptr ? message : "(null)");

  ret = aclnnConvolutionBackwardGetWorkspaceSize(
      gradOutput.tensor.get(), input.tensor.get(), weight.tensor.get(), biasSizes.get(), stride.get(), padding.get(),
      dilation.get(), false, outputPadding.get(), 1, outputMask.get(), 0, gradInput.tensor.get(),
      gradWeight.tensor.get(), gradBias.tensor.get(), &workspaceSize, &executor);
  EXPECT_THAT(ret == ACLNN_SUCCESS, "aclnnConvolutionBackwardGetWorkspaceSize succeeds");
  CHECK_RET(ret == ACLNN_SUCCESS, LOG_PRINT("       status %d: %s\n", ret, RecentError()); Finalize(deviceId, stream);
            return ret);

  void *workspace = nullptr;
  DeviceMemHolder workspaceHolder(nullptr, aclrtFree);
  if (workspaceSize > 0) {
    ret = aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, Finalize(deviceId, stream); return ret);
    workspaceHolder.reset(workspace);
  }
  ret = aclnnConvolutionBackward(workspace, workspaceSize, executor, stream);
  EXPECT_THAT(ret == ACLNN_SUCCESS, "aclnnConvolutionBackward succeeds");
  ret = aclrtSynchronizeStream(stream);
  EXPECT_THAT(ret == ACL_SUCCESS, "aclrtSynchronizeStream succeeds");
  if (ret != ACL_SUCCESS) {
    LOG_PRINT("       status %d: %s\n", ret, RecentError());
  }

  static const float kCover[5] = {1, 1, 2, 1, 1};
  std::vector<float> dx = CopyToHost(gradInput, ElementCount(inputShape));
  int wrong = 0;
  for (int64_t i = 0; i < ElementCount(inputShape); ++i) {
    float expected = 3.0f * kCover[(i / 5) % 5] * kCover[i % 5];
    if (dx[i] != expected) {
      if (wrong++ < 5) {
        LOG_PRINT("       gradInput[%ld] = %f, expected %f\n", i, dx[i], expected);
      }
    }
  }
  EXPECT_THAT(wrong == 0, "gradInput = 3 * cover(h) * cover(w)");
  std::vector<float> dw = CopyToHost(gradWeight, ElementCount(weightShape));
  wrong = 0;
  for (size_t i = 0; i < dw.size(); ++i) {
    wrong += dw[i] != 4.0f;
  }
  EXPECT_THAT(wrong == 0, "gradWeight = 4 everywhere");
  std::vector<float> db = CopyToHost(gradBias, ElementCount(biasShape));
  EXPECT_THAT(db[0] == 4.0f && db[1] == 4.0f && db[2] == 4.0f, "gradBias = 4 everywhere");
  LOG_PRINT("       gradInput[0..2] = %f %f %f, gradWeight[0] = %f, gradBias[0] = %f\n", dx[0], dx[1], dx[2], dw[0],
            db[0]);

  // Like a sample leaving through CHECK_FREE_RET: finalize while descriptors and memory are still held.
  Finalize(deviceId, stream);
  return ACL_SUCCESS;
}

int main() {
  int32_t deviceId = 0;
  aclrtStream stream = nullptr;
  int ret = RunConvolutionBackward(deviceId, stream);
  EXPECT_THAT(ret == ACL_SUCCESS, "the CANN-style flow completes");

  // main's own Finalize runs a second time on a stale stream and a finalized runtime.
  EXPECT_THAT(aclrtDestroyStream(stream) != ACL_SUCCESS, "aclrtDestroyStream(destroyed stream) fails");
  aclrtResetDevice(deviceId);
  EXPECT_THAT(aclFinalize() == ACL_ERROR_REPEAT_FINALIZE, "a second aclFinalize is ACL_ERROR_REPEAT_FINALIZE");

  LOG_PRINT("%s: %d failed check(s)\n", g_failures == 0 ? "PASS" : "FAIL", g_failures);
  return g_failures == 0 ? 0 : 1;
}

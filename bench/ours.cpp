#include "ours.hpp"

#include <algorithm>
#include <chrono>

namespace aclnn_cpu {
namespace bench {
namespace {

aclFormat format_for_rank(size_t dims) {
  switch (dims) {
    case 3:
      return ACL_FORMAT_NCL;
    case 5:
      return ACL_FORMAT_NCDHW;
    default:
      return ACL_FORMAT_NCHW;
  }
}

std::vector<int64_t> spatial(const Layer &layer, const Spatial &v) { return Dims(v.begin(), v.begin() + layer.rank); }

bool fail(const std::string &what, int status, std::string *error) {
  *error = what + " returned " + std::to_string(status) + ": " + recent_error();
  return false;
}

}  // namespace

std::string recent_error() {
  const char *message = aclGetRecentErrMsg();
  return message != nullptr ? message : "";
}

bool DeviceTensor::create(const Dims &dims, Precision p, aclFormat format, std::string *error) {
  precision_ = p;
  bytes_ = static_cast<size_t>(element_count(dims)) * info(p).element_bytes;
  void *dev = nullptr;
  const aclError ret = aclrtMalloc(&dev, std::max<size_t>(bytes_, 1), ACL_MEM_MALLOC_HUGE_FIRST);
  if (ret != ACL_SUCCESS) return fail("aclrtMalloc", ret, error);
  data_.reset(dev);
  Dims strides(dims.size(), 1);
  for (size_t i = dims.size(); i-- > 1;) strides[i - 1] = strides[i] * dims[i];
  tensor_.reset(aclCreateTensor(dims.data(), dims.size(), info(p).dtype, strides.data(), 0, format, dims.data(),
                                dims.size(), dev));
  if (!tensor_) return fail("aclCreateTensor", -1, error);
  return true;
}

bool DeviceTensor::upload(const std::vector<float> &values, std::string *error) {
  const std::vector<unsigned char> bytes = to_bytes(precision_, values);
  const aclError ret = aclrtMemcpy(data_.get(), bytes_, bytes.data(), bytes.size(), ACL_MEMCPY_HOST_TO_DEVICE);
  return ret == ACL_SUCCESS || fail("aclrtMemcpy to the device", ret, error);
}

bool DeviceTensor::download(std::vector<float> *values, std::string *error) const {
  std::vector<unsigned char> bytes(bytes_);
  const aclError ret = aclrtMemcpy(bytes.data(), bytes.size(), data_.get(), bytes_, ACL_MEMCPY_DEVICE_TO_HOST);
  if (ret != ACL_SUCCESS) return fail("aclrtMemcpy to the host", ret, error);
  *values = from_bytes(precision_, bytes);
  return true;
}

bool OursConv::setup(const Layer &layer, Precision p, const HostInputs &inputs, std::string *error) {
  layer_ = layer;
  precision_ = p;
  const aclFormat format = format_for_rank(layer.rank + 2);
  if (!x_.create(layer.x_dims(), p, format, error) || !dy_.create(layer.dy_dims(), p, format, error) ||
      !w_.create(layer.w_dims(), p, format, error) || !dx_.create(layer.x_dims(), p, format, error) ||
      !dw_.create(layer.w_dims(), p, format, error) || !db_.create({layer.oc}, p, ACL_FORMAT_ND, error)) {
    return false;
  }
  if (!x_.upload(inputs.x, error) || !dy_.upload(inputs.dy, error) || !w_.upload(inputs.w, error)) return false;
  auto int_array = [](const std::vector<int64_t> &v) {
    return IntArray(aclCreateIntArray(v.data(), v.size()), aclDestroyIntArray);
  };
  stride_ = int_array(spatial(layer, layer.s));
  padding_ = int_array(spatial(layer, layer.p));
  dilation_ = int_array(spatial(layer, layer.d));
  output_padding_ = int_array(spatial(layer, layer.op));
  bias_sizes_ = int_array({layer.oc});
  const bool mask[3] = {true, true, true};
  mask_ = BoolArray(aclCreateBoolArray(mask, 3), aclDestroyBoolArray);
  if (!stride_ || !padding_ || !dilation_ || !output_padding_ || !bias_sizes_ || !mask_) {
    return fail("aclCreateIntArray/aclCreateBoolArray", -1, error);
  }
  return true;
}

bool OursConv::run(std::string *error) { return run_phases(nullptr, error); }

bool OursConv::run_phases(double phases[3], std::string *error) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point t0 = Clock::now();
  uint64_t workspace_size = 0;
  aclOpExecutor *executor = nullptr;
  aclnnStatus ret = aclnnConvolutionBackwardGetWorkspaceSize(
      dy_.get(), x_.get(), w_.get(), bias_sizes_.get(), stride_.get(), padding_.get(), dilation_.get(),
      layer_.transposed, output_padding_.get(), static_cast<int>(layer_.g), mask_.get(),
      info(precision_).cube_math_type, dx_.get(), dw_.get(), db_.get(), &workspace_size, &executor);
  if (ret != ACL_SUCCESS) return fail("aclnnConvolutionBackwardGetWorkspaceSize", ret, error);
  if (workspace_size > workspace_capacity_) {
    // Only the first (untimed) call of a case allocates; later calls reuse the buffer, as a caching allocator would.
    workspace_.reset();
    void *dev = nullptr;
    const aclError alloc = aclrtMalloc(&dev, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST);
    if (alloc != ACL_SUCCESS) return fail("aclrtMalloc of the workspace", alloc, error);
    workspace_.reset(dev);
    workspace_capacity_ = workspace_size;
  }
  const Clock::time_point t1 = Clock::now();
  ret = aclnnConvolutionBackward(workspace_size > 0 ? workspace_.get() : nullptr, workspace_size, executor, stream_);
  if (ret != ACL_SUCCESS) return fail("aclnnConvolutionBackward", ret, error);
  const Clock::time_point t2 = Clock::now();
  const aclError sync = aclrtSynchronizeStream(stream_);
  if (phases != nullptr) {
    const Clock::time_point t3 = Clock::now();
    phases[0] = std::chrono::duration<double>(t1 - t0).count();
    phases[1] = std::chrono::duration<double>(t2 - t1).count();
    phases[2] = std::chrono::duration<double>(t3 - t2).count();
  }
  return sync == ACL_SUCCESS || fail("aclrtSynchronizeStream", sync, error);
}

bool OursConv::read(Gradients *out, std::string *error) const {
  return dx_.download(&out->dx, error) && dw_.download(&out->dw, error) && db_.download(&out->db, error);
}

}  // namespace bench
}  // namespace aclnn_cpu

#include "ours.hpp"

namespace aclnn_cpu {
namespace bench {
namespace {

std::vector<int64_t> spatial(const Layer &layer, const Spatial &v) { return Dims(v.begin(), v.begin() + layer.rank); }

bool fail(const std::string &what, int status, std::string *error) {
  *error = what + " returned " + std::to_string(status) + ": " + harness::recent_error();
  return false;
}

harness::ConvAttrs layer_attrs(const Layer &layer, Precision p) {
  harness::ConvAttrs a;
  a.stride = spatial(layer, layer.s);
  a.padding = spatial(layer, layer.p);
  a.dilation = spatial(layer, layer.d);
  a.output_padding = spatial(layer, layer.op);
  a.bias_sizes = {layer.oc};
  a.transposed = layer.transposed;
  a.groups = static_cast<int>(layer.g);
  a.cube_math_type = info(p).cube_math_type;
  return a;
}

}  // namespace

bool DeviceTensor::create(const Dims &dims, Precision p, aclFormat format, std::string *error) {
  precision_ = p;
  return tensor_.create(dims, info(p).dtype, format, error);
}

bool DeviceTensor::upload(const std::vector<float> &values, std::string *error) {
  return tensor_.upload(to_bytes(precision_, values), error);
}

bool DeviceTensor::download(std::vector<float> *values, std::string *error) const {
  std::vector<unsigned char> bytes;
  if (!tensor_.download(&bytes, error)) return false;
  *values = from_bytes(precision_, bytes);
  return true;
}

bool OursConv::setup(const Layer &layer, Precision p, const HostInputs &inputs, std::string *error) {
  const aclFormat format = harness::tensor_format(harness::kInput, layer.rank + 2);
  if (!x_.create(layer.x_dims(), p, format, error) || !dy_.create(layer.dy_dims(), p, format, error) ||
      !w_.create(layer.w_dims(), p, format, error) || !dx_.create(layer.x_dims(), p, format, error) ||
      !dw_.create(layer.w_dims(), p, format, error) || !db_.create({layer.oc}, p, ACL_FORMAT_ND, error)) {
    return false;
  }
  if (!x_.upload(inputs.x, error) || !dy_.upload(inputs.dy, error) || !w_.upload(inputs.w, error)) return false;
  args_.reset(new harness::ConvArgs(layer_attrs(layer, p)));
  if (!args_->ok()) return fail("aclCreateIntArray/aclCreateBoolArray", -1, error);
  return true;
}

bool OursConv::run(std::string *error) { return run_phases(nullptr, error); }

bool OursConv::run_phases(double phases[3], std::string *error) {
  aclTensor *const tensors[harness::kSlots] = {dy_.get(), x_.get(), w_.get(), dx_.get(), dw_.get(), db_.get()};
  const harness::Outcome outcome = harness::call(*args_, tensors, &workspace_, stream_, phases);
  if (outcome.ok()) return true;
  const bool workspace = outcome.failed == harness::Step::kWorkspace;
  return fail(workspace ? "aclrtMalloc of the workspace" : harness::step_function(outcome.failed), outcome.status,
              error);
}

bool OursConv::read(Gradients *out, std::string *error) const {
  return dx_.download(&out->dx, error) && dw_.download(&out->dw, error) && db_.download(&out->db, error);
}

}  // namespace bench
}  // namespace aclnn_cpu

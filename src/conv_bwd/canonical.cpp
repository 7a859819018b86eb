#include "conv_bwd/canonical.hpp"

#include <sstream>

#include "conv_bwd/reach.hpp"
#include "core/checked.hpp"
#include "core/dtype.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

std::string shape_text(const std::vector<int64_t> &shape) {
  std::ostringstream os;
  os << '[';
  for (size_t i = 0; i < shape.size(); ++i) os << (i ? "," : "") << shape[i];
  os << ']';
  return os.str();
}

// A tensor the computation reads or writes: present, of the call's rank, non-negative sizes, a supported
// dtype, and data unless it is empty.
bool check_tensor(const TensorArg &t, const char *name, size_t rank, std::string *error) {
  if (!t.present) {
    *error = std::string(name) + " is missing";
    return false;
  }
  if (t.shape.size() != rank || t.strides.size() != rank) {
    *error = std::string(name) + " has rank " + std::to_string(t.shape.size()) + ", expected " + std::to_string(rank);
    return false;
  }
  int64_t numel = 1;
  for (int64_t s : t.shape) {
    if (s < 0) {
      *error = std::string(name) + " has a negative size " + shape_text(t.shape);
      return false;
    }
    if (!checked_mul(numel, s, &numel)) {
      *error = std::string(name) + " has more elements than int64 can count " + shape_text(t.shape);
      return false;
    }
  }
  if (!is_supported_dtype(t.dtype)) {
    *error = std::string(name) + " has dtype " + dtype_name(t.dtype) + ", which the computation does not support";
    return false;
  }
  if (numel > 0 && t.data == nullptr) {
    *error = std::string(name) + " has no data";
    return false;
  }
  return true;
}

bool check_same_shape(const TensorArg &out, const char *out_name, const TensorArg &ref, const char *ref_name,
                      std::string *error) {
  if (out.shape == ref.shape) return true;
  *error = std::string(out_name) + " has shape " + shape_text(out.shape) + " but " + ref_name + " has " +
           shape_text(ref.shape);
  return false;
}

bool check_attributes(const Problem &p, std::string *error) {
  for (int d = 0; d < kSpatial; ++d) {
    if (p.stride[d] < 1 || p.dilation[d] < 1 || p.pad_begin[d] < 0 || p.pad_end[d] < 0) {
      *error = "stride/dilation must be >= 1 and padding >= 0 (spatial dim " + std::to_string(d) + ")";
      return false;
    }
  }
  if (p.groups < 1) {
    *error = "groups = " + std::to_string(p.groups) + " must be >= 1";
    return false;
  }
  return true;
}

bool check_channels(const Problem &p, const TensorArg &x, const TensorArg &y, std::string *error) {
  const int64_t wy = p.weight.shape[0], wx = p.weight.shape[1];
  if (wy % p.groups != 0 || y.shape[1] != wy || x.shape[1] != wx * p.groups) {
    *error = "channels are inconsistent: weight " + shape_text(p.weight.shape) + ", groups " +
             std::to_string(p.groups) + ", gradOutput " + shape_text(p.grad_output.shape) + ", input " +
             shape_text(p.input.shape);
    return false;
  }
  if (x.shape[0] != y.shape[0]) {
    *error =
        "batch sizes differ: gradOutput " + shape_text(p.grad_output.shape) + ", input " + shape_text(p.input.shape);
    return false;
  }
  return true;
}

bool check_outputs(const Problem &p, size_t rank, std::string *error) {
  if (p.mask[0] && (!check_tensor(p.grad_input, "gradInput", rank, error) ||
                    !check_same_shape(p.grad_input, "gradInput", p.input, "input", error))) {
    return false;
  }
  if (p.mask[1] && (!check_tensor(p.grad_weight, "gradWeight", rank, error) ||
                    !check_same_shape(p.grad_weight, "gradWeight", p.weight, "weight", error))) {
    return false;
  }
  if (p.mask[2]) {
    if (!check_tensor(p.grad_bias, "gradBias", 1, error)) return false;
    if (p.grad_bias.shape[0] != p.grad_output.shape[1]) {
      *error = "gradBias has shape " + shape_text(p.grad_bias.shape) + " but gradOutput has " +
               std::to_string(p.grad_output.shape[1]) + " channels";
      return false;
    }
  }
  return true;
}

const char *const kDimNames[kSpatial] = {"D", "H", "W"};

// Cuts c to the reach of its sums (reach.hpp), dim by dim, and the requested outputs with it.
bool cut_to_reach(const Problem &p, Canonical *c, std::string *error) {
  DimReach reach[kSpatial];
  for (int d = 0; d < kSpatial; ++d) {
    const DimRelation dim{c->x_size[d], c->y_size[d], c->kernel[d], c->stride[d], c->dilation[d], c->pad_begin[d]};
    if (!reduce_dim(dim, &reach[d])) {
      *error = std::string("along ") + (p.rank == 3 ? "L" : kDimNames[d]) +
               " the stride, dilation and padding pair positions and taps across more than 2^60 elements, more than "
               "aclnn-cpu indexes";
      return false;
    }
    c->any_term = c->any_term && reach[d].any;
  }
  if (!c->any_term) return true;
  int64_t x_size[kSpatial], y_size[kSpatial], k_size[kSpatial];
  for (int d = 0; d < kSpatial; ++d) {
    const DimRelation &r = reach[d].reduced;
    c->cut = c->cut || reach[d].x_begin != 0 || reach[d].y_begin != 0 || reach[d].k_begin != 0 ||
             r.x_size != c->x_size[d] || r.y_size != c->y_size[d] || r.kernel != c->kernel[d];
    c->x_begin[d] = reach[d].x_begin;
    c->y_begin[d] = reach[d].y_begin;
    c->k_begin[d] = reach[d].k_begin;
    x_size[d] = c->x_size[d] = r.x_size;
    y_size[d] = c->y_size[d] = r.y_size;
    k_size[d] = c->kernel[d] = r.kernel;
    c->stride[d] = r.stride;
    c->dilation[d] = r.dilation;
    c->pad_begin[d] = r.pad_begin;
  }
  if (!c->cut) return true;  // (the attributes may still have changed: a stride along one position, ...)
  c->x = c->x.cut(c->x_begin, x_size);
  c->y = c->y.cut(c->y_begin, y_size);
  c->w = c->w.cut(c->k_begin, k_size);
  if (p.mask[0]) {
    c->grad_input = p.transposed ? c->grad_input.cut(c->y_begin, y_size) : c->grad_input.cut(c->x_begin, x_size);
  }
  if (p.mask[1]) c->grad_weight = c->grad_weight.cut(c->k_begin, k_size);
  return true;
}

}  // namespace

bool make_canonical(const Problem &p, Canonical *c, std::string *error, bool *beyond_reach) {
  if (beyond_reach != nullptr) *beyond_reach = false;
  if (p.rank < 3 || p.rank > 5) {
    *error = "rank " + std::to_string(p.rank) + " is not 3, 4 or 5";
    return false;
  }
  const size_t rank = static_cast<size_t>(p.rank);
  if (!check_tensor(p.grad_output, "gradOutput", rank, error) || !check_tensor(p.input, "input", rank, error) ||
      !check_tensor(p.weight, "weight", rank, error) || !check_attributes(p, error)) {
    return false;
  }
  const TensorArg &x = p.transposed ? p.grad_output : p.input;
  const TensorArg &y = p.transposed ? p.input : p.grad_output;
  if (!check_channels(p, x, y, error) || !check_outputs(p, rank, error)) return false;

  Canonical &out = *c;
  out = Canonical{};
  out.transposed = p.transposed;
  out.compute = p.compute;
  out.x = lift(x);
  out.y = lift(y);
  out.w = lift(p.weight);
  out.grad_output = lift(p.grad_output);
  out.batch = out.x.shape[0];
  out.groups = p.groups;
  out.cx_per_group = out.w.shape[1];
  out.cy_per_group = out.w.shape[0] / p.groups;
  for (int d = 0; d < kSpatial; ++d) {
    out.x_size[d] = out.x.shape[2 + d];
    out.y_size[d] = out.y.shape[2 + d];
    out.kernel[d] = out.w.shape[2 + d];
    out.stride[d] = p.stride[d];
    out.dilation[d] = p.dilation[d];
    out.pad_begin[d] = p.pad_begin[d];
  }
  if (p.mask[0]) out.grad_input = lift(p.grad_input);
  if (p.mask[1]) out.grad_weight = lift(p.grad_weight);
  // (gradBias alone reads gradOutput whole: no reach to cut.)
  if ((p.mask[0] || p.mask[1]) && !cut_to_reach(p, &out, error)) {
    if (beyond_reach != nullptr) *beyond_reach = true;
    return false;
  }
  return true;
}

ConvDesc desc_of(const Problem &p) {
  ConvDesc desc;
  desc.spatial_rank = p.rank >= 3 && p.rank <= 5 ? p.rank - 2 : 2;
  desc.transposed = p.transposed;
  desc.groups = p.groups;
  const size_t rank = static_cast<size_t>(desc.spatial_rank + 2);
  const bool shapes_ok =
      p.input.shape.size() == rank && p.grad_output.shape.size() == rank && p.weight.shape.size() == rank;
  if (shapes_ok) {
    desc.mb = p.input.shape[0];
    desc.ic = p.input.shape[1];
    desc.oc = p.grad_output.shape[1];
    for (int i = 2; i < static_cast<int>(rank); ++i) {
      const int d = i + 3 - static_cast<int>(rank);
      desc.in[d] = p.input.shape[i];
      desc.out[d] = p.grad_output.shape[i];
      desc.kernel[d] = p.weight.shape[i];
    }
  }
  for (int d = 0; d < kSpatial; ++d) {
    desc.stride[d] = p.stride[d];
    desc.dilation[d] = p.dilation[d];
    desc.pad_begin[d] = p.pad_begin[d];
    desc.pad_end[d] = p.pad_end[d];
    desc.output_padding[d] = p.output_padding[d];
  }
  const TensorArg *tensors[6] = {&p.grad_output, &p.input, &p.weight, &p.grad_input, &p.grad_weight, &p.grad_bias};
  for (int t = 0; t < 6; ++t) {
    desc.present[t] = t < kDescGradInput || tensors[t]->present;
    desc.dtype[t] = tensors[t]->dtype;
  }
  for (int i = 0; i < 3; ++i) desc.mask[i] = p.mask[i];
  desc.cube_math_type = p.cube_math_type;
  desc.product = p.product;
  return desc;
}

std::string describe(const Problem &problem) { return format_desc(desc_of(problem)); }

}  // namespace conv_bwd
}  // namespace aclnn_cpu

#include "output_check.hpp"

#include <cmath>

#include "conformance_reference.hpp"

namespace aclnn_cpu {
namespace demo {
namespace {

using conv_bwd::ConvDesc;

double product(const std::vector<int64_t> &shape, size_t from) {
  double p = 1;
  for (size_t i = from; i < shape.size(); ++i) p *= static_cast<double>(shape[i]);
  return p;
}

// Spatial size of the tensor playing the forward convolution's output (gradOutput, or input when transposed).
double y_spatial(const ConvDesc &d, const HostData &h) {
  return product(h.shape[d.transposed ? conv_bwd::kDescInput : conv_bwd::kDescGradOutput], 2);
}

int64_t terms_per_element(const ConvDesc &d, const HostData &h, Output out) {
  const std::vector<int64_t> &w = h.shape[conv_bwd::kDescWeight];
  switch (out) {
    case kGradInput: {
      const double channels = d.transposed ? static_cast<double>(w[1]) : static_cast<double>(w[0] / d.groups);
      return static_cast<int64_t>(channels * product(w, 2));
    }
    case kGradWeight:
      return static_cast<int64_t>(static_cast<double>(d.mb) * y_spatial(d, h));
    case kGradBias:
      break;
  }
  return static_cast<int64_t>(static_cast<double>(d.mb) * product(h.shape[conv_bwd::kDescGradOutput], 2));
}

// input, weight or gradOutput holds no element (docs/contract.md §2.2 F4).
bool empty_path(const HostData &h) {
  for (int t = 0; t < 3; ++t) {
    if (element_count(h.shape[t]) == 0) return true;
  }
  return false;
}

conformance::RefSetup reference_setup(const ConvDesc &d, const ReferenceSettings &s) {
  conformance::RefSetup r;
  r.transposed = d.transposed;
  r.groups = d.groups;
  for (int i = 0; i < 3; ++i) {
    r.stride[i] = d.stride[i];
    r.dilation[i] = d.dilation[i];
    r.pad_begin[i] = d.pad_begin[i];
  }
  r.operands = operand_format(d);
  r.hf32_bits = hf32_mantissa_bits(d.product);
  r.hf32_rounding = s.hf32_rounding;
  return r;
}

conformance::RefSums reference(const ConvDesc &d, const HostData &h, const ReferenceSettings &s, Output out) {
  const conformance::RefSetup setup = reference_setup(d, s);
  const conformance::Dense5 go = conformance::dense5(h.shape[0], h.values[0]);
  if (out == kGradBias) return conformance::ref_grad_bias(go);
  const conformance::Dense5 in = conformance::dense5(h.shape[1], h.values[1]);
  const conformance::Dense5 w = conformance::dense5(h.shape[2], h.values[2]);
  return out == kGradInput ? conformance::ref_grad_input(setup, go, in, w)
                           : conformance::ref_grad_weight(setup, go, in, w);
}

void compare(const ConvDesc &d, const conformance::RefSums &ref, const std::vector<double> &got,
             const ReferenceSettings &s, OutputCheck *c) {
  double err2 = 0, ref2 = 0;
  c->uniform = !got.empty();
  for (size_t i = 0; i < got.size(); ++i) {
    const double want = stored_value(d, c->out, ref.sum[i], s.fp8_overflow);
    c->uniform = c->uniform && got[i] == got[0];
    if (!std::isfinite(want)) {
      // Overflow of an 8-bit format (NaN or ±Inf by its rules): the same special value is required.
      const bool same = std::isnan(want) ? std::isnan(got[i]) : got[i] == want;
      c->non_finite += same ? 0 : 1;
      continue;
    }
    if (!std::isfinite(got[i])) {
      ++c->non_finite;
      continue;
    }
    const double diff = std::fabs(got[i] - want);
    c->max_abs = std::fmax(c->max_abs, diff);
    err2 += diff * diff;
    ref2 += want * want;
  }
  if (c->uniform) c->uniform_value = got[0];
  c->rel_l2 = ref2 > 0 ? std::sqrt(err2 / ref2) : std::sqrt(err2);
  // Written as "not above" so that a NaN error fails.
  c->pass = c->non_finite == 0 && c->rel_l2 <= c->tol;
  if (c->non_finite > 0) c->note = std::to_string(c->non_finite) + " elements NaN/Inf where the reference is not";
}

}  // namespace

const char *output_name(Output out) {
  static const char *const names[] = {"gradInput", "gradWeight", "gradBias"};
  return names[out];
}

double macs(const ConvDesc &d) {
  std::vector<int64_t> shapes[kTensors];
  conv_bwd::desc_shapes(d, shapes);
  const std::vector<int64_t> &w = shapes[conv_bwd::kDescWeight];
  const std::vector<int64_t> &y = shapes[d.transposed ? conv_bwd::kDescInput : conv_bwd::kDescGradOutput];
  return static_cast<double>(d.mb) * static_cast<double>(w[0]) * static_cast<double>(w[1]) * product(w, 2) *
         product(y, 2);
}

double flops(const ConvDesc &d) {
  std::vector<int64_t> shapes[kTensors];
  conv_bwd::desc_shapes(d, shapes);
  double f = 0;
  if (d.mask[0]) f += 2 * macs(d);
  if (d.mask[1]) f += 2 * macs(d);
  if (d.mask[2]) f += product(shapes[conv_bwd::kDescGradOutput], 0);
  return f;
}

std::vector<OutputCheck> check_outputs(const ConvDesc &d, const HostData &h, const ApiRun &run,
                                       const ReferenceSettings &s) {
  std::vector<OutputCheck> checks;
  for (int i = 0; i < 3; ++i) {
    OutputCheck c;
    c.out = static_cast<Output>(i);
    c.requested = d.mask[i];
    c.present = d.present[conv_bwd::kDescGradInput + i];
    const aclDataType dtype = d.dtype[conv_bwd::kDescGradInput + i];
    c.count = element_count(h.shape[conv_bwd::kDescGradInput + i]);
    if (!c.present) {
      c.pass = !c.requested;  // a requested output without a tensor cannot have been produced
      checks.push_back(c);
      continue;
    }
    if (!c.requested) {
      c.pass = all_poison(dtype, run.outputs[i]);
      c.note = c.pass ? "masked off, left untouched" : "masked off but WRITTEN";
      checks.push_back(c);
      continue;
    }
    c.terms = terms_per_element(d, h, c.out);
    c.tol = tolerance(d, c.out, c.terms);
    conformance::RefSums ref = reference(d, h, s, c.out);
    if (c.out == kGradBias && empty_path(h)) {
      // docs/contract.md §2.5 / Q10: the real op writes zeros here even when gradOutput has elements (PyTorch: their
      // sums).
      ref.sum.assign(ref.sum.size(), 0.0);
      c.note = "empty path: zeros, as CANN";
    }
    compare(d, ref, decode_all(dtype, run.outputs[i]), s, &c);
    checks.push_back(c);
  }
  return checks;
}

}  // namespace demo
}  // namespace aclnn_cpu

#include "onednn.hpp"

#include <omp.h>

#include <cstring>
#include <oneapi/dnnl/dnnl.hpp>
#include <utility>
#include <vector>

namespace aclnn_cpu {
namespace bench {
namespace {

using dnnl::memory;
using Dt = memory::data_type;

const std::pair<const char *, dnnl::cpu_isa> kIsaNames[] = {
    {"all", dnnl::cpu_isa::all},
    {"sse41", dnnl::cpu_isa::sse41},
    {"avx", dnnl::cpu_isa::avx},
    {"avx2", dnnl::cpu_isa::avx2},
    {"avx2_vnni", dnnl::cpu_isa::avx2_vnni},
    {"avx512_core", dnnl::cpu_isa::avx512_core},
    {"avx512_core_vnni", dnnl::cpu_isa::avx512_core_vnni},
    {"avx512_core_bf16", dnnl::cpu_isa::avx512_core_bf16},
    {"avx512_core_amx", dnnl::cpu_isa::avx512_core_amx},
};

Dt data_type(Precision p) {
  switch (p) {
    case Precision::kBF16:
      return Dt::bf16;
    case Precision::kF16:
      return Dt::f16;
    default:
      return Dt::f32;  // oneDNN has no HF32: HF32 rows compare with its FP32
  }
}

// Dense strides for `dims` laid out in memory in the index order `order` (outermost first).
memory::desc strided(const memory::dims &dims, Dt type, const std::vector<int> &order) {
  memory::dims strides(dims.size());
  memory::dim step = 1;
  for (size_t i = order.size(); i-- > 0;) {
    strides[order[i]] = step;
    step *= dims[order[i]];
  }
  return memory::desc(dims, type, strides);
}

std::vector<int> identity(size_t n) {
  std::vector<int> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = static_cast<int>(i);
  return order;
}

// What oneDNN's descriptors need, in its conventions: dilation counts the inserted gaps (CANN's minus one), and
// the right padding is explicit.
struct Geometry {
  memory::dims x, dy, w, bias, strides, dilates, pad_l, pad_r;
  std::vector<int> w_order;  // CANN's weight layout as an order of oneDNN's weight dimensions
  Dt data = Dt::f32, wgrad = Dt::f32;
};

// oneDNN accepts a right padding when floor((big + pl + pr - extent) / s) + 1 == small; of the values that satisfy
// it, take the exact one, or 0 when the exact one is negative and 0 fits too.
memory::dim right_pad(int64_t big, int64_t small, int64_t s, int64_t extent, int64_t pl) {
  const int64_t exact = (small - 1) * s + extent - big - pl;
  return exact < 0 && exact + s - 1 >= 0 ? 0 : exact;
}

Geometry geometry(const Layer &l, Dt data) {
  Geometry g;
  g.data = data;
  g.x = l.x_dims();
  g.dy = l.dy_dims();
  g.bias = {l.oc};
  // oneDNN's weights are [g,] o, i, k... with o = gradOutput channels, for both convolution and deconvolution;
  // CANN stores a transposed convolution's weight as [ic, oc/g, k...], i.e. i before o.
  g.w = l.g > 1 ? memory::dims{l.g, l.oc / l.g, l.ic / l.g} : memory::dims{l.oc, l.ic};
  const size_t lead = g.w.size();
  const Spatial out = l.out();
  for (int i = 0; i < l.rank; ++i) {
    g.w.push_back(l.k[i]);
    g.strides.push_back(l.s[i]);
    g.dilates.push_back(l.d[i] - 1);
    g.pad_l.push_back(l.p[i]);
    const int64_t extent = l.d[i] * (l.k[i] - 1) + 1;
    g.pad_r.push_back(l.transposed ? right_pad(out[i], l.in[i], l.s[i], extent, l.p[i])
                                   : right_pad(l.in[i], out[i], l.s[i], extent, l.p[i]));
  }
  g.w_order = identity(g.w.size());
  if (l.transposed) std::swap(g.w_order[lead - 2], g.w_order[lead - 1]);
  return g;
}

struct Prims {
  dnnl::primitive bwd_data, bwd_weights;
  memory::desc dx, w, dy_data, x, dw, db, dy_weights;  // what each primitive wants
  std::string impl;
};

// The forward primitive descriptor is only the hint oneDNN requires for backward ones.
template <class Fwd, class BwdData, class BwdWeights>
Prims make_prims(dnnl::algorithm alg, const Geometry &g, const dnnl::engine &eng) {
  auto any = [](const memory::dims &d, Dt t) { return memory::desc(d, t, memory::format_tag::any); };
  const memory::desc bias(g.bias, g.wgrad, memory::format_tag::a);
  typename Fwd::desc fwd(dnnl::prop_kind::forward_training, alg, any(g.x, g.data), any(g.w, g.data), bias,
                         any(g.dy, g.data), g.strides, g.dilates, g.pad_l, g.pad_r);
  typename Fwd::primitive_desc fwd_pd(fwd, eng);
  typename BwdData::desc data(alg, any(g.x, g.data), any(g.w, g.data), any(g.dy, g.data), g.strides, g.dilates, g.pad_l,
                              g.pad_r);
  typename BwdData::primitive_desc data_pd(data, eng, fwd_pd);
  typename BwdWeights::desc weights(alg, any(g.x, g.data), any(g.w, g.wgrad), bias, any(g.dy, g.data), g.strides,
                                    g.dilates, g.pad_l, g.pad_r);
  typename BwdWeights::primitive_desc weights_pd(weights, eng, fwd_pd);
  Prims p;
  p.bwd_data = BwdData(data_pd);
  p.bwd_weights = BwdWeights(weights_pd);
  p.dx = data_pd.diff_src_desc();
  p.w = data_pd.weights_desc();
  p.dy_data = data_pd.diff_dst_desc();
  p.x = weights_pd.src_desc();
  p.dw = weights_pd.diff_weights_desc();
  p.db = weights_pd.diff_bias_desc();
  p.dy_weights = weights_pd.diff_dst_desc();
  p.impl = std::string(data_pd.impl_info_str()) + " / " + weights_pd.impl_info_str();
  return p;
}

// A tensor as the caller holds it (plain) and as a primitive wants it, with the reorder between them if they differ.
struct Staged {
  memory user, inner;
  dnnl::reorder reorder;
  bool needed = false;
};

Staged stage(const memory &user, const memory::desc &inner, const dnnl::engine &eng, bool input) {
  Staged s;
  s.user = user;
  if (inner == user.get_desc()) {
    s.inner = user;
    return s;
  }
  s.needed = true;
  s.inner = memory(inner, eng);
  s.reorder = input ? dnnl::reorder(s.user, s.inner) : dnnl::reorder(s.inner, s.user);
  return s;
}

void fill(const memory &m, Dt type, const std::vector<float> &values) {
  void *data = m.get_data_handle();
  for (size_t i = 0; i < values.size(); ++i) {
    if (type == Dt::f32) {
      static_cast<float *>(data)[i] = values[i];
    } else {
      static_cast<uint16_t *>(data)[i] = type == Dt::bf16 ? float_to_bf16(values[i]) : float_to_fp16(values[i]);
    }
  }
}

std::vector<float> contents(const memory &m, Dt type, size_t count) {
  const void *data = m.get_data_handle();
  std::vector<float> values(count);
  for (size_t i = 0; i < count; ++i) {
    if (type == Dt::f32) {
      values[i] = static_cast<const float *>(data)[i];
    } else {
      const uint16_t h = static_cast<const uint16_t *>(data)[i];
      values[i] = type == Dt::bf16 ? bf16_to_float(h) : fp16_to_float(h);
    }
  }
  return values;
}

}  // namespace

struct OnednnConv::State {
  dnnl::engine engine{dnnl::engine::kind::cpu, 0};
  dnnl::stream stream{engine};
  Geometry geo;
  Prims prims;
  Staged x, w, dy_data, dy_weights, dx, dw, db;
  bool dy_shared = false;  // both primitives want gradOutput in the same layout: reorder it once
};

OnednnConv::OnednnConv() = default;
OnednnConv::~OnednnConv() = default;

bool OnednnConv::setup(const Layer &layer, Precision p, const HostInputs &inputs, std::string *why) {
  auto s = std::make_unique<State>();
  const Dt data = data_type(p);
  bool made = false;
  // gradWeight/gradBias in the data type when oneDNN can (as ours), else in FP32.
  for (Dt wgrad : {data, Dt::f32}) {
    s->geo = geometry(layer, data);
    s->geo.wgrad = wgrad;
    try {
      s->prims = layer.transposed ? make_prims<dnnl::deconvolution_forward, dnnl::deconvolution_backward_data,
                                               dnnl::deconvolution_backward_weights>(
                                        dnnl::algorithm::deconvolution_direct, s->geo, s->engine)
                                  : make_prims<dnnl::convolution_forward, dnnl::convolution_backward_data,
                                               dnnl::convolution_backward_weights>(dnnl::algorithm::convolution_direct,
                                                                                   s->geo, s->engine);
      made = true;
      break;
    } catch (const dnnl::error &e) {
      *why = std::string("no ") +
             (data == Dt::f32    ? "f32"
              : data == Dt::bf16 ? "bf16"
                                 : "f16") +
             " implementation on ISA " + onednn_isa() + " (" + e.what() + ")";
    }
  }
  if (!made) return false;
  const Geometry &g = s->geo;
  const memory x(strided(g.x, data, identity(g.x.size())), s->engine);
  const memory dy(strided(g.dy, data, identity(g.dy.size())), s->engine);
  const memory w(strided(g.w, data, g.w_order), s->engine);
  fill(x, data, inputs.x);
  fill(dy, data, inputs.dy);
  fill(w, data, inputs.w);
  s->x = stage(x, s->prims.x, s->engine, true);
  s->w = stage(w, s->prims.w, s->engine, true);
  s->dy_data = stage(dy, s->prims.dy_data, s->engine, true);
  s->dy_shared = s->prims.dy_weights == s->prims.dy_data;
  s->dy_weights = s->dy_shared ? s->dy_data : stage(dy, s->prims.dy_weights, s->engine, true);
  s->dx = stage(memory(strided(g.x, data, identity(g.x.size())), s->engine), s->prims.dx, s->engine, false);
  s->dw = stage(memory(strided(g.w, g.wgrad, g.w_order), s->engine), s->prims.dw, s->engine, false);
  s->db = stage(memory(memory::desc(g.bias, g.wgrad, memory::format_tag::a), s->engine), s->prims.db, s->engine, false);
  state_ = std::move(s);
  return true;
}

void OnednnConv::run() {
  State &s = *state_;
  auto in = [&](Staged &t) {
    if (t.needed) t.reorder.execute(s.stream, t.user, t.inner);
  };
  auto out = [&](Staged &t) {
    if (t.needed) t.reorder.execute(s.stream, t.inner, t.user);
  };
  in(s.dy_data);
  if (!s.dy_shared) in(s.dy_weights);
  in(s.w);
  in(s.x);
  s.prims.bwd_data.execute(
      s.stream, {{DNNL_ARG_DIFF_DST, s.dy_data.inner}, {DNNL_ARG_WEIGHTS, s.w.inner}, {DNNL_ARG_DIFF_SRC, s.dx.inner}});
  s.prims.bwd_weights.execute(s.stream, {{DNNL_ARG_SRC, s.x.inner},
                                         {DNNL_ARG_DIFF_DST, s.dy_weights.inner},
                                         {DNNL_ARG_DIFF_WEIGHTS, s.dw.inner},
                                         {DNNL_ARG_DIFF_BIAS, s.db.inner}});
  out(s.dx);
  out(s.dw);
  out(s.db);
  s.stream.wait();
}

Gradients OnednnConv::read() const {
  const State &s = *state_;
  Gradients g;
  g.dx = contents(s.dx.user, s.geo.data, static_cast<size_t>(element_count(s.geo.x)));
  g.dw = contents(s.dw.user, s.geo.wgrad, static_cast<size_t>(element_count(s.geo.w)));
  g.db = contents(s.db.user, s.geo.wgrad, static_cast<size_t>(element_count(s.geo.bias)));
  return g;
}

std::string OnednnConv::dtypes() const {
  auto name = [](Dt t) { return t == Dt::f32 ? "f32" : t == Dt::bf16 ? "bf16" : "f16"; };
  const Geometry &g = state_->geo;
  return std::string(name(g.data)) + (g.wgrad != g.data ? "/w:f32" : "");
}

std::string OnednnConv::implementation() const { return state_ ? state_->prims.impl : "-"; }

std::string onednn_version() {
  const dnnl_version_t *v = dnnl_version();
  return std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch);
}

std::string onednn_isa() {
  const dnnl::cpu_isa isa = dnnl::get_effective_cpu_isa();
  for (const auto &entry : kIsaNames) {
    if (entry.second == isa) return entry.first;
  }
  return "isa#" + std::to_string(static_cast<int>(isa));
}

bool cap_onednn_isa(const std::string &name) {
  for (const auto &entry : kIsaNames) {
    if (name == entry.first) return dnnl::set_max_cpu_isa(entry.second) == dnnl::status::success;
  }
  return false;
}

void set_onednn_threads(int threads) { omp_set_num_threads(threads); }

}  // namespace bench
}  // namespace aclnn_cpu

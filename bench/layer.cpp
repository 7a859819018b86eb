#include "layer.hpp"

namespace aclnn_cpu {
namespace bench {

int64_t element_count(const Dims &dims) {
  int64_t n = 1;
  for (int64_t v : dims) n *= v;
  return n;
}

Spatial Layer::out() const {
  Spatial o{1, 1, 1};
  for (int i = 0; i < rank; ++i) {
    const int64_t extent = d[i] * (k[i] - 1) + 1;
    o[i] = transposed ? (in[i] - 1) * s[i] - 2 * p[i] + extent + op[i] : (in[i] + 2 * p[i] - extent) / s[i] + 1;
  }
  return o;
}

Dims Layer::x_dims() const {
  Dims dims{mb, ic};
  for (int i = 0; i < rank; ++i) dims.push_back(in[i]);
  return dims;
}

Dims Layer::dy_dims() const {
  Dims dims{mb, oc};
  const Spatial o = out();
  for (int i = 0; i < rank; ++i) dims.push_back(o[i]);
  return dims;
}

Dims Layer::w_dims() const {
  Dims dims = transposed ? Dims{ic, oc / g} : Dims{oc, ic / g};
  for (int i = 0; i < rank; ++i) dims.push_back(k[i]);
  return dims;
}

double Layer::macs() const {
  // Every (small-side position, kernel tap, channel pair) is one multiply-accumulate; the small side is the
  // convolution's output, or the transposed convolution's input. Taps that fall on padding are counted too.
  const Spatial small = transposed ? in : out();
  double n = static_cast<double>(mb) * ic * (oc / g);
  for (int i = 0; i < rank; ++i) n *= static_cast<double>(small[i]) * k[i];
  return n;
}

double Layer::real_share() const {
  // Per dimension, the (small-side position, tap) pairs whose index on the other side, position·s − p + tap·d,
  // lies inside that side's extent: x for a convolution, gradOutput for a transposed one.
  const Spatial small = transposed ? in : out(), other = transposed ? out() : in;
  double share = 1;
  for (int i = 0; i < rank; ++i) {
    int64_t inside = 0;
    for (int64_t o = 0; o < small[i]; ++o) {
      for (int64_t t = 0; t < k[i]; ++t) {
        const int64_t at = o * s[i] - p[i] + t * d[i];
        inside += at >= 0 && at < other[i];
      }
    }
    share *= static_cast<double>(inside) / static_cast<double>(small[i] * k[i]);
  }
  return share;
}

std::string Layer::descriptor() const {
  static const char *kAxis[3] = {"d", "h", "w"};
  auto field = [&](const char *prefix, const Spatial &v) {
    std::string text;
    for (int i = 0; i < rank; ++i) text += prefix + std::string(kAxis[3 - rank + i]) + std::to_string(v[i]);
    return text;
  };
  const Spatial o = out();
  std::string text = "mb" + std::to_string(mb) + "_g" + std::to_string(g) + "_ic" + std::to_string(ic) + "oc" +
                     std::to_string(oc) + "_" + field("i", in) + "_" + field("o", o) + "_" + field("k", k);
  if (s != Spatial{1, 1, 1}) text += "_" + field("s", s);
  text += "_" + field("p", p);
  if (d != Spatial{1, 1, 1}) text += "_" + field("d", d);
  if (transposed) text += "_tr1_" + field("op", op);
  return text;
}

}  // namespace bench
}  // namespace aclnn_cpu

#include "conv_bwd/reach.hpp"

#include <algorithm>

#include "conv_bwd/plan_steps.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

// Products of two attribute-sized values need 126 bits.
__extension__ typedef __int128 Wide;

Wide floor_div(Wide a, Wide b) {
  const Wide q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

Wide ceil_div(Wide a, Wide b) {
  const Wide q = a / b;
  return (a % b != 0 && a > 0) ? q + 1 : q;
}

Wide mod(Wide a, Wide m) { return ((a % m) + m) % m; }

Wide gcd(Wide a, Wide b) {
  if (a < 0) a = -a;
  if (b < 0) b = -b;
  while (b != 0) {
    const Wide t = a % b;
    a = b;
    b = t;
  }
  return a;
}

struct Point {
  Wide o, k;
};

// The terms of the dim: the box of positions and taps between the first and the last that take part, and the first
// two terms in (tap, position) order.
struct Terms {
  Wide o_lo = 0, o_hi = -1, k_lo = 0, k_hi = -1;
  Point first{0, 0}, second{0, 0};
  int count = 0;  // 0, 1 or 2: how many of first, second exist
};

Terms find_terms(const DimRelation &r) {
  Terms t;
  const Wide s = r.stride, dil = r.dilation, pb = r.pad_begin, x = r.x_size, y = r.y_size;
  for (int64_t k = 0; k < r.kernel; ++k) {
    const Wide base = Wide{k} * dil - pb;  // x index of position 0
    const Wide lo = std::max<Wide>(0, ceil_div(-base, s)), hi = std::min<Wide>(y - 1, floor_div(x - 1 - base, s));
    if (lo > hi) continue;
    if (t.count == 0) {
      t.o_lo = lo;
      t.o_hi = hi;
      t.k_lo = k;
    }
    t.o_lo = std::min(t.o_lo, lo);
    t.o_hi = std::max(t.o_hi, hi);
    t.k_hi = k;
    for (Wide o = lo; o <= hi && t.count < 2; ++o) (t.count++ == 0 ? t.first : t.second) = Point{o, Wide{k}};
  }
  count_plan_steps(r.kernel);
  return t;
}

struct Attributes {
  Wide s, dil;
};

// All terms on one line of the box (reach.hpp): a direction v = (p, −m), p, m > 0, along which i changes by
// r = p·s − m·dil, and the smallest attributes past the bound that keep r: s' ≡ s (mod m) from 2·X·K', or
// dil' ≡ dil (mod p) from 2·X·Y', whichever reaches less.
Attributes on_a_line(const DimRelation &r, const Terms &t, Wide y_count, Wide k_count) {
  const Wide d_o = t.first.o - t.second.o, d_k = t.second.k - t.first.k, g = gcd(d_o, d_k);
  const Wide p = d_o / g, m = d_k / g, s = r.stride, dil = r.dilation, x = r.x_size;
  // Not a line through the box, or sizes past any reach reduce_dim accepts: kept (reduce_dim then checks the reach).
  if (p <= 0 || m <= 0 || p > kMaxReach || m > kMaxReach) return Attributes{s, dil};
  const Wide rate = p * s - m * dil;
  const Wide s_min = 2 * x * k_count, d_min = 2 * x * y_count;
  const bool by_s = s_min <= kMaxReach, by_dil = d_min <= kMaxReach;
  if (!by_s && !by_dil) return Attributes{s, dil};
  Attributes a{0, 0}, b{0, 0};
  if (by_s) {
    a.s = s_min + mod(s - s_min, m);
    a.dil = (p * a.s - rate) / m;
  }
  if (by_dil) {
    b.dil = d_min + mod(dil - d_min, p);
    b.s = (rate + m * b.dil) / p;
  }
  if (!by_s || !by_dil) return by_s ? a : b;
  auto reach = [&](const Attributes &v) { return (y_count - 1) * v.s + (k_count - 1) * v.dil; };
  return reach(a) <= reach(b) ? a : b;
}

}  // namespace

bool reduce_dim(const DimRelation &r, DimReach *out) {
  *out = DimReach{};
  const Terms t = find_terms(r);
  if (t.count == 0) return true;
  const Wide y_count = t.o_hi - t.o_lo + 1, k_count = t.k_hi - t.k_lo + 1, x = r.x_size;
  Attributes a{y_count == 1 ? Wide{1} : Wide{r.stride}, k_count == 1 ? Wide{1} : Wide{r.dilation}};
  const bool beyond = a.s / 2 >= x * k_count || a.dil / 2 >= x * y_count;  // a.s ≥ 2·X·K' (no overflow)
  if (y_count > 1 && k_count > 1 && beyond) a = on_a_line(r, t, y_count, k_count);
  if (a.s > kMaxReach || a.dil > kMaxReach) return false;
  // The box origin's x index under the reduced attributes, from the first term's (the same on every term).
  const Wide first_x = t.first.o * r.stride + t.first.k * r.dilation - r.pad_begin;
  const Wide origin = first_x - a.s * (t.first.o - t.o_lo) - a.dil * (t.first.k - t.k_lo);
  const Wide x_begin = std::max<Wide>(origin, 0), pad = std::max<Wide>(-origin, 0);
  if (pad > kMaxReach) return false;
  const Wide reach = (y_count - 1) * a.s + (k_count - 1) * a.dil + pad + a.s + a.dil + (x - x_begin);
  if (reach > kMaxReach) return false;
  out->any = true;
  out->x_begin = static_cast<int64_t>(x_begin);
  out->y_begin = static_cast<int64_t>(t.o_lo);
  out->k_begin = static_cast<int64_t>(t.k_lo);
  out->reduced.x_size = static_cast<int64_t>(x - x_begin);
  out->reduced.y_size = static_cast<int64_t>(y_count);
  out->reduced.kernel = static_cast<int64_t>(k_count);
  out->reduced.stride = static_cast<int64_t>(a.s);
  out->reduced.dilation = static_cast<int64_t>(a.dil);
  out->reduced.pad_begin = static_cast<int64_t>(pad);
  return true;
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu

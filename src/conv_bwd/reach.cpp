#include "conv_bwd/reach.hpp"

#include <algorithm>

#include "conv_bwd/plan_steps.hpp"
#include "core/int_math.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

// Products of two attribute-sized values need 126 bits. Relations whose values all stay below kNarrow (every
// ordinary call) are reduced in 64 bits, where no product leaves int64 either.
using Wide = Int128;
constexpr int64_t kNarrow = int64_t{1} << 30;

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

template <typename Int>
struct Point {
  Int o, k;
};

// The terms of the dim: the box of positions and taps between the first and the last that take part, and the first
// two terms in (tap, position) order.
template <typename Int>
struct Terms {
  Int o_lo = 0, o_hi = -1, k_lo = 0, k_hi = -1;
  Point<Int> first{0, 0}, second{0, 0};
  int count = 0;  // 0, 1 or 2: how many of first, second exist
};

template <typename Int>
Terms<Int> find_terms(const DimRelation &r) {
  Terms<Int> t;
  const Int s = r.stride, dil = r.dilation, pb = r.pad_begin, x = r.x_size, y = r.y_size;
  for (Int k = 0; k < r.kernel; ++k) {
    const Int base = k * dil - pb;  // x index of position 0
    const Int lo = std::max<Int>(0, ceil_div(-base, s)), hi = std::min<Int>(y - 1, floor_div(x - 1 - base, s));
    if (lo > hi) continue;
    if (t.count == 0) {
      t.o_lo = lo;
      t.o_hi = hi;
      t.k_lo = k;
    }
    t.o_lo = std::min(t.o_lo, lo);
    t.o_hi = std::max(t.o_hi, hi);
    t.k_hi = k;
    for (Int o = lo; o <= hi && t.count < 2; ++o) (t.count++ == 0 ? t.first : t.second) = Point<Int>{o, k};
  }
  return t;
}

template <typename Int>
struct Attributes {
  Int s, dil;
};

// All terms on one line of the box (reach.hpp): a direction v = (p, −m), p, m > 0, along which i changes by
// r = p·s − m·dil, and the smallest attributes past the bound that keep r: s' ≡ s (mod m) from 2·X·K', or
// dil' ≡ dil (mod p) from 2·X·Y', whichever reaches less. In 128 bits (find_reach in 64 bits hands such terms over).
Attributes<Wide> on_a_line(const DimRelation &r, const Terms<Wide> &t, Wide y_count, Wide k_count) {
  const Wide d_o = t.first.o - t.second.o, d_k = t.second.k - t.first.k, g = gcd(d_o, d_k);
  const Wide p = d_o / g, m = d_k / g, s = r.stride, dil = r.dilation, x = r.x_size;
  // Not a line through the box, or sizes past any reach reduce_dim accepts: kept (reduce_dim then checks the reach).
  if (p <= 0 || m <= 0 || p > kMaxReach || m > kMaxReach) return Attributes<Wide>{s, dil};
  const Wide rate = p * s - m * dil;
  const Wide s_min = 2 * x * k_count, d_min = 2 * x * y_count;
  const bool by_s = s_min <= kMaxReach, by_dil = d_min <= kMaxReach;
  if (!by_s && !by_dil) return Attributes<Wide>{s, dil};
  Attributes<Wide> a{0, 0}, b{0, 0};
  if (by_s) {
    a.s = s_min + mod(s - s_min, m);
    a.dil = (p * a.s - rate) / m;
  }
  if (by_dil) {
    b.dil = d_min + mod(dil - d_min, p);
    b.s = (rate + m * b.dil) / p;
  }
  if (!by_s || !by_dil) return by_s ? a : b;
  auto reach = [&](const Attributes<Wide> &v) { return (y_count - 1) * v.s + (k_count - 1) * v.dil; };
  return reach(a) <= reach(b) ? a : b;
}

// The reduction in Int; false when the terms lie on a line past the bound (only Wide handles that) or the reach is
// too far.
template <typename Int>
bool find_reach(const DimRelation &r, const Terms<Int> &t, DimReach *out) {
  const Int y_count = t.o_hi - t.o_lo + 1, k_count = t.k_hi - t.k_lo + 1, x = r.x_size;
  Attributes<Int> a{y_count == 1 ? Int{1} : Int{r.stride}, k_count == 1 ? Int{1} : Int{r.dilation}};
  const bool beyond = a.s / 2 >= x * k_count || a.dil / 2 >= x * y_count;  // a.s ≥ 2·X·K' (no overflow)
  if (y_count > 1 && k_count > 1 && beyond) {
    if constexpr (sizeof(Int) == sizeof(Wide)) {
      a = on_a_line(r, t, y_count, k_count);
    } else {
      return false;
    }
  }
  if (a.s > kMaxReach || a.dil > kMaxReach) return false;
  // The box origin's x index under the reduced attributes, from the first term's (the same on every term).
  const Int first_x = t.first.o * r.stride + t.first.k * r.dilation - r.pad_begin;
  const Int origin = first_x - a.s * (t.first.o - t.o_lo) - a.dil * (t.first.k - t.k_lo);
  const Int x_begin = std::max<Int>(origin, 0), pad = std::max<Int>(-origin, 0);
  if (pad > kMaxReach) return false;
  const Int reach = (y_count - 1) * a.s + (k_count - 1) * a.dil + pad + a.s + a.dil + (x - x_begin);
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

template <typename Int>
bool reduce_in(const DimRelation &r, DimReach *out) {
  const Terms<Int> t = find_terms<Int>(r);
  return t.count == 0 || find_reach<Int>(r, t, out);
}

}  // namespace

bool reduce_dim(const DimRelation &r, DimReach *out) {
  count_plan_steps(r.kernel);  // one pass over the taps (two for narrow terms on a line: the same count)
  *out = DimReach{};
  const bool narrow = r.x_size < kNarrow && r.y_size < kNarrow && r.kernel < kNarrow && r.stride < kNarrow &&
                      r.dilation < kNarrow && r.pad_begin < kNarrow;
  // No padding and the last position's last tap inside x: every pair is a term, and the relation its own reduction.
  if (narrow && r.pad_begin == 0 && (r.y_size - 1) * r.stride + (r.kernel - 1) * r.dilation < r.x_size) {
    out->any = true;
    out->reduced = r;
    if (r.y_size == 1) out->reduced.stride = 1;
    if (r.kernel == 1) out->reduced.dilation = 1;
    return true;
  }
  if (narrow && reduce_in<int64_t>(r, out)) return true;
  *out = DimReach{};
  return reduce_in<Wide>(r, out);
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu

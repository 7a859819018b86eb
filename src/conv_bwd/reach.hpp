// What the sums of one spatial dim reach, and the same relation with attributes bounded by the tensors' sizes.
//
// Along one dim the forward relation pairs y position o < Y and tap k < K with x index i = o·s − pb + k·dil, a term
// of the sums when 0 ≤ i < X. Attribute values may be as large as int64 allows while the tensors stay tiny (a stride
// of 2⁶² on a dim with one output position; pads and a dilation of 10¹⁸ that cancel), so everything that plans or
// runs a call works on a reduced relation instead:
//   * only the y positions [y_begin, y_begin + Y') and taps [k_begin, k_begin + K') between the first and the last
//     that take part in some term (the rest take part in none: their gradients are zeros), x from x_begin on (no
//     term reads x below it);
//   * attributes s', dil', pb' ≥ 0 giving exactly the same terms and x indices on that box, chosen small: s' = 1
//     with one position, dil' = 1 with one tap, else the caller's where they are below 2·X·K' and 2·X·Y'. Above,
//     every term lies on one line of the (o, k) box (two independent difference vectors v with |i(v)| < X would
//     force s < 2·X·K' and dil < 2·X·Y'), and any s', dil' keeping i along that line, one of them past that bound,
//     admit no other pair: the smallest such are taken.
// All of it costs O(K) (one closed-form position range per tap), whatever the attribute values.
#pragma once

#include <cstdint>

namespace aclnn_cpu {
namespace conv_bwd {

// One dim of the relation: sizes and attributes (s, dil ≥ 1; pb ≥ 0).
struct DimRelation {
  int64_t x_size = 1, y_size = 1, kernel = 1, stride = 1, dilation = 1, pad_begin = 0;
};

struct DimReach {
  bool any = false;  // some (position, tap) pair reads x; when false nothing below is set
  int64_t x_begin = 0, y_begin = 0, k_begin = 0;
  DimRelation reduced;  // the box's relation: x_size = X − x_begin, y_size = Y', kernel = K'
};

// The largest value the reduced relation's reach ((Y'−1)·s' + (K'−1)·dil' + pb' + s' + dil' + X') may have: every
// index the algorithms form (and a few of them added) then fits in int64.
constexpr int64_t kMaxReach = int64_t{1} << 60;

// False when the reduced reach would exceed kMaxReach (only for sizes far beyond what memory holds in that dim).
bool reduce_dim(const DimRelation &dim, DimReach *reach);

}  // namespace conv_bwd
}  // namespace aclnn_cpu

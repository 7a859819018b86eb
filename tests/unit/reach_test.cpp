// The reach of one dim (conv_bwd/reach.hpp) against brute force: every (position, tap) pair of the caller's relation
// is enumerated in 128-bit arithmetic, and the reduced relation must give exactly the same terms with the same x
// indices, with attributes bounded by the sizes, for attribute values from 1 to INT64_MAX.
#include "conv_bwd/reach.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <tuple>

#include "conv_bwd/plan_steps.hpp"

namespace {

using aclnn_cpu::conv_bwd::DimReach;
using aclnn_cpu::conv_bwd::DimRelation;
using aclnn_cpu::conv_bwd::reduce_dim;

__extension__ typedef __int128 Wide;
using Term = std::tuple<int64_t, int64_t, int64_t>;  // (position, tap, x index) in the caller's coordinates

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

std::set<Term> terms_of(const DimRelation &r) {
  std::set<Term> terms;
  for (int64_t o = 0; o < r.y_size; ++o) {
    for (int64_t k = 0; k < r.kernel; ++k) {
      const Wide i = Wide{o} * r.stride + Wide{k} * r.dilation - r.pad_begin;
      if (i >= 0 && i < r.x_size) terms.emplace(o, k, static_cast<int64_t>(i));
    }
  }
  return terms;
}

std::string text(const DimRelation &r) {
  std::ostringstream os;
  os << "X=" << r.x_size << " Y=" << r.y_size << " K=" << r.kernel << " s=" << r.stride << " dil=" << r.dilation
     << " pb=" << r.pad_begin;
  return os.str();
}

// The reduced relation's terms moved back to the caller's coordinates, and its bounds.
::testing::AssertionResult reduces_exactly(const DimRelation &r) {
  DimReach reach;
  if (!reduce_dim(r, &reach)) return ::testing::AssertionFailure() << "refused " << text(r);
  const std::set<Term> expected = terms_of(r);
  if (!reach.any) {
    if (expected.empty()) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "no term found, " << expected.size() << " exist: " << text(r);
  }
  const DimRelation &d = reach.reduced;
  if (d.stride < 1 || d.dilation < 1 || d.pad_begin < 0 || d.x_size < 1 || d.y_size < 1 || d.kernel < 1) {
    return ::testing::AssertionFailure() << "reduced to " << text(d) << " from " << text(r);
  }
  std::set<Term> got;
  for (const Term &t : terms_of(d)) {
    got.emplace(std::get<0>(t) + reach.y_begin, std::get<1>(t) + reach.k_begin, std::get<2>(t) + reach.x_begin);
  }
  if (got != expected) {
    return ::testing::AssertionFailure() << text(r) << " reduced to " << text(d) << " (begins x " << reach.x_begin
                                         << " y " << reach.y_begin << " k " << reach.k_begin << ") gives " << got.size()
                                         << " terms, " << expected.size() << " expected";
  }
  // Bounded by the sizes: one position or tap makes its attribute 1; otherwise below the lemma's bound (or, on a
  // line, past it by at most the direction's step).
  const Wide bound = 4 * Wide{r.x_size} * (d.y_size + d.kernel) * (d.y_size + d.kernel) + r.x_size;
  if ((d.y_size == 1 && d.stride != 1) || (d.kernel == 1 && d.dilation != 1) || d.stride > bound ||
      d.dilation > bound || d.pad_begin > (d.y_size - 1) * Wide{d.stride} + (d.kernel - 1) * Wide{d.dilation}) {
    return ::testing::AssertionFailure() << text(r) << " reduced to unbounded " << text(d);
  }
  if (d.y_size > r.y_size || d.kernel > r.kernel || reach.x_begin + d.x_size != r.x_size) {
    return ::testing::AssertionFailure() << text(r) << " reduced to a larger box " << text(d);
  }
  return ::testing::AssertionSuccess();
}

// splitmix64
uint64_t next(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// An attribute from the whole range: small, near a power of two, near INT64_MAX, or any 63-bit value.
int64_t attribute(uint64_t *state, int64_t at_least) {
  const uint64_t r = next(state);
  int64_t v = 0;
  switch (r % 5) {
    case 0:
      v = static_cast<int64_t>(next(state) % 8);
      break;
    case 1:
      v = int64_t{1} << (next(state) % 63);
      v += static_cast<int64_t>(next(state) % 5) - 2;
      break;
    case 2:
      v = kMax - static_cast<int64_t>(next(state) % 4);
      break;
    default:
      v = static_cast<int64_t>(next(state) >> 1);
  }
  return std::max(v, at_least);
}

TEST(Reach, OrdinaryRelationsKeepTheirAttributes) {
  // 3 × 3 "same" padding at stride 1 and 2, a 1 × 1 stride-2 layer: every position and tap takes part.
  for (const DimRelation r : {DimRelation{56, 56, 3, 1, 1, 1}, DimRelation{56, 28, 3, 2, 1, 1},
                              DimRelation{56, 28, 1, 2, 1, 0}, DimRelation{9, 3, 2, 3, 2, 1}}) {
    DimReach reach;
    ASSERT_TRUE(reduce_dim(r, &reach));
    ASSERT_TRUE(reach.any);
    EXPECT_EQ(reach.x_begin, 0) << text(r);
    EXPECT_EQ(reach.y_begin, 0) << text(r);
    EXPECT_EQ(reach.k_begin, 0) << text(r);
    const DimRelation &d = reach.reduced;
    EXPECT_EQ(std::make_tuple(d.x_size, d.y_size, d.kernel, d.stride, d.pad_begin),
              std::make_tuple(r.x_size, r.y_size, r.kernel, r.stride, r.pad_begin))
        << text(r);
    EXPECT_EQ(d.dilation, r.kernel == 1 ? 1 : r.dilation) << text(r);
    EXPECT_TRUE(reduces_exactly(r));
  }
}

TEST(Reach, TheIssuesCallReducesToStrideOne) {
  // input H 6, kernel 3, one output row, stride up to INT64_MAX: one position, so the stride does not matter.
  for (int64_t s : {int64_t{4}, int64_t{1000000}, int64_t{2147483647}, int64_t{1} << 40, kMax}) {
    DimReach reach;
    ASSERT_TRUE(reduce_dim(DimRelation{6, 1, 3, s, 1, 0}, &reach));
    EXPECT_EQ(reach.reduced.stride, 1);
    EXPECT_EQ(reach.reduced.kernel, 3);
    EXPECT_EQ(reach.reduced.x_size, 6);
  }
}

TEST(Reach, DeadTapsAndPositionsAreCut) {
  // Pads of 10^18 on both sides with stride 10^18: only the middle position reads x, taps 0..2.
  const int64_t p = 1000000000000000000;
  DimReach reach;
  ASSERT_TRUE(reduce_dim(DimRelation{6, 3, 3, p, 1, p}, &reach));
  ASSERT_TRUE(reach.any);
  EXPECT_EQ(reach.y_begin, 1);
  EXPECT_EQ(reach.reduced.y_size, 1);
  EXPECT_EQ(reach.reduced.stride, 1);
  EXPECT_EQ(reach.reduced.pad_begin, 0);
  // A dilation of 10^18 with pads of 10^18: only the middle tap reads x.
  ASSERT_TRUE(reduce_dim(DimRelation{6, 6, 3, 1, p, p}, &reach));
  EXPECT_EQ(reach.k_begin, 1);
  EXPECT_EQ(reach.reduced.kernel, 1);
  EXPECT_EQ(reach.reduced.dilation, 1);
  EXPECT_TRUE(reduces_exactly(DimRelation{6, 6, 3, 1, p, p}));
  // No pair at all: every tap reads padding.
  ASSERT_TRUE(reduce_dim(DimRelation{2, 1, 2, 1, p, p / 2}, &reach));
  EXPECT_FALSE(reach.any);
}

TEST(Reach, PairsOnOneLineGetSmallAttributes) {
  // s = 10^18, dil = 10^18 − 1: position o meets tap k only where o + k is one value (an anti-diagonal).
  const int64_t s = 1000000000000000000;
  const DimRelation r{5, 4, 4, s, s - 1, 3 * s - 3};
  ASSERT_GT(terms_of(r).size(), 1u);
  EXPECT_TRUE(reduces_exactly(r));
  DimReach reach;
  ASSERT_TRUE(reduce_dim(r, &reach));
  EXPECT_LT(reach.reduced.stride, 1000);
  EXPECT_LT(reach.reduced.dilation, 1000);
}

TEST(Reach, RandomRelationsOverTheWholeRange) {
  uint64_t state = 12345;
  int with_terms = 0, on_a_line = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    DimRelation r;
    r.x_size = 1 + static_cast<int64_t>(next(&state) % 7);
    r.y_size = 1 + static_cast<int64_t>(next(&state) % 6);
    r.kernel = 1 + static_cast<int64_t>(next(&state) % 6);
    r.stride = attribute(&state, 1);
    r.dilation = attribute(&state, 1);
    // Half of the pads put some pair on x (the rest mostly reach nothing), and some strides are a dilation apart.
    if (next(&state) % 3 == 0) r.stride = std::max<int64_t>(1, r.dilation - static_cast<int64_t>(next(&state) % 3));
    if (next(&state) % 2 == 0) {
      const Wide o = next(&state) % r.y_size, k = next(&state) % r.kernel, i = next(&state) % r.x_size;
      const Wide pad = o * r.stride + k * r.dilation - i;
      if (pad < 0 || pad > kMax) continue;
      r.pad_begin = static_cast<int64_t>(pad);
    } else {
      r.pad_begin = attribute(&state, 0);
    }
    if (!terms_of(r).empty()) ++with_terms;
    ASSERT_TRUE(reduces_exactly(r)) << "trial " << trial;
    DimReach reach;
    ASSERT_TRUE(reduce_dim(r, &reach));
    const DimRelation &d = reach.reduced;
    if (reach.any && d.y_size > 1 && d.kernel > 1 && (d.stride != r.stride || d.dilation != r.dilation)) ++on_a_line;
  }
  // The sweep reaches the cases that matter: many with terms, and pairs on one line with attributes replaced.
  EXPECT_GT(with_terms, 5000);
  EXPECT_GT(on_a_line, 50);
}

TEST(Reach, CostsOneStepPerTapWhateverTheAttributes) {
  aclnn_cpu::conv_bwd::set_plan_step_counting(true);
  const int64_t before = aclnn_cpu::conv_bwd::plan_steps();
  DimReach reach;
  ASSERT_TRUE(reduce_dim(DimRelation{6, 1, 3, kMax, kMax, 0}, &reach));
  const int64_t extreme = aclnn_cpu::conv_bwd::plan_steps() - before;
  ASSERT_TRUE(reduce_dim(DimRelation{6, 1, 3, 4, 1, 0}, &reach));
  EXPECT_EQ(aclnn_cpu::conv_bwd::plan_steps() - before - extreme, extreme);
  EXPECT_EQ(extreme, 3);
  aclnn_cpu::conv_bwd::set_plan_step_counting(false);
}

}  // namespace

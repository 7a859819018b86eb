// Integer division and rounding for sizes, offsets and loop bounds. C++'s '/' truncates toward zero; bounds such as
// "o·s − pb + κ·dil ∈ [0, In)" need quotients rounded toward −∞ or +∞ instead, also for negative numerators.
#pragma once

#include <cstdint>
#include <type_traits>

namespace aclnn_cpu {

// Products of two attribute-sized values need 126 bits.
__extension__ typedef __int128 Int128;

namespace int_math_detail {

template <typename T>
constexpr bool kSigned = static_cast<T>(-1) < static_cast<T>(0);

template <typename A, typename B>
struct Common {
  static_assert(kSigned<A> == kSigned<B>, "a signed and an unsigned argument would be computed unsigned");
  using type = std::common_type_t<A, B, int64_t>;
};

}  // namespace int_math_detail

// The type the helpers compute in: int64, or the wider of the arguments' types (Int128, uint64_t).
template <typename A, typename B>
using IntMathType = typename int_math_detail::Common<A, B>::type;

// a / b rounded toward −∞; b > 0.
template <typename A, typename B>
constexpr IntMathType<A, B> floor_div(A a, B b) {
  const IntMathType<A, B> x = a, y = b, q = x / y;
  return (x % y != 0 && x < 0) ? q - 1 : q;
}

// a / b rounded toward +∞; b > 0.
template <typename A, typename B>
constexpr IntMathType<A, B> ceil_div(A a, B b) {
  const IntMathType<A, B> x = a, y = b, q = x / y;
  return (x % y != 0 && x > 0) ? q + 1 : q;
}

// The smallest multiple of `to` that is >= v; v >= 0, to > 0, and v + to - 1 must not overflow.
template <typename A, typename B>
constexpr IntMathType<A, B> round_up(A v, B to) {
  const IntMathType<A, B> x = v, m = to;
  return (x + m - 1) / m * m;
}

}  // namespace aclnn_cpu

// The 16- and 8-lane values of the row kernels (rows_impl.hpp) for the including file's ISA. A GCC
// vector type wider than the ISA's registers has no machine mode; GCC 12 keeps such values in memory and moves their
// lanes through the stack one by one (the AVX2 depthwise kernels ran at a tenth of their AVX-512 speed, 11× oneDNN's
// time). So on AVX-512 they are the plain 16- and 8-float vector types, and below it arrays of the ISA's vectors (two
// ymm or four xmm per 16 lanes): lane l of a value is lane l % W of part l / W, so every sum keeps its lanes and its
// order on every ISA.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

namespace aclnn_cpu {
namespace conv_bwd {
namespace rows_impl {
namespace {  // internal linkage: see rows_impl.hpp
#pragma GCC diagnostic ignored "-Wpsabi"

#if defined(__AVX512F__)
constexpr int kNativeLanes = 16;
#elif defined(__AVX__)
constexpr int kNativeLanes = 8;
#else
constexpr int kNativeLanes = 4;
#endif

// Element alignment: a 64-byte aligned type that spills to the stack gets aligned moves, and ASan's fake stack
// (detect_stack_use_after_return) does not honour 64-byte alignment (a general-protection fault under the asan
// preset). Template code names them as members of Native where the alignment matters (a vector type passed as a
// template argument loses the attribute); the arrays of parts exist only below AVX-512 (slots of at most 32 bytes'
// alignment, which ASan's fake stack keeps).
typedef float F4 __attribute__((vector_size(16), aligned(4)));
typedef float F8 __attribute__((vector_size(32), aligned(4)));
typedef float F16 __attribute__((vector_size(64), aligned(4)));
typedef int32_t J4 __attribute__((vector_size(16), aligned(4)));
typedef int32_t J8 __attribute__((vector_size(32), aligned(4)));
typedef int32_t J16 __attribute__((vector_size(64), aligned(4)));
typedef uint16_t H4 __attribute__((vector_size(8), aligned(2)));
typedef uint16_t H8 __attribute__((vector_size(16), aligned(2)));
typedef uint16_t H16 __attribute__((vector_size(32), aligned(2)));
typedef uint32_t U4 __attribute__((vector_size(16), aligned(4)));
typedef uint32_t U8 __attribute__((vector_size(32), aligned(4)));
typedef uint32_t U16 __attribute__((vector_size(64), aligned(4)));

// The vectors of W lanes: fp32 (F), int32 masks (J), BF16 codes (H) and their fp32 bits (U).
template <int W>
struct Native;
template <>
struct Native<4> {
  typedef F4 F;
  typedef J4 J;
  typedef H4 H;
  typedef U4 U;
};
template <>
struct Native<8> {
  typedef F8 F;
  typedef J8 J;
  typedef H8 H;
  typedef U8 U;
};
template <>
struct Native<16> {
  typedef F16 F;
  typedef J16 J;
  typedef H16 H;
  typedef U16 U;
};

constexpr int native_width(int lanes) { return lanes < kNativeLanes ? lanes : kNativeLanes; }

// 1 if any lane of a native vector is set, folded by shuffles: no variable index, so v never needs a frame slot
// (a vector in memory gets an aligned slot and aligned moves, which fault on ASan's fake stack).
inline uint32_t any_native(J4 v) {
  v |= __builtin_shufflevector(v, v, 2, 3, 0, 1);
  v |= __builtin_shufflevector(v, v, 1, 0, 3, 2);
  return static_cast<uint32_t>(v[0] != 0);
}

inline uint32_t any_native(J8 v) {
  v |= __builtin_shufflevector(v, v, 4, 5, 6, 7, 0, 1, 2, 3);
  v |= __builtin_shufflevector(v, v, 2, 3, 0, 1, 6, 7, 4, 5);
  v |= __builtin_shufflevector(v, v, 1, 0, 3, 2, 5, 4, 7, 6);
  return static_cast<uint32_t>(v[0] != 0);
}

inline uint32_t any_native(J16 v) {
  v |= __builtin_shufflevector(v, v, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
  v |= __builtin_shufflevector(v, v, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11);
  v |= __builtin_shufflevector(v, v, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13);
  v |= __builtin_shufflevector(v, v, 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
  return static_cast<uint32_t>(v[0] != 0);
}

// Even and odd lanes of the 2W lanes x, y.
inline F4 evens(F4 x, F4 y) { return __builtin_shufflevector(x, y, 0, 2, 4, 6); }
inline F4 odds(F4 x, F4 y) { return __builtin_shufflevector(x, y, 1, 3, 5, 7); }
inline F8 evens(F8 x, F8 y) { return __builtin_shufflevector(x, y, 0, 2, 4, 6, 8, 10, 12, 14); }
inline F8 odds(F8 x, F8 y) { return __builtin_shufflevector(x, y, 1, 3, 5, 7, 9, 11, 13, 15); }
inline F16 evens(F16 x, F16 y) {
  return __builtin_shufflevector(x, y, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
}
inline F16 odds(F16 x, F16 y) {
  return __builtin_shufflevector(x, y, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
}

// One vector of at most 32 bytes from p (to p) through a naturally aligned local (the template parameter drops the
// element alignment): GCC 12 kept an element-aligned local whose address is taken in memory. ASan's fake stack keeps
// 32-byte alignment (not 64: the AVX-512 values below stay the plain types).
template <typename N>
inline N load_native(const float *p) {
  static_assert(sizeof(N) <= 32, "ASan's fake stack keeps at most 32-byte alignment");
  N v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}

template <typename N>
inline void store_native(float *p, N v) {
  __builtin_memcpy(p, &v, sizeof v);
}

#if defined(__AVX512F__)
// AVX-512: a register holds 16 lanes, and the values are the plain vector types. (x86 GCC gives a struct holding a
// zmm a 64-byte aligned frame slot whatever its members' declared alignment, and aligned moves there fault on ASan's
// fake stack.)
typedef F16 V16;
typedef J16 I16;
typedef F8 V8;
typedef J8 I8;

inline V16 load16(const float *p) {
  V16 v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}

inline void store16(float *p, V16 v) { __builtin_memcpy(p, &v, sizeof v); }

inline V8 load8(const float *p) {
  V8 v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}

inline void store8(float *p, V8 v) { __builtin_memcpy(p, &v, sizeof v); }

// Lanes of -1 where v is Inf or NaN (all exponent bits set).
inline I16 specials(V16 v) { return ((I16)v & 0x7F800000) == 0x7F800000; }
inline I8 specials(V8 v) { return ((I8)v & 0x7F800000) == 0x7F800000; }

// 1 if any lane of v is set.
inline uint32_t any_lane(I16 v) { return any_native(v); }
inline uint32_t any_lane(I8 v) { return any_native(v); }

// The even (Odd = false) or odd lanes of the 32 lanes a, b.
template <bool Odd>
inline V16 split_lanes(V16 a, V16 b) {
  if constexpr (Odd) {
    return odds(a, b);
  } else {
    return evens(a, b);
  }
}

// a[0], b[0], a[1], b[1], ... a[7], b[7].
inline V16 zip8(V8 a, V8 b) {
  return __builtin_shufflevector(a, b, 0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15);
}
#else
template <int W, bool Int>
struct Part {
  typedef typename Native<W>::F T;
};
template <int W>
struct Part<W, true> {
  typedef typename Native<W>::J T;
};

// AVX2 and baseline x86-64: Lanes fp32 values (int32 masks when Int) as Parts native vectors of W lanes. The operators
// go part by part through an index pack: constant indices, so the parts stay in registers.
template <int Lanes, bool Int>
struct Vec {
  static constexpr int W = native_width(Lanes);
  static constexpr int Parts = Lanes / W;
  typedef typename Part<W, Int>::T N;
  N p[Parts];
};

typedef Vec<16, false> V16;
typedef Vec<16, true> I16;
typedef Vec<8, false> V8;
typedef Vec<8, true> I8;
static_assert(sizeof(V16) == 64 && sizeof(V8) == 32, "16 and 8 lanes");

template <int L, bool I, typename Op, std::size_t... K>
inline Vec<L, I> each_part(Vec<L, I> a, Vec<L, I> b, Op op, std::index_sequence<K...>) {
  return Vec<L, I>{{op(a.p[K], b.p[K])...}};
}

template <int L, bool I, typename Op>
inline Vec<L, I> each_part(Vec<L, I> a, Vec<L, I> b, Op op) {
  return each_part(a, b, op, std::make_index_sequence<Vec<L, I>::Parts>());
}

template <int L>
inline Vec<L, false> operator+(Vec<L, false> a, Vec<L, false> b) {
  typedef typename Vec<L, false>::N N;
  return each_part(a, b, [](N x, N y) -> N { return x + y; });
}

template <int L>
inline Vec<L, false> operator*(Vec<L, false> a, Vec<L, false> b) {
  typedef typename Vec<L, false>::N N;
  return each_part(a, b, [](N x, N y) -> N { return x * y; });
}

template <int L>
inline Vec<L, false> operator*(float s, Vec<L, false> b) {
  typedef typename Vec<L, false>::N N;
  return each_part(b, b, [s](N, N y) -> N { return s * y; });
}

template <int L>
inline Vec<L, true> operator|(Vec<L, true> a, Vec<L, true> b) {
  typedef typename Vec<L, true>::N N;
  return each_part(a, b, [](N x, N y) -> N { return x | y; });
}

template <int L, bool I>
inline Vec<L, I> &operator+=(Vec<L, I> &a, Vec<L, I> b) {
  return a = a + b;
}

template <int L, bool I>
inline Vec<L, I> &operator|=(Vec<L, I> &a, Vec<L, I> b) {
  return a = a | b;
}

// Part by part: a memcpy of the whole value would go through a frame slot.
template <typename V, std::size_t... K>
inline V load(const float *p, std::index_sequence<K...>) {
  return V{{load_native<typename V::N>(p + K * V::W)...}};
}

template <typename V>
inline V load(const float *p) {
  return load<V>(p, std::make_index_sequence<V::Parts>());
}

template <typename V, std::size_t... K>
inline void store(float *p, V v, std::index_sequence<K...>) {
  (store_native<typename V::N>(p + K * V::W, v.p[K]), ...);
}

template <typename V>
inline void store(float *p, V v) {
  store(p, v, std::make_index_sequence<V::Parts>());
}

inline V16 load16(const float *p) { return load<V16>(p); }
inline void store16(float *p, V16 v) { store(p, v); }
inline V8 load8(const float *p) { return load<V8>(p); }
inline void store8(float *p, V8 v) { store(p, v); }

// Lanes of -1 where v is Inf or NaN (all exponent bits set).
template <int L, std::size_t... K>
inline Vec<L, true> specials(Vec<L, false> v, std::index_sequence<K...>) {
  typedef typename Vec<L, true>::N J;
  const auto one = [](J bits) -> J { return (bits & 0x7F800000) == 0x7F800000; };
  return Vec<L, true>{{one((J)v.p[K])...}};
}

template <int L>
inline Vec<L, true> specials(Vec<L, false> v) {
  return specials<L>(v, std::make_index_sequence<Vec<L, false>::Parts>());
}

template <int L, std::size_t... K>
inline uint32_t any_lane(Vec<L, true> v, std::index_sequence<K...>) {
  return any_native((v.p[K] | ...));
}

// 1 if any lane of v is set.
template <int L>
inline uint32_t any_lane(Vec<L, true> v) {
  return any_lane<L>(v, std::make_index_sequence<Vec<L, true>::Parts>());
}

// The even (Odd = false) or odd lanes of the 32 lanes a, b: part k of the result comes from parts 2k and 2k + 1 of
// a's parts followed by b's.
template <bool Odd, std::size_t... K>
inline V16 split_lanes(V16 a, V16 b, std::index_sequence<K...>) {
  constexpr int P = V16::Parts;
  const auto part = [&](int i) -> V16::N { return i < P ? a.p[i] : b.p[i - P]; };
  if constexpr (Odd) {
    return V16{{odds(part(2 * K), part(2 * K + 1))...}};
  } else {
    return V16{{evens(part(2 * K), part(2 * K + 1))...}};
  }
}

template <bool Odd>
inline V16 split_lanes(V16 a, V16 b) {
  return split_lanes<Odd>(a, b, std::make_index_sequence<V16::Parts>());
}

// a[0], b[0], a[1], b[1], ... a[7], b[7].
inline F4 zip_low(F4 x, F4 y) { return __builtin_shufflevector(x, y, 0, 4, 1, 5); }
inline F4 zip_high(F4 x, F4 y) { return __builtin_shufflevector(x, y, 2, 6, 3, 7); }
inline F8 zip_low(F8 x, F8 y) { return __builtin_shufflevector(x, y, 0, 8, 1, 9, 2, 10, 3, 11); }
inline F8 zip_high(F8 x, F8 y) { return __builtin_shufflevector(x, y, 4, 12, 5, 13, 6, 14, 7, 15); }

template <std::size_t... K>
inline V16 zip8(V8 a, V8 b, std::index_sequence<K...>) {
  return V16{{(K % 2 == 0 ? zip_low(a.p[K / 2], b.p[K / 2]) : zip_high(a.p[K / 2], b.p[K / 2]))...}};
}

inline V16 zip8(V8 a, V8 b) { return zip8(a, b, std::make_index_sequence<V16::Parts>()); }
#endif

// dst[0 .. L) = the BF16 codes src[0 .. L) as fp32 (their upper half).
template <int L, std::size_t... K>
inline void widen_bf16(const uint16_t *src, float *dst, std::index_sequence<K...>) {
  constexpr int W = native_width(L);
  typedef typename Native<W>::H H;
  typedef typename Native<W>::U U;
  const auto part = [&](int k) {
    H h;
    __builtin_memcpy(&h, src + k * W, sizeof h);
    const U u = __builtin_convertvector(h, U) << 16;
    __builtin_memcpy(dst + k * W, &u, sizeof u);
  };
  (part(K), ...);
}

template <int L>
inline void widen_bf16(const uint16_t *src, float *dst) {
  widen_bf16<L>(src, dst, std::make_index_sequence<L / native_width(L)>());
}

}  // namespace
}  // namespace rows_impl
}  // namespace conv_bwd
}  // namespace aclnn_cpu

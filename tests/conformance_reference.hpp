// Independent fp64 reference for the conformance tests, written from the formulas of docs/contract.md (§3.2
// non-transposed, §3.3 transposed) directly on the user-visible tensors. It shares no code with src/conv_bwd: no
// canonical roles, no closed-form loop bounds — every output element loops over all channels of its group and all
// kernel taps and tests each index against the formula. It applies the same rounding model as the precision
// mode (operands rounded to the compute type; docs/contract.md §3.5), so precise modes are checked tightly.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "acl/acl_base.h"
#include "core/config.hpp"
#include "numerics/formats.hpp"

namespace conformance {

// Number format the cube reads operands in.
enum class OperandFormat { kExact, kHf32, kFp16, kBf16 };

struct RefSetup {
  bool transposed = false;
  int64_t groups = 1;
  // D, H, W slots; a 1-D call uses W, a 2-D call H and W (unused slots: 1, 1, 0).
  int64_t stride[3] = {1, 1, 1};
  int64_t dilation[3] = {1, 1, 1};
  int64_t pad_begin[3] = {0, 0, 0};
  OperandFormat operands = OperandFormat::kExact;
  int hf32_bits = 11;
  aclnn_cpu::Hf32Rounding hf32_rounding = aclnn_cpu::Hf32Rounding::kTiesAway;
};

// A tensor as [A, B, D, H, W] doubles: ranks 3 and 4 get leading spatial dims of size 1.
struct Dense5 {
  int64_t dim[5] = {0, 0, 1, 1, 1};
  std::vector<double> v;
  double at(int64_t a, int64_t b, int64_t d, int64_t h, int64_t w) const {
    return v[static_cast<size_t>((((a * dim[1] + b) * dim[2] + d) * dim[3] + h) * dim[4] + w)];
  }
};

inline Dense5 dense5(const std::vector<int64_t> &shape, const std::vector<double> &values) {
  Dense5 t;
  t.dim[0] = shape[0];
  t.dim[1] = shape[1];
  for (size_t i = 2; i < shape.size(); ++i) t.dim[i + 5 - shape.size()] = shape[i];
  t.v = values;
  return t;
}

inline double round_operand(const RefSetup &s, double v) {
  const float f = static_cast<float>(v);
  switch (s.operands) {
    case OperandFormat::kHf32:
      return aclnn_cpu::numerics::round_to_hf32(f, s.hf32_bits, s.hf32_rounding);
    case OperandFormat::kFp16:
      return aclnn_cpu::numerics::round_to_fp16(f);
    case OperandFormat::kBf16:
      return aclnn_cpu::numerics::round_to_bf16(f);
    case OperandFormat::kExact:
      break;
  }
  return v;
}

inline Dense5 rounded(const RefSetup &s, Dense5 t) {
  for (double &x : t.v) x = round_operand(s, x);
  return t;
}

// Per output element (logical order of the output's dims): the exact-ish sum and the sum of |terms|, which
// bounds how far another summation order can land.
struct RefSums {
  std::vector<double> sum, abs_sum;
  std::vector<int64_t> terms;  // how many products each sum has (its accumulation length)
  void add(double term, size_t i) {
    sum[i] += term;
    abs_sum[i] += std::fabs(term);
    ++terms[i];
  }
};

// Positions in 128 bits: attributes may be as large as int64 allows (p·s and k·dil each up to 2^126).
__extension__ typedef __int128 WidePos;

// Source position of tap k for output/target position p in one spatial dim: p·s − pb + k·dil.
inline WidePos window_pos(const RefSetup &s, int d, int64_t p, int64_t k) {
  return WidePos{p} * s.stride[d] - s.pad_begin[d] + WidePos{k} * s.dilation[d];
}

// gradInput; `go`, `x`, `w` are the user's gradOutput, input and weight.
inline RefSums ref_grad_input(const RefSetup &s, const Dense5 &go_raw, const Dense5 &in_raw, const Dense5 &w_raw) {
  const Dense5 go = rounded(s, go_raw), w = rounded(s, w_raw);
  RefSums r;
  const size_t count =
      static_cast<size_t>(in_raw.dim[0] * in_raw.dim[1] * in_raw.dim[2] * in_raw.dim[3] * in_raw.dim[4]);
  r.sum.assign(count, 0.0);
  r.abs_sum.assign(count, 0.0);
  r.terms.assign(count, 0);
  const int64_t G = s.groups;
  size_t e = 0;
  for (int64_t n = 0; n < in_raw.dim[0]; ++n)
    for (int64_t c = 0; c < in_raw.dim[1]; ++c)
      for (int64_t i0 = 0; i0 < in_raw.dim[2]; ++i0)
        for (int64_t i1 = 0; i1 < in_raw.dim[3]; ++i1)
          for (int64_t i2 = 0; i2 < in_raw.dim[4]; ++i2, ++e) {
            const int64_t i[3] = {i0, i1, i2};
            if (!s.transposed) {
              // §3.2: gX[n, g·Cin_g+ci, i] = Σ_{co in g} Σ_{κ: (i+pb−κ·dil)/s = o ∈ [0,Out)} gY[n,co,o]·W[co,ci,κ]
              const int64_t cin_g = w.dim[1], cout_g = w.dim[0] / G, g = c / cin_g, ci = c % cin_g;
              for (int64_t co = g * cout_g; co < (g + 1) * cout_g; ++co)
                for (int64_t k0 = 0; k0 < w.dim[2]; ++k0)
                  for (int64_t k1 = 0; k1 < w.dim[3]; ++k1)
                    for (int64_t k2 = 0; k2 < w.dim[4]; ++k2) {
                      const int64_t k[3] = {k0, k1, k2};
                      int64_t o[3];
                      bool reached = true;
                      for (int d = 0; d < 3; ++d) {
                        const WidePos t = WidePos{i[d]} + s.pad_begin[d] - WidePos{k[d]} * s.dilation[d];
                        const WidePos od = t / s.stride[d];
                        reached = reached && t >= 0 && t % s.stride[d] == 0 && od < go.dim[2 + d];
                        o[d] = reached ? static_cast<int64_t>(od) : 0;
                      }
                      if (reached) r.add(go.at(n, co, o[0], o[1], o[2]) * w.at(co, ci, k0, k1, k2), e);
                    }
            } else {
              // §3.3: gX[n, g·Cin_g+c, i] = Σ_{oc<Cout_g} Σ_κ gY[n, g·Cout_g+oc, i·s−pb+κ·dil]·W[g·Cin_g+c, oc, κ]
              const int64_t cin_g = in_raw.dim[1] / G, cout_g = w.dim[1], g = c / cin_g;
              for (int64_t oc = 0; oc < cout_g; ++oc)
                for (int64_t k0 = 0; k0 < w.dim[2]; ++k0)
                  for (int64_t k1 = 0; k1 < w.dim[3]; ++k1)
                    for (int64_t k2 = 0; k2 < w.dim[4]; ++k2) {
                      const int64_t k[3] = {k0, k1, k2};
                      int64_t q[3];
                      bool inside = true;
                      for (int d = 0; d < 3; ++d) {
                        const WidePos at = window_pos(s, d, i[d], k[d]);
                        inside = inside && at >= 0 && at < go.dim[2 + d];
                        q[d] = inside ? static_cast<int64_t>(at) : 0;
                      }
                      if (inside) r.add(go.at(n, g * cout_g + oc, q[0], q[1], q[2]) * w.at(c, oc, k0, k1, k2), e);
                    }
            }
          }
  return r;
}

inline RefSums ref_grad_weight(const RefSetup &s, const Dense5 &go_raw, const Dense5 &in_raw, const Dense5 &w_raw) {
  const Dense5 go = rounded(s, go_raw), x = rounded(s, in_raw);
  RefSums r;
  const size_t count = static_cast<size_t>(w_raw.dim[0] * w_raw.dim[1] * w_raw.dim[2] * w_raw.dim[3] * w_raw.dim[4]);
  r.sum.assign(count, 0.0);
  r.abs_sum.assign(count, 0.0);
  r.terms.assign(count, 0);
  const int64_t G = s.groups;
  size_t e = 0;
  for (int64_t a = 0; a < w_raw.dim[0]; ++a)
    for (int64_t b = 0; b < w_raw.dim[1]; ++b)
      for (int64_t k0 = 0; k0 < w_raw.dim[2]; ++k0)
        for (int64_t k1 = 0; k1 < w_raw.dim[3]; ++k1)
          for (int64_t k2 = 0; k2 < w_raw.dim[4]; ++k2, ++e) {
            const int64_t k[3] = {k0, k1, k2};
            for (int64_t n = 0; n < go.dim[0]; ++n) {
              if (!s.transposed) {
                // §3.2: gW[co,ci,κ] = Σ_n Σ_o gY[n,co,o] · X[n, g·Cin_g+ci, o·s − pb + κ·dil]
                const int64_t cout_g = w_raw.dim[0] / G, g = a / cout_g, cin_g = w_raw.dim[1];
                for (int64_t o0 = 0; o0 < go.dim[2]; ++o0)
                  for (int64_t o1 = 0; o1 < go.dim[3]; ++o1)
                    for (int64_t o2 = 0; o2 < go.dim[4]; ++o2) {
                      const int64_t o[3] = {o0, o1, o2};
                      int64_t q[3];
                      bool inside = true;
                      for (int d = 0; d < 3; ++d) {
                        const WidePos at = window_pos(s, d, o[d], k[d]);
                        inside = inside && at >= 0 && at < x.dim[2 + d];
                        q[d] = inside ? static_cast<int64_t>(at) : 0;
                      }
                      if (inside) r.add(go.at(n, a, o0, o1, o2) * x.at(n, g * cin_g + b, q[0], q[1], q[2]), e);
                    }
              } else {
                // §3.3: gW[g·Cin_g+c, oc, κ] = Σ_n Σ_i input[n, g·Cin_g+c, i] · gY[n, g·Cout_g+oc, i·s − pb + κ·dil]
                const int64_t cin_g = x.dim[1] / G, g = a / cin_g, cout_g = w_raw.dim[1];
                for (int64_t i0 = 0; i0 < x.dim[2]; ++i0)
                  for (int64_t i1 = 0; i1 < x.dim[3]; ++i1)
                    for (int64_t i2 = 0; i2 < x.dim[4]; ++i2) {
                      const int64_t i[3] = {i0, i1, i2};
                      int64_t q[3];
                      bool inside = true;
                      for (int d = 0; d < 3; ++d) {
                        const WidePos at = window_pos(s, d, i[d], k[d]);
                        inside = inside && at >= 0 && at < go.dim[2 + d];
                        q[d] = inside ? static_cast<int64_t>(at) : 0;
                      }
                      if (inside) r.add(x.at(n, a, i0, i1, i2) * go.at(n, g * cout_g + b, q[0], q[1], q[2]), e);
                    }
              }
            }
          }
  return r;
}

// gB[c] = Σ_n Σ_o gY[n, c, o] of the original (never rounded) gradOutput.
inline RefSums ref_grad_bias(const Dense5 &go) {
  RefSums r;
  r.sum.assign(static_cast<size_t>(go.dim[1]), 0.0);
  r.abs_sum.assign(static_cast<size_t>(go.dim[1]), 0.0);
  r.terms.assign(static_cast<size_t>(go.dim[1]), 0);
  for (int64_t c = 0; c < go.dim[1]; ++c)
    for (int64_t n = 0; n < go.dim[0]; ++n)
      for (int64_t d = 0; d < go.dim[2]; ++d)
        for (int64_t h = 0; h < go.dim[3]; ++h)
          for (int64_t w = 0; w < go.dim[4]; ++w) r.add(go.at(n, c, d, h, w), static_cast<size_t>(c));
  return r;
}

}  // namespace conformance

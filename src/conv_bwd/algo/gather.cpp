#include "conv_bwd/algo/gather.hpp"

#include <algorithm>

#include "conv_bwd/parallel.hpp"
#include "core/int_math.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

// The kernel taps reaching output position p along one dim, ascending: an arithmetic progression of taps k and of
// the input positions q they read (the forward rule: every tap of a range; backward-data: those whose p + pb − κ·dil
// is a multiple of s, every s / gcd(s, dil)-th).
struct Taps {
  int64_t count = 0, k = 0, k_step = 1, q = 0, q_step = 0;
};

int64_t gcd(int64_t a, int64_t b) {
  while (b != 0) {
    const int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

Taps taps_at(const GatherSpec &spec, int d, int64_t p) {
  const int64_t s = spec.stride[d], dil = spec.dilation[d], in = spec.in_size[d];
  Taps t;
  if (in <= 0) return t;
  if (spec.rule == TapRule::kForward) {
    // 0 <= p·s − pb + κ·dil <= in − 1
    const int64_t base = p * s - spec.pad_begin[d];
    const int64_t lo = std::max<int64_t>(0, ceil_div(-base, dil));
    const int64_t hi = std::min<int64_t>(spec.kernel[d] - 1, floor_div(in - 1 - base, dil));
    t.count = std::max<int64_t>(0, hi - lo + 1);
    t.k = lo;
    t.q = base + lo * dil;
    t.q_step = dil;
    return t;
  }
  // q·s = p + pb − κ·dil with 0 <= q <= in − 1
  const int64_t base = p + spec.pad_begin[d];
  const int64_t lo = std::max<int64_t>(0, ceil_div(base - (in - 1) * s, dil));
  const int64_t hi = std::min<int64_t>(spec.kernel[d] - 1, floor_div(base, dil));
  int64_t first = lo;
  while (first <= hi && (base - first * dil) % s != 0) ++first;  // fewer than s / gcd(s, dil) steps
  if (first > hi) return t;
  t.k_step = s / gcd(s, dil);
  t.count = (hi - first) / t.k_step + 1;
  t.k = first;
  t.q = (base - first * dil) / s;
  t.q_step = -(dil * t.k_step) / s;
  return t;
}

}  // namespace

namespace {

template <typename InReader, typename WeightReader>
void gather_with(const GatherSpec &spec, const RefOperand &in, const InReader &in_values, const RefOperand &w,
                 const WeightReader &w_values, const Rounding &rounding, const View5 &out) {
  const int64_t A = spec.out_per_group, B = spec.in_per_group;
  const int64_t out_channels = spec.groups * A;
  const int64_t rows = spec.batch * out_channels * spec.out_size[0] * spec.out_size[1];
  const int64_t width = spec.out_size[2];
  const int64_t cost = std::max<int64_t>(1, width * B * spec.kernel[0] * spec.kernel[1] * spec.kernel[2]);
  const bool forward = spec.rule == TapRule::kForward;

  parallel_for(rows, cost, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      int64_t rest = r;
      const int64_t ph = rest % spec.out_size[1];
      rest /= spec.out_size[1];
      const int64_t pd = rest % spec.out_size[0];
      rest /= spec.out_size[0];
      const int64_t c = rest % out_channels;
      const int64_t n = rest / out_channels;
      const int64_t g = c / A, a = c % A;
      const Taps td = taps_at(spec, 0, pd), th = taps_at(spec, 1, ph);
      for (int64_t pw = 0; pw < width; ++pw) {
        const Taps tw = taps_at(spec, 2, pw);
        const int64_t in_step = tw.q_step * in.stride(4), w_step = tw.k_step * w.stride(4);
        double sum = 0.0;
        for (int64_t b = 0; b < B; ++b) {
          const int64_t in_nc = in.index(n, g * B + b, 0, 0, 0);
          const int64_t w_rc = forward ? w.index(g * A + a, b, 0, 0, 0) : w.index(g * B + b, a, 0, 0, 0);
          for (int64_t i = 0; i < td.count; ++i) {
            const int64_t kd = td.k + i * td.k_step, qd = td.q + i * td.q_step;
            for (int64_t j = 0; j < th.count; ++j) {
              const int64_t kh = th.k + j * th.k_step, qh = th.q + j * th.q_step;
              const int64_t in_row = in_nc + qd * in.stride(2) + qh * in.stride(3) + tw.q * in.stride(4);
              const int64_t w_row = w_rc + kd * w.stride(2) + kh * w.stride(3) + tw.k * w.stride(4);
              for (int64_t l = 0; l < tw.count; ++l) {
                sum += in_values.at(in_row + l * in_step) * w_values.at(w_row + l * w_step);
              }
            }
          }
        }
        store_value(out.data, out.dtype, out.index(n, c, pd, ph, pw), rounding.grad_input(sum),
                    rounding.fp8_overflow());
      }
    }
  });
}

}  // namespace

void gather(const GatherSpec &spec, const RefOperand &in, const RefOperand &w, const Rounding &rounding,
            const View5 &out) {
  in.with_reader([&](const auto &in_values) {
    w.with_reader([&](const auto &w_values) { gather_with(spec, in, in_values, w, w_values, rounding, out); });
  });
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu

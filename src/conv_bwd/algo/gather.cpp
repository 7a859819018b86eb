#include "conv_bwd/algo/gather.hpp"

#include <algorithm>
#include <vector>

#include "conv_bwd/parallel.hpp"
#include "core/int_math.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

// One kernel tap reaching an output position: its kernel index and the input position it reads.
struct Tap {
  int64_t k;
  int64_t q;
};

// Fills `taps` (room for spec.kernel[d]) with the taps reaching position p along dim d; returns their count.
int64_t taps_at(const GatherSpec &spec, int d, int64_t p, Tap *taps) {
  const int64_t s = spec.stride[d], dil = spec.dilation[d], in = spec.in_size[d];
  if (in <= 0) return 0;
  int64_t n = 0;
  if (spec.rule == TapRule::kForward) {
    // 0 <= p·s − pb + κ·dil <= in − 1
    const int64_t base = p * s - spec.pad_begin[d];
    const int64_t lo = std::max<int64_t>(0, ceil_div(-base, dil));
    const int64_t hi = std::min<int64_t>(spec.kernel[d] - 1, floor_div(in - 1 - base, dil));
    for (int64_t k = lo; k <= hi; ++k) taps[n++] = {k, base + k * dil};
    return n;
  }
  // q·s = p + pb − κ·dil with 0 <= q <= in − 1
  const int64_t base = p + spec.pad_begin[d];
  const int64_t lo = std::max<int64_t>(0, ceil_div(base - (in - 1) * s, dil));
  const int64_t hi = std::min<int64_t>(spec.kernel[d] - 1, floor_div(base, dil));
  for (int64_t k = lo; k <= hi; ++k) {
    const int64_t t = base - k * dil;
    if (t % s == 0) taps[n++] = {k, t / s};
  }
  return n;
}

// The taps of the D and H dims of one output row, merged into flat (kernel, input) offsets.
int64_t row_taps(const GatherSpec &spec, int64_t pd, int64_t ph, std::vector<Tap> *scratch_d,
                 std::vector<Tap> *scratch_h, std::vector<Tap> *out) {
  const int64_t nd = taps_at(spec, 0, pd, scratch_d->data());
  const int64_t nh = taps_at(spec, 1, ph, scratch_h->data());
  int64_t n = 0;
  for (int64_t i = 0; i < nd; ++i) {
    for (int64_t j = 0; j < nh; ++j) {
      const Tap &td = (*scratch_d)[i], &th = (*scratch_h)[j];
      (*out)[n++] = {(td.k * spec.kernel[1] + th.k) * spec.kernel[2],
                     (td.q * spec.in_size[1] + th.q) * spec.in_size[2]};
    }
  }
  return n;
}

}  // namespace

void gather(const GatherSpec &spec, const float *in, const float *w, const Rounding &rounding, const View5 &out) {
  const int64_t A = spec.out_per_group, B = spec.in_per_group;
  const int64_t out_channels = spec.groups * A, in_channels = spec.groups * B;
  const int64_t in_plane = spec.in_size[0] * spec.in_size[1] * spec.in_size[2];
  const int64_t rows = spec.batch * out_channels * spec.out_size[0] * spec.out_size[1];
  const int64_t width = spec.out_size[2];
  const int64_t cost = std::max<int64_t>(1, width * B * spec.kernel[0] * spec.kernel[1] * spec.kernel[2]);

  parallel_for(rows, cost, [&](int64_t begin, int64_t end) {
    std::vector<Tap> td(spec.kernel[0]), th(spec.kernel[1]), tw(spec.kernel[2]);
    std::vector<Tap> tdh(spec.kernel[0] * spec.kernel[1]);
    for (int64_t r = begin; r < end; ++r) {
      int64_t rest = r;
      const int64_t ph = rest % spec.out_size[1];
      rest /= spec.out_size[1];
      const int64_t pd = rest % spec.out_size[0];
      rest /= spec.out_size[0];
      const int64_t c = rest % out_channels;
      const int64_t n = rest / out_channels;
      const int64_t g = c / A, a = c % A;
      const int64_t ndh = row_taps(spec, pd, ph, &td, &th, &tdh);
      const float *in_group = in + (n * in_channels + g * B) * in_plane;
      const float *w_base = w + g * spec.w_group_stride + a * spec.w_out_stride;
      for (int64_t pw = 0; pw < width; ++pw) {
        const int64_t nw = taps_at(spec, 2, pw, tw.data());
        double sum = 0.0;
        for (int64_t b = 0; b < B; ++b) {
          const float *in_b = in_group + b * in_plane;
          const float *w_b = w_base + b * spec.w_in_stride;
          for (int64_t i = 0; i < ndh; ++i) {
            const float *in_row = in_b + tdh[i].q;
            const float *w_row = w_b + tdh[i].k;
            for (int64_t j = 0; j < nw; ++j) {
              sum += static_cast<double>(in_row[tw[j].q]) * static_cast<double>(w_row[tw[j].k]);
            }
          }
        }
        store_value(out.data, out.dtype, out.index(n, c, pd, ph, pw), rounding.grad_input(sum),
                    rounding.fp8_overflow());
      }
    }
  });
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu

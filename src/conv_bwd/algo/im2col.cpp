#include "conv_bwd/algo/im2col.hpp"

#include <algorithm>

#include "core/int_math.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

// One row segment of positions (fixed od, oh; ow in [ow, ow + len)) and where its tap lands in x.
struct Segment {
  int64_t len;
  bool inside;     // id and ih inside x
  int64_t id, ih;  // x depth and row
  int64_t lo, hi;  // ow range [lo, hi] whose iw lies inside x (empty when lo > hi)
  int64_t shift;   // iw = ow·sw + shift
};

// Where kernel column kw reads along a row: x column iw = ow·sw + shift, inside x for ow in [lo, hi].
struct ColumnReach {
  int64_t shift, lo, hi;
};

ColumnReach column_reach(const Canonical &c, int64_t kw) {
  const DimReach r = positions_reaching_x(c, 2, kw);
  return {kw * c.dilation[2] - c.pad_begin[2], r.lo, r.hi};
}

// Walks `count` positions from `start` row segment by row segment.
template <typename Visit>
void for_each_segment(const Canonical &c, const Im2colTap &tap, const Im2colStart &start, int64_t count, Visit visit) {
  const int64_t kh = tap.kh, kd = tap.kd;
  const int64_t wy = c.y_size[2], hy = c.y_size[1];
  int64_t ow = start.ow, oh = start.oh, od = start.od;
  const ColumnReach reach = column_reach(c, tap.kw);
  int64_t done = 0;
  while (done < count) {
    Segment s;
    s.len = std::min(count - done, wy - ow);
    s.id = od * c.stride[0] - c.pad_begin[0] + kd * c.dilation[0];
    s.ih = oh * c.stride[1] - c.pad_begin[1] + kh * c.dilation[1];
    s.inside = s.id >= 0 && s.id < c.x_size[0] && s.ih >= 0 && s.ih < c.x_size[1];
    s.lo = std::max(ow, reach.lo);
    s.hi = std::min(ow + s.len - 1, reach.hi);
    s.shift = reach.shift;
    visit(s, ow, done);
    done += s.len;
    ow = 0;
    if (++oh == hy) {
      oh = 0;
      ++od;
    }
  }
}

// to[i] = src[2i] for i < n by 4-float vectors, reading no further than src[2(n − 1)] (the strided loop stayed scalar:
// half of im2col_run's time in DCGAN's stride-2 forward GEMM).
void copy_every_second(const float *src, int64_t n, float *to) {
  typedef float F4 __attribute__((vector_size(16), aligned(4)));
  int64_t i = 0;
  for (; i + 5 <= n; i += 4) {  // src[2i .. 2i + 7], and 2i + 7 ≤ 2(n − 1)
    F4 a, b;
    __builtin_memcpy(&a, src + 2 * i, sizeof(a));
    __builtin_memcpy(&b, src + 2 * i + 4, sizeof(b));
    const F4 even = __builtin_shufflevector(a, b, 0, 2, 4, 6);
    __builtin_memcpy(to + i, &even, sizeof(even));
  }
  for (; i < n; ++i) to[i] = src[2 * i];
}

}  // namespace

Im2colStart im2col_start(const Canonical &c, int64_t o0) {
  const int64_t wy = c.y_size[2], hy = c.y_size[1];
  return Im2colStart{o0 / (wy * hy), (o0 / wy) % hy, o0 % wy};
}

bool im2col_run(const Canonical &c, const OperandReader &x, int64_t n, int64_t channel, const Im2colTap &tap,
                const Im2colStart &start, int64_t count, float *out) {
  const View5 &v = x.view();
  const int64_t sw = c.stride[2];
  const bool fp32 = v.dtype == ACL_FLOAT;
  // Runs are often short (one output row): copy or decode each, then round and scan the whole buffer once.
  for_each_segment(c, tap, start, count, [&](const Segment &s, int64_t ow, int64_t at) {
    float *dst = out + at;
    if (!s.inside || s.lo > s.hi) {
      std::fill(dst, dst + s.len, 0.0f);
      return;
    }
    std::fill(dst, dst + (s.lo - ow), 0.0f);
    const int64_t valid = s.hi - s.lo + 1, from = v.index(n, channel, s.id, s.ih, s.lo * sw + s.shift);
    const int64_t step = v.strides[4] * sw;
    float *to = dst + (s.lo - ow);
    if (fp32) {
      const float *src = static_cast<const float *>(v.data) + from;
      if (step == 1) {
        for (int64_t i = 0; i < valid; ++i) to[i] = src[i];
      } else if (step == 2) {
        copy_every_second(src, valid, to);
      } else {
        for (int64_t i = 0; i < valid; ++i) to[i] = src[i * step];
      }
    } else {
      x.decode(from, step, valid, to);
    }
    std::fill(dst + (s.hi + 1 - ow), dst + s.len, 0.0f);
  });
  return x.plain() || x.finish(out, count);
}

DimReach positions_reaching_x(const Canonical &c, int d, int64_t k) {
  const int64_t s = c.stride[d], shift = k * c.dilation[d] - c.pad_begin[d];  // x index = o·s + shift
  return {std::max<int64_t>(0, ceil_div(-shift, s)),
          std::min<int64_t>(c.y_size[d] - 1, floor_div(c.x_size[d] - 1 - shift, s))};
}

int64_t im2col_entries_inside(const Canonical &c) {
  int64_t entries = 0;
  Im2colTap tap(c, 0);
  for (int64_t t = 0; t < c.kernel_numel(); ++t, tap.next(c)) entries += TapReach(c, tap).count();
  return entries;
}

bool im2col_reads_padding(const Canonical &c) {
  for (int d = 0; d < kSpatial; ++d) {
    const int64_t last = (c.y_size[d] - 1) * c.stride[d] - c.pad_begin[d] + (c.kernel[d] - 1) * c.dilation[d];
    if (c.pad_begin[d] > 0 || last > c.x_size[d] - 1) return true;
  }
  return false;
}

void col2im_rows(const Canonical &c, const RowKernels &rk, int64_t kappa, int64_t o0, int64_t count, int64_t channels,
                 const float *src, int64_t src_stride, float *plane, int64_t plane_stride) {
  const int64_t sw = c.stride[2];
  for_each_segment(c, Im2colTap(c, kappa), im2col_start(c, o0), count, [&](const Segment &s, int64_t ow, int64_t at) {
    if (!s.inside || s.lo > s.hi) return;
    const int64_t row_at = (s.id * c.x_size[1] + s.ih) * c.x_size[2] + s.shift;
    if (sw == 1) {
      rk.add_rows(src + at - ow + s.lo, src_stride, channels, s.hi - s.lo + 1, plane + row_at + s.lo, plane_stride);
      return;
    }
    if (sw == 2) {
      rk.add_rows_every_second(src + at - ow + s.lo, src_stride, channels, s.hi - s.lo + 1, plane + row_at + 2 * s.lo,
                               plane_stride);
      return;
    }
    for (int64_t ch = 0; ch < channels; ++ch) {
      float *row = plane + ch * plane_stride + row_at;
      const float *from = src + ch * src_stride + at - ow;
      for (int64_t w = s.lo; w <= s.hi; ++w) row[w * sw] += from[w];
    }
  });
}

namespace {

constexpr int64_t kRowTapsPerCall = 16;  // add_taps_rows' taps per call (a kernel row of more goes in pieces)
// x rows up to this wide take a kernel row's taps in one pass. Against add_rows tap by tap (gradInput alone, BF16,
// mini-batch 16, two threads, Zen 5): the 3-D layer's 14-wide rows 0.93-0.96x its time, 28-wide rows 0.99x, but
// 56-wide rows (ResNet's 3 x 3 at 56²) 1.02x: there add_rows streams each row, while one pass steps across the rows.
constexpr int64_t kRowTapsMaxWidth = 32;

// Taps kappa .. kappa + taps − 1, all of one kernel row (same kd, kh; kw consecutive), at stride 1 along W: they add
// into the same x rows, so each segment is one add_taps_rows call over every channel.
void col2im_row_taps(const Canonical &c, const RowKernels &rk, int64_t kappa, int64_t taps, int64_t o0, int64_t count,
                     int64_t channels, const float *src, int64_t tap_stride, int64_t src_stride, float *plane,
                     int64_t plane_stride) {
  const Im2colTap first(c, kappa);
  ColumnReach reach[kRowTapsPerCall];
  for (int64_t t = 0; t < taps; ++t) reach[t] = column_reach(c, first.kw + t);
  int64_t src_at[kRowTapsPerCall], begin[kRowTapsPerCall], end[kRowTapsPerCall];
  for_each_segment(c, first, im2col_start(c, o0), count, [&](const Segment &s, int64_t ow, int64_t at) {
    if (!s.inside) return;
    for (int64_t t = 0; t < taps; ++t) {  // x columns iw = w + shift of the positions w in [lo, hi] this tap reads
      const ColumnReach &r = reach[t];
      const int64_t lo = std::max(ow, r.lo), hi = std::min(ow + s.len - 1, r.hi);
      begin[t] = lo + r.shift;
      end[t] = std::max(lo, hi + 1) + r.shift;
      src_at[t] = t * tap_stride + at - ow - r.shift;
    }
    rk.add_taps_rows(src, src_stride, src_at, begin, end, taps, channels,
                     plane + (s.id * c.x_size[1] + s.ih) * c.x_size[2], plane_stride);
  });
}

}  // namespace

void col2im_taps(const Canonical &c, const RowKernels &rk, int64_t t0, int64_t t1, int64_t o0, int64_t count,
                 int64_t channels, const float *src, int64_t tap_stride, int64_t src_stride, float *plane,
                 int64_t plane_stride) {
  const int64_t kw = c.kernel[2];
  for (int64_t kappa = t0; kappa < t1;) {
    const int64_t taps = std::min({t1, (kappa / kw + 1) * kw, kappa + kRowTapsPerCall}) - kappa;
    const float *from = src + (kappa - t0) * tap_stride;
    if (c.stride[2] == 1 && taps > 1 && c.x_size[2] <= kRowTapsMaxWidth) {
      col2im_row_taps(c, rk, kappa, taps, o0, count, channels, from, tap_stride, src_stride, plane, plane_stride);
    } else {
      for (int64_t t = 0; t < taps; ++t) {
        col2im_rows(c, rk, kappa + t, o0, count, channels, from + t * tap_stride, src_stride, plane, plane_stride);
      }
    }
    kappa += taps;
  }
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu

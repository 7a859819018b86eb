// gradWeight as GEMMs: per group, dW (Cy_g × Cx_g·K) = Σ over K blocks (WeightKBlock: b.kc y positions of one
// sample, or the whole short planes of several) of dy rows times implicit im2col rows of x. The K blocks are cut into
// k_parts fixed parts; each part sums its blocks into its own fp32 partial, and the partials are added in part order,
// so the result does not depend on the thread count.
//   NT form (long planes): both operands packed as rows along positions (copies), dot-product kernel; on BF16 pairs
//   dy rows of one sample are paired straight from BF16 where they lie.
//   NN form (short planes): dy packed by rows, im2col by columns (a transpose), the NN kernel; on BF16 pairs both read
//   as lines and paired from there in one pass. Whole planes whose taps read padding go by tap instead (by_tap): each
//   tap's columns over only the positions it reads inside x, on the RA kernel.
#include <algorithm>
#include <atomic>

#include "conv_bwd/algo/gemm_algorithms.hpp"
#include "conv_bwd/algo/im2col.hpp"
#include "conv_bwd/algo/operand_runs.hpp"
#include "conv_bwd/algo/packing.hpp"
#include "conv_bwd/algo/prefetch.hpp"
#include "conv_bwd/algo/weight_partials.hpp"
#include "conv_bwd/algorithms.hpp"
#include "conv_bwd/parallel.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

// FP32 gradOutput that needs no rounding, dense over each plane: the NT form reads its rows where they lie. Its
// Inf/NaN are then not scanned (deviation 17b): the result is checked instead, as in the shifted algorithm.
bool dy_rows_in_place(const WeightBlocking &b, const OperandReader &dy) {
  return b.nt && dy.fp32_exact() && dy.view().contiguous_planes();
}

// One K block of one work item: dy rows [r0, r0 + m) against im2col columns [j0, j0 + nc).
struct Block {
  int64_t g, r0, m, j0, nc;
  int64_t kb;         // the block's index (WeightKBlock)
  bool last = false;  // the item's last block
  WeightKBlock k;
  bool first;
  int64_t kc() const { return k.len(); }  // K steps: the block's positions in all its samples
};

// An item's place: group, K part, dW rows and columns. Items run chunks of columns fastest, then of rows, so that the
// items one thread runs in a row share their dy rows.
struct WeightItem {
  int64_t g, part, r0, m, j0, nc;

  WeightItem(const Canonical &c, const WeightBlocking &b, int64_t item) {
    const int64_t n_cols = c.cx_per_group * c.kernel_numel();
    const int64_t chunks = ceil_div(n_cols, b.cols_per_item), row_chunks = ceil_div(c.cy_per_group, b.rows_per_item);
    j0 = item % chunks * b.cols_per_item;
    nc = std::min(b.cols_per_item, n_cols - j0);
    r0 = item / chunks % row_chunks * b.rows_per_item;
    m = std::min(b.rows_per_item, c.cy_per_group - r0);
    part = item / (chunks * row_chunks) % b.k_parts;
    g = item / (chunks * row_chunks * b.k_parts);
  }
};

class WeightGemm {
 public:
  WeightGemm(const Canonical &c, const GemmKernels &k, const WeightBlocking &b, const Rounding &rounding)
      : c_(c),
        k_(k),
        b_(b),
        x_(c.x, rounding),
        dy_(c.y, rounding, im2col_reads_padding(c)),
        kk_(c.kernel_numel()),
        m_(c.cy_per_group),
        box_(c),
        rows_(b.rows_per_item),
        x_plane_is_column_(positions_one_to_one(c)),
        dy_in_place_(dy_rows_in_place(b, dy_)),
        ntp_(b.nt && b.pairs_at > 0 && !dy_in_place_ ? k.nt_bf16 : nullptr),
        nnp_(!b.nt && !b.by_tap && b.pairs_at > 0 ? k.bf16 : nullptr),
        tap_pairs_(b.by_tap && b.pairs_at > 0 ? k.ra_bf16 : nullptr),
        dy_pairs_from_bf16_(ntp_ != nullptr && dy_.bf16_exact() && c.y.contiguous_planes() && !im2col_reads_padding(c)),
        tap_slot_(c, b, b.by_tap ? k.ra->nr : 1, tap_pairs_ != nullptr),
        dy_windows_from_bf16_(tap_pairs_ != nullptr && dy_.bf16_exact() && c.y.contiguous_planes()) {}

  bool dy_in_place() const { return dy_in_place_; }

  // Accumulates the block into acc (its first row and column; row-major, leading dimension ldc); false if dy held a
  // non-finite value.
  bool run(const Block &blk, float *scratch, float *acc, int64_t ldc) const {
    if (b_.by_tap) return run_by_tap(blk, scratch);
    return b_.nt ? run_nt(blk, scratch, acc, ldc) : run_nn(blk, scratch, acc, ldc);
  }

  // By tap: the slot's tap-major sums, which the item's blocks accumulate and untap() then moves into acc.
  float *tap_sums(float *scratch) const { return scratch + tap_slot_.sums; }

  // The item's sums (rows [0, m), its columns nc = channels · taps) into acc's columns, channel-major as dW's: each
  // row a transpose of taps × channels.
  void untap(const float *sums, int64_t m, int64_t nc, float *acc, int64_t ldc) const {
    for (int64_t r = 0; r < m; ++r) untap_row(sums, r, nc, acc + r * ldc);
  }

  // The item's end when gradWeight is not written in place and there is one K part: row by row through the slot
  // into gradWeight (no round trip through the partial); returns whether the rows are finite (with `scan`).
  bool store_by_tap(float *scratch, const WeightItem &it, const View5 &grad_weight, const Rounding &rounding,
                    bool scan) const {
    float *row = scratch + tap_slot_.row;
    bool finite = true;
    for (int64_t r = 0; r < it.m; ++r) {
      untap_row(tap_sums(scratch), r, it.nc, row);
      finite &= finish_weight_columns(c_, grad_weight, false, row, 0, it.g, it.r0 + r, 1, it.j0, it.nc, rounding, scan);
    }
    return finite;
  }

 private:
  void untap_row(const float *sums, int64_t r, int64_t nc, float *to) const {
    k_.ra->transpose(sums + r * tap_slot_.sums_ld, tap_slot_.channel_cols, kk_, nc / kk_, to, kk_);
  }

  // A K line of the block: each sample's positions after the previous sample's.
  bool read_dy(const Block &blk, int64_t r, float *out) const {
    bool fin = true;
    for (int64_t i = 0; i < blk.k.samples; ++i) {
      fin &= read_plane_run(dy_, blk.k.n + i, blk.g * c_.cy_per_group + blk.r0 + r, blk.k.o0, blk.k.positions,
                            out + i * blk.k.positions);
    }
    return fin;
  }

  void read_col(const Block &blk, int64_t j, float *out) const {
    const int64_t col = blk.j0 + j;
    if (x_plane_is_column_) {
      for (int64_t i = 0; i < blk.k.samples; ++i) {
        read_plane_run(x_, blk.k.n + i, blk.g * c_.cx_per_group + col, blk.k.o0, blk.k.positions,
                       out + i * blk.k.positions);
      }
      return;
    }
    const Im2colTap tap(c_, col % kk_);
    for (int64_t i = 0; i < blk.k.samples; ++i) {
      im2col_run(c_, x_, blk.k.n + i, blk.g * c_.cx_per_group + col / kk_, tap, im2col_start(c_, blk.k.o0),
                 blk.k.positions, out + i * blk.k.positions);
    }
  }

  bool run_nt(const Block &blk, float *scratch, float *acc, int64_t ldc) const {
    const GemmNtUkernel &uk = *k_.nt;
    const int64_t kcp = round_up(blk.kc(), uk.lanes), m = blk.m, mp = round_up(m, uk.mr), np = round_up(blk.nc, uk.nr);
    float *a = scratch, *bp = scratch + rows_ * kcp;
    bool fin = true;
    // Whole MR tiles of dy rows in place when the block is whole vectors long; the rest packed. BF16 rows of one sample
    // are paired where they lie instead, and packed only for a block the pair kernel cannot take.
    const int64_t m_in_place = dy_in_place_ && kcp == blk.kc() ? m / uk.mr * uk.mr : 0;
    // (NT blocks hold one sample, only the NN form takes several; checked so that the rows are one run each.)
    const bool dy_pairs_in_place = dy_pairs_from_bf16_ && blk.k.samples == 1;
    const View5 &yv = dy_.view();
    auto pack_dy = [&] {
      for (int64_t r = m_in_place; r < mp; ++r) {
        float *row = a + r * kcp;
        if (r < m) fin &= read_dy(blk, r, row);
        std::fill(row + (r < m ? blk.kc() : 0), row + kcp, 0.0f);
      }
    };
    if (!dy_pairs_in_place) pack_dy();
    for (int64_t j = 0; j < np; ++j) {
      float *row = bp + j * kcp;
      if (j < blk.nc) read_col(blk, j, row);
      std::fill(row + (j < blk.nc ? blk.kc() : 0), row + kcp, 0.0f);
    }
    // The block on the pair kernel when the floors of its rows allow (pairs_exact): both operands as pair rows.
    const int64_t kw = nt_pair_words(kcp);
    uint32_t *a_pairs = reinterpret_cast<uint32_t *>(scratch + b_.pairs_at), *b_pairs = a_pairs + rows_ * kw;
    bool on_pairs = false;
    if (ntp_ != nullptr) {
      const int a_floor =
          dy_pairs_in_place ? dy_row_pairs(blk, mp, kcp, a_pairs) : ntp_->to_rows(a, kcp, mp, kcp, a_pairs);
      on_pairs = pairs_exact(a_floor, ntp_->to_rows(bp, kcp, np, kcp, b_pairs));
    }
    if (dy_pairs_in_place && !on_pairs) pack_dy();
    SpreadPrefetch next_dy;
    if (dy_pairs_in_place) prefetch_next_dy(blk, &next_dy);
    // Passes of kNtRowTiles MR-tiles of dy rows stay in L2 while every im2col row goes by.
    const int64_t mc = kNtRowTiles * uk.mr;
    for (int64_t i0 = 0; i0 < m; i0 += mc) {
      for (int64_t j = 0; j < blk.nc; j += uk.nr) {
        const int nn = static_cast<int>(std::min<int64_t>(uk.nr, blk.nc - j));
        const float *rows[kMaxNtNr];
        const uint32_t *pair_rows[kMaxNtNr];
        for (int r = 0; r < uk.nr; ++r) {
          rows[r] = bp + (j + r) * kcp;
          pair_rows[r] = b_pairs + (j + r) * kw;
        }
        for (int64_t i = i0; i < std::min(m, i0 + mc); i += uk.mr) {
          const int mm = static_cast<int>(std::min<int64_t>(uk.mr, m - i));
          if (on_pairs) {
            ntp_->run(kw, a_pairs + i * kw, kw, pair_rows, acc + i * ldc + j, ldc, mm, nn, !blk.first);
          } else if (i < m_in_place) {
            const float *dy_row = dy_.plain_data() + yv.index(blk.k.n, blk.g * m_ + blk.r0 + i, 0, 0, 0) + blk.k.o0;
            uk.run(kcp, dy_row, yv.strides[1], rows, acc + i * ldc + j, ldc, mm, nn, !blk.first);
          } else {
            uk.run(kcp, a + i * kcp, kcp, rows, acc + i * ldc + j, ldc, mm, nn, !blk.first);
          }
          next_dy.step();
        }
      }
    }
    return fin;
  }

  // dy_pairs_from_bf16_, a block of one sample: its dy rows as mp NT pair rows straight from BF16 (rows past m zero,
  // as packed); returns their floor.
  int dy_row_pairs(const Block &blk, int64_t mp, int64_t kcp, uint32_t *dst) const {
    const View5 &v = dy_.view();
    const uint16_t *rows = dy_.bf16_data() + v.index(blk.k.n, blk.g * m_ + blk.r0, 0, 0, 0) + blk.k.o0;
    return ntp_->padded_rows_from_bf16(rows, v.strides[1], blk.m, mp, blk.kc(), kcp, dst);
  }

  // dy_pairs_from_bf16_: the next K block's dy rows, fetched while this block's kernel calls run (rows a plane apart,
  // a few cache lines each, as in gemm_weight_shifted); nothing after the item's last block.
  void prefetch_next_dy(const Block &blk, SpreadPrefetch *next) const {
    if (blk.last) return;
    const WeightKBlock k(c_, b_, blk.kb + 1);
    const View5 &v = dy_.view();
    const int64_t calls = ceil_div(blk.m, k_.nt->mr) * ceil_div(blk.nc, k_.nt->nr);
    next->start(dy_.bf16_data() + v.index(k.n, blk.g * m_ + blk.r0, 0, 0, 0) + k.o0, v.strides[1] * 2, blk.m,
                k.len() * 2, calls);
  }

  // The x box of `channel` for sample n (XBox): x's rows where they lie inside it, zeros elsewhere, rounded as read.
  void fill_box(int64_t n, int64_t channel, float *box) const {
    const View5 &v = x_.view();
    const int64_t *ext = box_.extent;
    const int64_t w_lo = std::min(ext[2], c_.pad_begin[2]), w_hi = std::min(ext[2], c_.pad_begin[2] + c_.x_size[2]);
    for (int64_t b0 = 0; b0 < ext[0]; ++b0) {
      const int64_t xd = b0 - c_.pad_begin[0];
      for (int64_t b1 = 0; b1 < ext[1]; ++b1) {
        const int64_t xh = b1 - c_.pad_begin[1];
        float *row = box + (b0 * ext[1] + b1) * ext[2];
        const bool inside = xd >= 0 && xd < c_.x_size[0] && xh >= 0 && xh < c_.x_size[1] && w_lo < w_hi;
        if (!inside) {
          std::fill(row, row + ext[2], 0.0f);
          continue;
        }
        std::fill(row, row + w_lo, 0.0f);
        x_.read(v.index(n, channel, xd, xh, w_lo - c_.pad_begin[2]), v.strides[4], w_hi - w_lo, row + w_lo);
        std::fill(row + w_hi, row + ext[2], 0.0f);
      }
    }
  }

  // Tap `tap`'s im2col line of a whole plane from its x box: every position, or only those in `reach` (by tap).
  void line_from_box(const float *box, const Im2colTap &tap, float *out) const {
    line_from_box(box, tap, {{0, c_.y_size[0] - 1}, {0, c_.y_size[1] - 1}, {0, c_.y_size[2] - 1}}, out);
  }
  void line_from_box(const float *box, const Im2colTap &tap, const DimReach (&reach)[kSpatial], float *out) const {
    const int64_t *ext = box_.extent;
    const int64_t s2 = c_.stride[2], w0 = reach[2].lo, len = reach[2].count();
    for (int64_t od = reach[0].lo; od <= reach[0].hi; ++od) {
      for (int64_t oh = reach[1].lo; oh <= reach[1].hi; ++oh, out += len) {
        const float *src =
            box +
            ((od * c_.stride[0] + tap.kd * c_.dilation[0]) * ext[1] + oh * c_.stride[1] + tap.kh * c_.dilation[1]) *
                ext[2] +
            tap.kw * c_.dilation[2] + w0 * s2;
        for (int64_t ow = 0; ow < len; ++ow) out[ow] = src[ow * s2];
      }
    }
  }

  // Where a slot's x boxes start: after the fp32 panels' room for dy rows and im2col columns and tmp's lines.
  float *boxes_of(float *scratch) const {
    return scratch + (rows_ + b_.cols_per_item + weight_tmp_lines(b_.nt)) * kGemmKc;
  }

  // Pair panels of `count` lines of kc steps from dst (panels of `width` lines), each panel's lines fetched by
  // fetch_line(i, out) into `buf` and paired while there; returns their exponent floor.
  template <typename FetchLine>
  static int pair_lines(const GemmBf16Ukernel &pk, int width, int64_t count, int64_t kc, float *buf, uint32_t *dst,
                        FetchLine fetch_line) {
    int floor = kBf16FloorAllZero;
    for (int64_t i0 = 0; i0 < count; i0 += width) {
      const int64_t n = std::min<int64_t>(width, count - i0);
      for (int64_t i = 0; i < n; ++i) fetch_line(i0 + i, buf + i * kc);
      floor = std::min(floor, pk.lines_to_pairs(buf, kc, n, kc, width, dst + i0 * pair_steps(kc)));
    }
    return floor;
  }

  // Column j's im2col line of the block: from its channel's x boxes when the blocking has them (`boxed`: the channel
  // whose boxes `boxes` holds, -1 for none yet), else im2col runs.
  void read_b_line(const Block &blk, int64_t j, float *boxes, int64_t *boxed, float *out) const {
    if (b_.box_floats == 0) return read_col(blk, j, out);
    const int64_t col = blk.j0 + j, channel = blk.g * c_.cx_per_group + col / kk_;
    if (channel != *boxed) {
      for (int64_t i = 0; i < blk.k.samples; ++i) fill_box(blk.k.n + i, channel, boxes + i * b_.box_floats);
      *boxed = channel;
    }
    const Im2colTap tap(c_, col % kk_);
    for (int64_t i = 0; i < blk.k.samples; ++i) {
      line_from_box(boxes + i * b_.box_floats, tap, out + i * blk.k.positions);
    }
  }

  bool run_nn(const Block &blk, float *scratch, float *acc, int64_t ldc) const {
    bool fin = true;
    if (nnp_ != nullptr && run_nn_pairs(blk, scratch, acc, ldc, &fin)) return fin;
    const GemmUkernel &uk = *k_.nn;
    float *a = scratch, *bp = a + rows_ * kGemmKc, *tmp = bp + b_.cols_per_item * kGemmKc, *boxes = boxes_of(scratch);
    const GemmRaTransposeFn transpose = k_.ra != nullptr ? k_.ra->transpose : nullptr;
    pack_panels_by_lines(uk.mr, blk.m, blk.kc(), tmp, a, transpose,
                         [&](int64_t r, float *out) { fin &= read_dy(blk, r, out); });
    int64_t boxed = -1;
    pack_panels_by_lines(uk.nr, blk.nc, blk.kc(), tmp, bp, transpose,
                         [&](int64_t j, float *out) { read_b_line(blk, j, boxes, &boxed, out); });
    run_tiles(uk, blk.m, blk.nc, blk.kc(), a, bp, acc, ldc, !blk.first);
    return fin;
  }

  // By tap (WeightBlocking::by_tap; blocks of whole planes): dy's rows as lines; per panel of x channels their boxes,
  // then each tap's panel of lines over only the positions it reads inside x; per tap the RA kernel with those
  // positions as its K steps, or its pair kernel where the floors allow. The sums are the NN kernel's minus products
  // of padding zeros, which change no sum of finite values (dy is scanned whole; a non-finite one sends the call to
  // the reference).
  bool run_by_tap(const Block &blk, float *scratch) const {
    const GemmRaUkernel &ra = *k_.ra;
    const WeightTapSlot &slot = tap_slot_;
    const int64_t kc = blk.kc(), channels = blk.nc / kk_, ld = slot.sums_ld;
    float *lines = scratch + slot.lines, *panels = scratch + slot.panels, *tmp = scratch + slot.tmp;
    float *boxes = scratch + slot.boxes, *sums = scratch + slot.sums;
    // dy's fp32 lines, which also scan it: read up front unless its BF16 windows come straight from BF16 dy (whose
    // floor then says all is finite), and then only for a tap left to the fp32 kernel.
    bool fin = true, have_lines = false;
    auto need_lines = [&] {
      for (int64_t r = 0; !have_lines && r < blk.m; ++r) fin &= read_dy(blk, r, lines + r * kc);
      have_lines = true;
    };
    if (!dy_windows_from_bf16_) need_lines();
    pack_tap_panels(blk, panels, tmp, boxes);
    const int a_floor = tap_pairs_ != nullptr ? dy_windows(blk, lines, scratch) : 0;
    if (a_floor == 0) need_lines();
    int32_t *steps = reinterpret_cast<int32_t *>(scratch + slot.steps);
    const float *rows[kMaxRaMr];
    Im2colTap tap(c_, 0);
    for (int64_t t = 0; t < kk_; ++t, tap.next(c_)) {
      const TapReach reach(c_, tap);
      const int64_t kt = blk.k.samples * reach.count();
      float *sums_t = sums + t * slot.channel_cols;
      if (kt == 0) {  // no term: the sums stay zero
        for (int64_t r = 0; blk.first && r < blk.m; ++r) std::fill(sums_t + r * ld, sums_t + r * ld + channels, 0.0f);
        continue;
      }
      tap_steps(blk, reach, steps);
      const float *panel = panels + t * slot.channel_cols * kc;
      if (tap_pairs_ != nullptr && run_tap_pairs(blk, a_floor, steps, kt, panel, scratch, sums_t)) continue;
      need_lines();
      for (int64_t q = 0; q < channels; q += ra.nr) {
        const int nn = static_cast<int>(std::min<int64_t>(ra.nr, channels - q));
        for (int64_t i = 0; i < blk.m; i += ra.mr) {
          const int mm = static_cast<int>(std::min<int64_t>(ra.mr, blk.m - i));
          for (int r = 0; r < ra.mr; ++r) rows[r] = lines + (i + std::min(r, mm - 1)) * kc;
          ra.run(kt, steps, rows, panel + q * kt, ra.nr, sums_t + i * ld + q, ld, mm, nn, !blk.first);
        }
      }
    }
    return fin;
  }

  // By tap on BF16 pairs: dy's lines of the block as reversed BF16 windows (window r's value f at end_r[−f], a zero
  // after the last: the column a pair step reads after a run's end), from the fp32 lines or straight from BF16 dy;
  // returns their exponent floor (0 when any is subnormal or not finite).
  int dy_windows(const Block &blk, const float *lines, float *scratch) const {
    const int64_t kc = blk.kc(), words = WeightTapSlot::window_words(b_), plane = c_.y_plane();
    uint16_t *windows = reinterpret_cast<uint16_t *>(scratch + tap_slot_.windows);
    const View5 &v = dy_.view();
    int floor = kBf16FloorAllZero;
    for (int64_t r = 0; r < blk.m; ++r) {
      uint16_t *end = windows + r * words + kc;
      end[-kc] = 0;
      if (!dy_windows_from_bf16_) {
        floor = std::min(floor, tap_pairs_->to_window(lines + r * kc, kc, end));
        continue;
      }
      for (int64_t i = 0; i < blk.k.samples; ++i) {  // blocks of whole planes: a sample's values are its plane
        const uint16_t *src = dy_.bf16_data() + v.index(blk.k.n + i, blk.g * m_ + blk.r0 + r, 0, 0, 0);
        tap_pairs_->window_from_bf16(src, 1, plane, end - i * plane);
      }
      floor = std::min(floor, tap_pairs_->words_floor(end - kc + 1, kc));
    }
    return floor;
  }

  // One tap's tiles on the pair kernel (gemm_ra_bf16_ukernel.hpp): its kt steps as pair steps, its fp32 panels as pair
  // panels; false (nothing written but the pair areas) when the floors do not let it give the fp32 kernel's bits.
  bool run_tap_pairs(const Block &blk, int a_floor, const int32_t *steps, int64_t kt, const float *panel,
                     float *scratch, float *sums_t) const {
    const GemmRaBf16Ukernel &pk = *tap_pairs_;
    const WeightTapSlot &slot = tap_slot_;
    const int64_t kc = blk.kc(), channels = blk.nc / kk_, ld = slot.sums_ld, words = WeightTapSlot::window_words(b_);
    int32_t *pair_at = reinterpret_cast<int32_t *>(scratch + slot.pair_at);
    int32_t *run_steps = reinterpret_cast<int32_t *>(scratch + slot.run_steps);
    uint32_t *b_pairs = reinterpret_cast<uint32_t *>(scratch + slot.pair_panels);
    int64_t runs = 0;
    const int64_t kp = ra_pair_steps(steps, kt, pair_at, run_steps, &runs);
    const int b_floor = ra_b_pairs(pk, panel, kt, ceil_div(channels, pk.nr), run_steps, runs, b_pairs);
    if (!pairs_exact(a_floor, b_floor)) return false;
    const uint16_t *windows = reinterpret_cast<const uint16_t *>(scratch + slot.windows);
    const uint16_t *pair_rows[kMaxRaMr];
    for (int64_t q = 0; q < channels; q += pk.nr) {
      const int nn = static_cast<int>(std::min<int64_t>(pk.nr, channels - q));
      for (int64_t i = 0; i < blk.m; i += pk.mr) {
        const int mm = static_cast<int>(std::min<int64_t>(pk.mr, blk.m - i));
        for (int r = 0; r < pk.mr; ++r) pair_rows[r] = windows + (i + std::min(r, mm - 1)) * words + kc - 1;
        pk.run(kp, pair_at, pair_rows, b_pairs + q * kp, pk.nr, sums_t + i * ld + q, ld, mm, nn, !blk.first);
      }
    }
    return true;
  }

  // By tap: tap t's panels of the block's x channels at panels + t · channel_cols · kc, each panel nr lines of the
  // tap's positions inside x; the boxes of a panel's channels filled once for all taps.
  void pack_tap_panels(const Block &blk, float *panels, float *tmp, float *boxes) const {
    const GemmRaUkernel &ra = *k_.ra;
    const int64_t kc = blk.kc(), channels = blk.nc / kk_, samples = blk.k.samples, box = b_.box_floats;
    const int64_t c0 = blk.g * c_.cx_per_group + blk.j0 / kk_;
    for (int64_t q = 0; q < channels; q += ra.nr) {
      const int64_t nq = std::min<int64_t>(ra.nr, channels - q);
      for (int64_t ch = 0; ch < nq; ++ch) {
        for (int64_t i = 0; i < samples; ++i) fill_box(blk.k.n + i, c0 + q + ch, boxes + (ch * samples + i) * box);
      }
      Im2colTap tap(c_, 0);
      for (int64_t t = 0; t < kk_; ++t, tap.next(c_)) {
        const TapReach reach(c_, tap);
        const int64_t per_sample = reach.count(), kt = samples * per_sample;
        if (kt == 0) continue;
        pack_panels_by_lines(ra.nr, nq, kt, tmp, panels + t * tap_slot_.channel_cols * kc + q * kt, ra.transpose,
                             [&](int64_t ch, float *out) {
                               for (int64_t i = 0; i < samples; ++i) {
                                 line_from_box(boxes + (ch * samples + i) * box, tap, reach.dim, out + i * per_sample);
                               }
                             });
      }
    }
  }

  // By tap: the K steps of the block's positions that `reach` holds, ascending (sample, then D, H, W).
  void tap_steps(const Block &blk, const TapReach &reach, int32_t *steps) const {
    const DimReach *r = reach.dim;
    const int64_t plane = c_.y_plane();
    for (int64_t i = 0; i < blk.k.samples; ++i) {
      for (int64_t od = r[0].lo; od <= r[0].hi; ++od) {
        for (int64_t oh = r[1].lo; oh <= r[1].hi; ++oh) {
          const int64_t row = i * plane + (od * c_.y_size[1] + oh) * c_.y_size[2];
          for (int64_t ow = r[2].lo; ow <= r[2].hi; ++ow) *steps++ = static_cast<int32_t>(row + ow);
        }
      }
    }
  }

  // The block on the pair kernel: both operands read as lines (dy rows and im2col columns), a panel's lines at a time
  // into the fp32 panels' room and paired from there while in L1 (lines_to_pairs), when their floors allow
  // (pairs_exact); false: left to the fp32 kernel, which packs them again.
  bool run_nn_pairs(const Block &blk, float *scratch, float *acc, int64_t ldc, bool *fin) const {
    const GemmBf16Ukernel &pk = *nnp_;
    const int64_t kc = blk.kc(), kp = pair_steps(kc);
    float *boxes = boxes_of(scratch);
    uint32_t *a_pairs = reinterpret_cast<uint32_t *>(scratch + b_.pairs_at);
    uint32_t *b_pairs = a_pairs + rows_ * pair_steps(b_.kc);
    const int floor_a = pair_lines(pk, pk.mr, blk.m, kc, scratch, a_pairs,
                                   [&](int64_t r, float *out) { *fin &= read_dy(blk, r, out); });
    int64_t boxed = -1;
    const int floor_b = pair_lines(pk, pk.nr, blk.nc, kc, scratch, b_pairs,
                                   [&](int64_t j, float *out) { read_b_line(blk, j, boxes, &boxed, out); });
    if (!pairs_exact(floor_a, floor_b)) return false;
    for (int64_t j = 0; j < blk.nc; j += pk.nr) {
      const int nn = static_cast<int>(std::min<int64_t>(pk.nr, blk.nc - j));
      for (int64_t i = 0; i < blk.m; i += pk.mr) {
        const int mm = static_cast<int>(std::min<int64_t>(pk.mr, blk.m - i));
        pk.run(kp, a_pairs + i * kp, b_pairs + j * kp, acc + i * ldc + j, ldc, mm, nn, !blk.first);
      }
    }
    return true;
  }

  const Canonical &c_;
  const GemmKernels &k_;
  const WeightBlocking &b_;
  const OperandReader x_, dy_;
  const int64_t kk_, m_;
  const XBox box_;
  const int64_t rows_;            // the slot's room for dy rows (b.rows_per_item, a multiple of MR)
  const bool x_plane_is_column_;  // im2col's column of x channel ch is its plane (positions_one_to_one)
  const bool dy_in_place_;
  const GemmNtBf16Ukernel *const ntp_;  // NT on BF16 pairs where a block allows (dy not read in place), or nullptr
  const GemmBf16Ukernel *const nnp_;    // NN on BF16 pairs where a block allows, or nullptr
  const GemmRaBf16Ukernel *const tap_pairs_;  // by tap on BF16 pairs where a tap's floors allow, or nullptr
  const bool dy_pairs_from_bf16_;             // ntp_ on BF16 dy that needs no rounding or scan, dense planes
  const WeightTapSlot tap_slot_;              // by tap: the slot's areas
  const bool dy_windows_from_bf16_;           // tap_pairs_ on BF16 dy that needs no rounding, dense planes
};

}  // namespace

bool gemm_weight(const Canonical &c, const GemmKernels &k, const WeightBlocking &b, const GemmScratch &s,
                 const Rounding &rounding, const View5 &grad_weight) {
  const WeightGemm gemm(c, k, b, rounding);
  const int64_t blocks = WeightKBlock::count(c, b);
  const bool in_place = weight_written_in_place(b.k_parts, c, grad_weight);
  // Only dy read in place goes unscanned, and only padding can make its Inf a NaN the sums do not have: then the
  // results are scanned (ViT's patchify, which pads nothing, scanned 590K of them for nothing).
  const bool scan_results = gemm.dy_in_place() && im2col_reads_padding(c);
  std::atomic<bool> finite{true}, result_finite{true};
  parallel_for_slots(b.items, s.slots, b.flops / 2, [&](int slot, int64_t begin, int64_t end) {
    float *scratch = s.base + slot * s.slot_stride;
    bool fin = true, result_fin = true;
    for (int64_t item = begin; item < end; ++item) {
      const WeightItem it(c, b, item);
      Block blk{};
      blk.g = it.g;
      blk.r0 = it.r0;
      blk.m = it.m;
      blk.j0 = it.j0;
      blk.nc = it.nc;
      int64_t ldc = 0;
      float *acc = weight_accumulator(c, s, grad_weight, in_place, it.part, it.g, it.r0, it.j0, &ldc);
      const int64_t first = part_begin(blocks, b.k_parts, it.part), last = part_begin(blocks, b.k_parts, it.part + 1);
      for (int64_t kb = first; kb < last; ++kb) {
        blk.kb = kb;
        blk.k = WeightKBlock(c, b, kb);
        blk.first = kb == first;
        blk.last = kb + 1 == last;
        fin &= gemm.run(blk, scratch, acc, ldc);
      }
      if (b.by_tap && b.k_parts == 1 && !in_place) {
        result_fin &= gemm.store_by_tap(scratch, it, grad_weight, rounding, scan_results);
        continue;
      }
      if (b.by_tap) gemm.untap(gemm.tap_sums(scratch), it.m, it.nc, acc, ldc);
      if (b.k_parts == 1) {
        result_fin &= finish_weight_columns(c, grad_weight, in_place, acc, ldc, it.g, it.r0, it.m, it.j0, it.nc,
                                            rounding, scan_results);
      }
    }
    if (!fin) finite.store(false, std::memory_order_relaxed);
    if (!result_fin) result_finite.store(false, std::memory_order_relaxed);
  });
  if (b.k_parts > 1 && !store_weight_partials(c, b.k_parts, s, rounding, grad_weight)) result_finite.store(false);
  return finite.load() && (result_finite.load() || !gemm.dy_in_place());
}

std::string gemm_weight_refusal(const Canonical &) { return ""; }

bool gemm_weight_run(const Canonical &c, const GemmKernels &k, const WeightBlocking &b, const GemmScratch &s,
                     const Rounding &rounding) {
  return gemm_weight(c, k, b, s, rounding, c.grad_weight);
}

Work gemm_weight_work(const Canonical &c, const GemmKernels &k, const WeightBlocking &b, const Rounding &rounding,
                      int slots) {
  const WeightGemm gemm(c, k, b, rounding);
  const double move = move_cost(k.nn->isa);
  const int64_t mr = b.by_tap ? k.ra->mr : b.nt ? k.nt->mr : k.nn->mr;
  const int64_t nr = b.by_tap ? k.ra->nr : b.nt ? k.nt->nr : k.nn->nr;
  const int64_t blocks = WeightKBlock::count(c, b);
  // By tap, each tap multiplies only its positions inside x, in panels of one tap.
  const double inside = b.by_tap ? static_cast<double>(im2col_entries_inside(c)) / static_cast<double>(c.y_plane()) : 0;
  WorkPhase items = uniform_phase("items", LoopKind::kSlots, b.items, slots, b.flops / 2, 0);
  for (int64_t item = 0; item < b.items; ++item) {
    const WeightItem it(c, b, item);
    int64_t k_len = 0;  // the positions of the part's K blocks
    for (int64_t kb = part_begin(blocks, b.k_parts, it.part); kb < part_begin(blocks, b.k_parts, it.part + 1); ++kb) {
      k_len += WeightKBlock(c, b, kb).len();
    }
    const double macs = static_cast<double>(round_up(it.m, mr)) * k_len *
                        (b.by_tap ? round_up(it.nc / c.kernel_numel(), nr) * inside : round_up(it.nc, nr));
    const int64_t moved = (gemm.dy_in_place() ? 0 : it.m * k_len) + it.nc * k_len + it.m * it.nc;  // dy, im2col, dW
    items.cost.push_back(macs + move * static_cast<double>(moved));
  }
  Work work{std::move(items)};
  if (b.k_parts > 1) work.push_back(weight_partials_phase(c, b.k_parts, slots, k.nn->isa));
  return work;
}

std::string gemm_weight_kernel(const GemmKernels &k, const WeightBlocking &b) {
  if (b.by_tap) return std::string(b.pairs_at > 0 ? k.ra_bf16->name : k.ra->name) + "+by_tap";
  if (b.pairs_at > 0) return b.nt ? k.nt_bf16->name : k.bf16->name;
  return b.nt ? k.nt->name : k.nn->name;
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu

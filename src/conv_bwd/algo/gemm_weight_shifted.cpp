// gradWeight with no im2col (shifted_geometry.hpp; a stride splits x into phase boxes). A work item is (group, K part,
// chunk of x channels); per K block it packs the chunk's x channels as windows of their padded boxes, rounded on the
// way, each value once, and reads the group's dy rows in q-space (zeros at the junk positions): packed once for all
// items before they run (ShiftedWeightBlocking::shared_dy), read where they lie, or packed by the item; BF16 1×1 layers
// pair both operands' rows straight from BF16 instead (pairs_from_bf16_rows), and the BF16 RA product makes its x
// windows and dy panels straight from BF16 (windows_from_bf16_, dy_pairs_from_bf16_). Every
// (channel, tap) column of dW is then a row pointer into a window, read by the NT kernel where it lies. With an RA
// kernel (ShiftedWeightBlocking::ra) those rows are instead the A rows of the transposed product Ct = im2col(x) · dyᵀ,
// the dy block's real positions only (the kernel's K steps: a table of their q offsets) transposed into panels of NR
// output channels, and an item's Ct is transposed into dW once, at its end. Sums: fixed K blocks and parts
// (weight_partials.hpp), so the bits do not depend on the thread count. Inf/NaN: the extra products (junk positions,
// padding) are 0 × an operand value; they change a sum only when that value is not finite, and then the sum is not
// finite either. So a finite dW is exact, and a non-finite one is handed back to the reference (no operand scan).
#include <algorithm>
#include <atomic>

#include "conv_bwd/algo/gemm_algorithms.hpp"
#include "conv_bwd/algo/packing.hpp"
#include "conv_bwd/algo/prefetch.hpp"
#include "conv_bwd/algo/shifted_windows.hpp"
#include "conv_bwd/algo/weight_partials.hpp"
#include "conv_bwd/algorithms.hpp"
#include "conv_bwd/parallel.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

// A 1×1 kernel at stride 1 without padding on FP32 planes that need no rounding: q-space is the plane itself and
// every tap row is an x row, so both operands can be read where they lie (in K blocks of whole vectors).
bool rows_in_place(const Canonical &c, const OperandReader &x, const OperandReader &dy) {
  return positions_one_to_one(c) && x.plain() && dy.plain() && c.x.contiguous_planes() && c.y.contiguous_planes();
}

// The same layout on BF16 operands that need no rounding: the NT pair rows of both are made straight from their
// rows (GemmNtBf16Ukernel::rows_from_bf16), with no fp32 copy of either unless a pass's floors send it to the fp32
// kernel (ResNet's 1×1 56² gradWeight had spent nearly as long widening BF16 into fp32 rows and pairing those as in
// the pair kernel).
bool pairs_from_bf16_rows(const Canonical &c, const OperandReader &x, const OperandReader &dy) {
  return positions_one_to_one(c) && x.bf16_exact() && dy.bf16_exact() && c.x.contiguous_planes() &&
         c.y.contiguous_planes();
}

// FP32 dy planes that need no rounding whose q-space has no junk (ShiftedGeometry::q_space_dense): whole K blocks of
// dy rows are read where they lie (the x windows are still packed). wav2vec's and the 1-D audio layers' dy (a third
// of their gradWeight was this copy).
bool dy_rows_in_place(const Canonical &c, const ShiftedGeometry &geo, const OperandReader &dy) {
  return dy.plain() && c.y.contiguous_planes() && geo.q_space_dense(c);
}

struct Block {
  int64_t g, n, c0, channels, q0, kc;
  int64_t r0, rows;  // the item's output channels (dW rows) of the group: [r0, r0 + rows)
  int64_t kb;        // the K block over all samples: n·(blocks per sample) + q0 / K block
  bool first = false, only = false, last = false;  // the item's first K block; its only one; its last
};

// An item's place: group, K part, output channels (dW rows) and x channels. Chunks of x channels run fastest, then
// of rows, so that the items one thread runs in a row share their dy block.
struct ShiftedItem {
  int64_t g, part, r0, rows, c0, channels;

  ShiftedItem(const Canonical &c, const ShiftedWeightBlocking &b, int64_t item) {
    const int64_t chunks = ceil_div(c.cx_per_group, b.channels_per_item);
    const int64_t row_chunks = ceil_div(c.cy_per_group, b.rows_per_item);
    c0 = item % chunks * b.channels_per_item;
    channels = std::min(b.channels_per_item, c.cx_per_group - c0);
    r0 = item / chunks % row_chunks * b.rows_per_item;
    rows = std::min(b.rows_per_item, c.cy_per_group - r0);
    part = item / (chunks * row_chunks) % b.k_parts;
    g = item / (chunks * row_chunks * b.k_parts);
  }
};

class ShiftedWeightGemm {
 public:
  ShiftedWeightGemm(const Canonical &c, const GemmKernels &k, const ShiftedWeightBlocking &b, const Rounding &rounding,
                    float *shared_dy)
      : c_(c),
        uk_(*k.nt),
        ra_(b.ra ? k.ra : nullptr),
        pk_(b.ra ? k.ra_bf16 : nullptr),
        ntp_(!b.ra && b.pairs_at > 0 ? k.nt_bf16 : nullptr),
        rk_(*k.rows),
        geo_(c),
        x_(c.x, rounding),
        dy_(c.y, rounding),
        kk_(c.kernel_numel()),
        m_(c.cy_per_group),
        lda_(b.kc),
        phase_len_(b.kc + geo_.max_shift),
        window_(geo_.phases * phase_len_),
        cpi_(b.channels_per_item),
        in_place_(rows_in_place(c, x_, dy_)),
        dy_in_place_(in_place_ || dy_rows_in_place(c, geo_, dy_)),
        dy_rows_in_place_(ra_ != nullptr && c.y.dtype == ACL_FLOAT && c.y.contiguous_planes()),
        q_is_flat_(geo_.q_space_dense(c) && c.y.contiguous_planes()),
        blocks_per_sample_((geo_.q_len + lda_ - 1) / lda_),
        k_parts_(b.k_parts),
        row_floats_(geo_.pair_row_floats(c)),
        shared_dy_(shared_dy),
        pairs_at_(b.pairs_at),
        nt_on_pairs_(ntp_ != nullptr && !dy_in_place_),
        pairs_from_bf16_(nt_on_pairs_ && shared_dy == nullptr && pairs_from_bf16_rows(c, x_, dy_)),
        windows_from_bf16_(pk_ != nullptr && x_.bf16_exact()),
        dy_pairs_from_bf16_(pk_ != nullptr && dy_.bf16_exact() && c.y.contiguous_planes()) {}

  // Whether the items pack no dy rows of their own (read where they lie).
  bool dy_in_place() const { return dy_in_place_; }
  // Whether RA dy blocks are made into pair panels in one pass (no fp32 rows packed and transposed first).
  bool dy_pairs_from_bf16() const { return dy_pairs_from_bf16_; }

  // The K blocks of all samples, sample by sample.
  int64_t k_blocks() const { return c_.batch * blocks_per_sample_; }

  // Sets blk's sample, q-space range and index for K block kb.
  void set_k_block(int64_t kb, Block *blk) const {
    blk->n = kb / blocks_per_sample_;
    blk->q0 = (kb % blocks_per_sample_) * lda_;
    blk->kc = std::min(lda_, geo_.q_len - blk->q0);
    blk->kb = kb;
  }

  // The packed dy rows of K block kb of group g: in the shared area when packed once for all items.
  float *shared_dy_block(int64_t g, int64_t kb) const {
    const int64_t step = ra_ != nullptr ? RaLayout::block_floats(*ra_, m_, lda_) : round_up(m_, uk_.mr) * lda_;
    return shared_dy_ + (g * k_blocks() + kb) * step;
  }

  // Packs row r of K block kb of group g into the shared area (every row of every block, before any item runs).
  void pack_shared_dy_row(int64_t g, int64_t kb, int64_t r) const {
    Block blk;
    blk.g = g;
    set_k_block(kb, &blk);
    pack_dy_row(blk, round_up(blk.kc, uk_.lanes), r, shared_dy_block(g, kb) + r * lda_);
  }

  // RA: transposes the dy rows of K block kb of group g into the shared area, through the rows area of a slot; with
  // dy_pairs_from_bf16_ makes them the pair kernel's panels instead (which fit: a block has at most as many pair
  // steps as K steps), each item packing the fp32 panels itself should its floors fail (run_ra).
  void pack_shared_dy_block(int64_t g, int64_t kb, float *scratch) const {
    Block blk;
    blk.g = g;
    blk.r0 = 0;
    blk.rows = m_;
    set_k_block(kb, &blk);
    if (dy_pairs_from_bf16_) {
      int32_t steps[kMaxRaSteps], pair_at[kMaxRaSteps], run_steps[kMaxRaSteps];
      int64_t runs = 0;
      const int64_t kp = ra_pair_steps(steps, real_steps(blk, steps), pair_at, run_steps, &runs);
      dy_pairs(blk, steps, run_steps, runs, kp, reinterpret_cast<uint32_t *>(shared_dy_block(g, kb)));
      return;
    }
    pack_dy_transposed(blk, round_up(blk.kc, uk_.lanes), scratch + ra_at(), shared_dy_block(g, kb));
  }

  // Accumulates one block into acc (dW columns of the chunk, leading dimension ldc); with the RA kernel and several
  // blocks in the item into its transposed columns, which finish_item stores in acc. False when the RA kernel stored
  // a value that is not finite into acc (stores_checked).
  bool run(const Block &blk, float *scratch, float *acc, int64_t ldc) const {
    if (ra_ != nullptr) return run_ra(blk, scratch, acc, ldc);
    const int64_t kcp = round_up(blk.kc, uk_.lanes);
    // dy rows not shared are packed one pass of rows at a time, just before the kernel reads them (from L2).
    const bool per_pass = shared_dy_ == nullptr;
    float *a = per_pass ? scratch : shared_dy_block(blk.g, blk.kb);
    float *windows = per_pass ? scratch + nt_pass_rows(m_, uk_.mr) * lda_ : scratch;
    // In place: whole MR tiles of dy rows (and with in_place every x row) are read where they lie; only a last partial
    // tile is packed.
    const bool in_place = in_place_ && kcp == blk.kc;
    const int64_t m_in_place = dy_in_place_ && kcp == blk.kc ? m_ / uk_.mr * uk_.mr : 0;
    // Pairs made from BF16 rows need the windows only for a pass that the fp32 kernel takes.
    bool windows_packed = in_place;
    auto pack_windows_once = [&] {
      if (!windows_packed) pack_windows(blk, kcp, windows);
      windows_packed = true;
    };
    if (!pairs_from_bf16_) pack_windows_once();
    const float *dy_data = dy_.plain_data();
    const View5 &yv = dy_.view();
    const int64_t *tap_at = tap_table(blk, scratch, windows);
    // Blocks of 8·MR dy rows stay in L2 while the columns pass.
    const int64_t mc = kNtRowTiles * uk_.mr, cols = blk.channels * kk_;
    const NtPairLayout lay(uk_, m_, lda_, cpi_ * kk_);
    uint32_t *a_pairs = reinterpret_cast<uint32_t *>(scratch + pairs_at_), *b_pairs = a_pairs + lay.columns_at;
    const int64_t kw = nt_pair_words(kcp);  // the block's pair rows (the layout's are of a whole K block)
    const int b_floor = pairs_from_bf16_ ? x_row_pairs(blk, kcp, b_pairs)
                        : nt_on_pairs_   ? column_pairs(blk, windows, tap_at, kcp, b_pairs)
                                         : 0;
    const int64_t r_end = blk.r0 + blk.rows;
    SpreadPrefetch next_dy, next_x;  // pairs_from_bf16_: the rows the next pass pairs
    for (int64_t i0 = blk.r0; i0 < r_end; i0 += mc) {
      const float *pass = per_pass ? a : a + i0 * lda_;  // row i of the pass at pass + (i - i0)·lda
      const int64_t end = std::min(round_up(r_end, uk_.mr), i0 + mc);
      auto pack_pass = [&] {
        for (int64_t r = std::max(i0, m_in_place); r < end; ++r) pack_dy_row(blk, kcp, r, a + (r - i0) * lda_);
      };
      // The pass on the pair kernel when the floors of its rows and the block's columns allow (pairs_exact).
      bool on_pairs = false;
      if (pairs_from_bf16_) {
        on_pairs = b_floor > 0 && pairs_exact(dy_row_pairs(blk, i0, end, kcp, a_pairs), b_floor);
        if (!on_pairs) {
          pack_windows_once();
          pack_pass();
        }
        prefetch_next_rows(blk, i0, r_end, cols, &next_dy, &next_x);
      } else {
        if (per_pass) pack_pass();
        on_pairs = b_floor > 0 && pairs_exact(ntp_->to_rows(pass, lda_, end - i0, kcp, a_pairs), b_floor);
      }
      int64_t ch_j = 0, tap_j = 0;  // column j = ch_j·K + tap_j, advanced without dividing
      for (int64_t j = 0; j < cols; j += uk_.nr) {
        const int nn = static_cast<int>(std::min<int64_t>(uk_.nr, cols - j));
        const float *rows[kMaxNtNr];
        column_rows(blk, in_place, windows, tap_at, ch_j, tap_j, uk_.nr, nn, rows);
        for (tap_j += uk_.nr; tap_j >= kk_; tap_j -= kk_) ++ch_j;
        const uint32_t *pair_rows[kMaxNtNr];
        for (int r = 0; r < uk_.nr && on_pairs; ++r) pair_rows[r] = b_pairs + (j + std::min(r, nn - 1)) * kw;
        for (int64_t i = i0; i < std::min(r_end, i0 + mc); i += uk_.mr) {
          const int mm = static_cast<int>(std::min<int64_t>(uk_.mr, r_end - i));
          if (on_pairs) {
            ntp_->run(kw, a_pairs + (i - i0) * kw, kw, pair_rows, acc + i * ldc + j, ldc, mm, nn, !blk.first);
          } else if (i < m_in_place) {
            uk_.run(kcp, dy_data + yv.index(blk.n, blk.g * m_ + i, 0, 0, 0) + blk.q0, yv.strides[1], rows,
                    acc + i * ldc + j, ldc, mm, nn, !blk.first);
          } else {
            uk_.run(kcp, pass + (i - i0) * lda_, lda_, rows, acc + i * ldc + j, ldc, mm, nn, !blk.first);
          }
          next_dy.step();
          next_x.step();
        }
      }
    }
    return true;
  }

  // The block's columns (x channels × taps: rows of the windows) as NT pair rows of the pair kernel
  // (gemm_nt_bf16_ukernel.hpp), column j at dst + j·words; returns their exponent floor.
  int column_pairs(const Block &blk, const float *windows, const int64_t *tap_at, int64_t kcp, uint32_t *dst) const {
    const int64_t words = nt_pair_words(kcp);
    int floor = kBf16FloorAllZero;
    for (int64_t ch = 0, j = 0; ch < blk.channels; ++ch) {
      for (int64_t tap = 0; tap < kk_; ++tap, ++j) {
        floor = std::min(floor, ntp_->to_rows(windows + ch * window_ + tap_at[tap], 0, 1, kcp, dst + j * words));
      }
    }
    return floor;
  }

  // pairs_from_bf16_: the BF16 rows the pass after the one at i0 pairs, fetched while this pass's kernel calls run
  // (dy rows are a plane apart, a few cache lines each: too short a run for the hardware prefetchers). After the
  // last pass, the next K block's x rows and first pass of dy rows, unless this is the item's last block.
  void prefetch_next_rows(const Block &blk, int64_t i0, int64_t r_end, int64_t cols, SpreadPrefetch *next_dy,
                          SpreadPrefetch *next_x) const {
    const int64_t mc = kNtRowTiles * uk_.mr;
    const int64_t calls = ceil_div(cols, uk_.nr) * ceil_div(std::min(mc, r_end - i0), uk_.mr);
    const View5 &yv = dy_.view(), &xv = x_.view();
    Block next = blk;
    int64_t i1 = i0 + mc;
    if (i1 >= r_end) {
      if (blk.last) return;
      set_k_block(blk.kb + 1, &next);
      i1 = blk.r0;
      const uint16_t *x_rows = x_.bf16_data() + xv.index(next.n, blk.g * c_.cx_per_group + blk.c0, 0, 0, 0) + next.q0;
      next_x->start(x_rows, xv.strides[1] * 2, blk.channels, next.kc * 2, calls);
    }
    next_dy->start(dy_.bf16_data() + yv.index(next.n, blk.g * m_ + i1, 0, 0, 0) + next.q0, yv.strides[1] * 2,
                   std::min(mc, r_end - i1), next.kc * 2, calls);
  }

  // pairs_from_bf16_: the block's x rows (its columns: one tap) as NT pair rows, straight from BF16, zeros past kc as
  // in pack_window's windows (only a sample's last block is shorter than lda_, so only it has positions between kc
  // and kcp, and they lie past the plane: zeros in its window too).
  int x_row_pairs(const Block &blk, int64_t kcp, uint32_t *dst) const {
    const View5 &v = x_.view();
    return ntp_->rows_from_bf16(x_.bf16_data() + v.index(blk.n, blk.g * c_.cx_per_group + blk.c0, 0, 0, 0) + blk.q0,
                                v.strides[1], blk.channels, blk.kc, kcp, dst);
  }

  // pairs_from_bf16_: dy rows [i0, end) of the group over the block as NT pair rows, straight from BF16 (rows past m
  // zero, as pack_dy_row packs them).
  int dy_row_pairs(const Block &blk, int64_t i0, int64_t end, int64_t kcp, uint32_t *dst) const {
    const View5 &v = dy_.view();
    const int64_t real = std::min(end, m_) - i0;  // i0 < r_end ≤ m_: at least one
    const uint16_t *rows = dy_.bf16_data() + v.index(blk.n, blk.g * m_ + i0, 0, 0, 0) + blk.q0;
    return ntp_->padded_rows_from_bf16(rows, v.strides[1], real, end - i0, blk.kc, kcp, dst);
  }

  // Whether the kernel checked every value of the item's columns as it stored them (the RA kernel's transposed
  // stores: an item of one K block), so they need no scan.
  bool stores_checked(const Block &blk) const { return ra_ != nullptr && blk.only; }

  // RA: stores the item's transposed columns (summed over its K blocks) in acc; an item of one block has had the
  // kernel store them there already.
  void finish_item(const Block &blk, const float *scratch, float *acc, int64_t ldc) const {
    if (ra_ == nullptr || blk.only) return;
    const RaLayout lay = ra_layout();
    const float *ct = scratch + ra_at() + lay.row + lay.panels;
    ra_->transpose(ct + blk.r0, round_up(m_, ra_->nr), blk.channels * kk_, blk.rows, acc + blk.r0 * ldc, ldc);
  }

 private:
  RaLayout ra_layout() const {
    return RaLayout(*ra_, m_, lda_, cpi_ * kk_, shared_dy_ != nullptr, k_blocks() > k_parts_);
  }
  // Where the RA areas start: after the windows, the tap table and the x row (gemm_blocking.cpp).
  int64_t ra_at() const { return cpi_ * window_ + int64_table_floats(kk_) + row_floats_; }

  // The transposed product of one block: Ct[(channel, tap)][output channel] (+)= Σ_q x window[q] · dy[channel][q],
  // panel by panel of NR output channels (its dy steps stay in L1 while every column tile of the item goes by). The
  // only block of an item goes straight into dW's rows, the kernel storing its tiles transposed (run_ct: a panel's
  // NR rows written left to right). Summed over several blocks, Ct stays in the slot: a transposed store per block
  // (two 8 × 8 transposes and masked loads and stores per tile) cost ResNet's stem (6 blocks per item) 2 %, where
  // the one transpose at the item's end saved ResNet's 14² layer and DCGAN 5 %.
  bool run_ra(const Block &blk, float *scratch, float *acc, int64_t ldc) const {
    const GemmRaUkernel &ra = *ra_;
    const int64_t kcp = round_up(blk.kc, uk_.lanes), panel = round_up(m_, ra.nr);
    // RA takes only kernels of several taps (gemm_blocking.cpp), so its x rows are never read in place. Windows made
    // straight from BF16 x for the pair kernel are packed as fp32 only for a block it leaves to the fp32 kernel.
    float *windows = scratch;
    if (!windows_from_bf16_) pack_windows(blk, kcp, windows);
    const int64_t *tap_at = tap_table(blk, scratch, windows);
    const RaLayout lay = ra_layout();
    // With dy_pairs_from_bf16_ the shared block holds pair panels and the fp32 ones are packed only for the fp32
    // kernel (then, when shared, where an item's pair panels go).
    float *row = scratch + ra_at(), *dy_t = row + lay.row, *ct = dy_t + lay.panels;
    if (dy_pairs_from_bf16_) {
      if (shared_dy_ != nullptr) dy_t = reinterpret_cast<float *>(pair_panels(scratch));
    } else if (shared_dy_ != nullptr) {
      dy_t = shared_dy_block(blk.g, blk.kb);
    } else {
      pack_dy_transposed(blk, kcp, row, dy_t);
    }
    int32_t steps[kMaxRaSteps];
    const int64_t kc = real_steps(blk, steps);
    bool finite = true;
    if (pk_ != nullptr && run_ra_pairs(blk, scratch, windows, tap_at, dy_t, kcp, steps, kc, ct, acc, ldc, &finite)) {
      return finite;
    }
    if (windows_from_bf16_) pack_windows(blk, kcp, windows);
    if (dy_pairs_from_bf16_) pack_dy_transposed(blk, kcp, row, dy_t);
    for_each_ra_tile(blk, windows, tap_at, [&](int64_t p, int64_t j, const float *const *rows, int mm, int nn) {
      const float *b = dy_t + p * kcp;  // panel p / NR: a step of NR floats per real position
      if (blk.only) {
        finite = ra.run_ct(kc, steps, rows, b, ra.nr, acc + p * ldc + j, ldc, mm, nn, false) && finite;
      } else {
        ra.run(kc, steps, rows, b, ra.nr, ct + j * panel + p, panel, mm, nn, !blk.first);
      }
    });
    return finite;
  }

  // run_ra's tiles on the BF16 pair kernel (gemm_ra_bf16_ukernel.hpp), when the block's operands let it give the fp32
  // kernel's bits (pairs_exact); false (nothing written but the pair areas) when they do not.
  bool run_ra_pairs(const Block &blk, float *scratch, const float *windows, const int64_t *tap_at, const float *dy_t,
                    int64_t kcp, const int32_t *steps, int64_t kc, float *ct, float *acc, int64_t ldc,
                    bool *finite) const {
    const GemmRaBf16Ukernel &pk = *pk_;
    const int64_t panel = round_up(m_, pk.nr);
    uint16_t *rev = reinterpret_cast<uint16_t *>(scratch + pairs_at_);
    uint32_t *b_pairs = pair_panels(scratch);
    int32_t pair_at[kMaxRaSteps], run_steps[kMaxRaSteps];
    int64_t runs = 0;
    const int64_t kp = ra_pair_steps(steps, kc, pair_at, run_steps, &runs);
    int b_floor;
    if (!dy_pairs_from_bf16_) {
      b_floor = ra_b_pairs(pk, dy_t + blk.r0 * kcp, kcp, blk.rows / pk.nr, run_steps, runs, b_pairs + blk.r0 * kp);
    } else {
      if (shared_dy_ != nullptr) {
        b_pairs = reinterpret_cast<uint32_t *>(shared_dy_block(blk.g, blk.kb));  // made once for all items
      } else {
        dy_pairs(blk, steps, run_steps, runs, kp, b_pairs);
      }
      b_floor = pk.words_floor(reinterpret_cast<const uint16_t *>(b_pairs + blk.r0 * kp), 2 * blk.rows * kp);
    }
    if (b_floor == 0 || !pairs_exact(reversed_windows(blk, kcp, windows, rev), b_floor)) return false;
    uint16_t *end = rev + blk.channels * window_;  // window value f at end[-f]
    for_each_ra_tile(blk, windows, tap_at, [&](int64_t p, int64_t j, const float *const *rows, int mm, int nn) {
      const uint16_t *pair_rows[kMaxRaMr];
      for (int r = 0; r < pk.mr; ++r) pair_rows[r] = end - (rows[r] - windows) - 1;
      const uint32_t *b = b_pairs + p * kp;
      if (blk.only) {
        *finite = pk.run_ct(kp, pair_at, pair_rows, b, pk.nr, acc + p * ldc + j, ldc, mm, nn, false) && *finite;
      } else {
        pk.run(kp, pair_at, pair_rows, b, pk.nr, ct + j * panel + p, panel, mm, nn, !blk.first);
      }
    });
    return true;
  }

  // The slot's area for the block's dy pair panels (RaPairLayout).
  uint32_t *pair_panels(float *scratch) const {
    return reinterpret_cast<uint32_t *>(scratch + pairs_at_ + RaPairLayout(*ra_, cpi_ * window_, m_, lda_).panels_at);
  }

  // dy rows [r0, r0 + rows) of the group over the block as pair panels (panel p at dst + p·kp, as ra_b_pairs makes
  // them), straight from BF16 dy's dense planes: a run of consecutive K steps (q positions) is a run of consecutive
  // positions of dy's plane, from the y position of its first step.
  void dy_pairs(const Block &blk, const int32_t *steps, const int32_t *run_steps, int64_t runs, int64_t kp,
                uint32_t *dst) const {
    const View5 &v = dy_.view();
    const int64_t nr = pk_->nr;
    const uint16_t *rows = dy_.bf16_data() + v.index(blk.n, blk.g * m_ + blk.r0, 0, 0, 0);
    int64_t first = 0, s = 0;  // the run's first K step and pair step
    for (int64_t r = 0; r < runs; ++r) {
      const int64_t q = blk.q0 + steps[first], box_row = q / geo_.wp;
      const int64_t at = box_row / geo_.hp * v.strides[2] + box_row % geo_.hp * v.strides[3] + q % geo_.wp;
      for (int64_t p = blk.r0; p < blk.r0 + blk.rows; p += nr) {
        pk_->panel_from_bf16(rows + (p - blk.r0) * v.strides[1] + at, v.strides[1], static_cast<int>(nr), run_steps[r],
                             dst + p * kp + s * nr);
      }
      first += run_steps[r];
      s += pair_steps(run_steps[r]);
    }
  }

  // The item's windows as one reversed BF16 window (window value f at rev[channels·window − f]), each phase's
  // values and a zero after them (the column a pair step reads after a run's last real position): from the fp32
  // windows, or with windows_from_bf16_ straight from x's BF16 rows (the fp32 windows not packed); returns their
  // exponent floor.
  int reversed_windows(const Block &blk, int64_t kcp, const float *windows, uint16_t *rev) const {
    const int64_t len = kcp + geo_.max_shift;
    uint16_t *end = rev + blk.channels * window_;
    int floor = kBf16FloorAllZero;
    for (int64_t ch = 0; ch < blk.channels; ++ch) {
      for (int64_t phase = 0; phase < geo_.phases; ++phase) {
        const int64_t f0 = ch * window_ + phase * phase_len_;
        end[-(f0 + len)] = 0;  // before the next phase's values, which may start there
        if (windows_from_bf16_) {
          const int64_t channel = blk.g * c_.cx_per_group + blk.c0 + ch;
          pack_phase_window_bf16(c_, geo_, x_, *pk_, blk.n, channel, phase, blk.q0, len, end - f0);
          floor = std::min(floor, pk_->words_floor(end - f0 - len + 1, len));
        } else {
          floor = std::min(floor, pk_->to_window(windows + f0, len, end - f0));
        }
      }
    }
    return floor;
  }

  // Calls tile(p, j, rows, mm, nn) for every tile of the transposed product: panel p (NR output channels from p, nn
  // of them real) by columns j .. j + mm (MR rows of Ct, their window rows in rows).
  template <typename Tile>
  void for_each_ra_tile(const Block &blk, const float *windows, const int64_t *tap_at, Tile tile) const {
    const int mr = ra_->mr, nr = ra_->nr;
    const int64_t cols = blk.channels * kk_;
    for (int64_t p = blk.r0; p < blk.r0 + blk.rows; p += nr) {
      const int nn = static_cast<int>(std::min<int64_t>(nr, blk.r0 + blk.rows - p));
      int64_t ch_j = 0, tap_j = 0;
      for (int64_t j = 0; j < cols; j += mr) {
        const int mm = static_cast<int>(std::min<int64_t>(mr, cols - j));
        const float *rows[kMaxRaMr];
        column_rows(blk, false, windows, tap_at, ch_j, tap_j, mr, mm, rows);
        for (tap_j += mr; tap_j >= kk_; tap_j -= kk_) ++ch_j;
        tile(p, j, rows, mm, nn);
      }
    }
  }

  // The block's real y positions (offsets from q0), in order: the RA kernel's K steps. At most kc of them, and a
  // block is at most kMaxRaSteps positions.
  int64_t real_steps(const Block &blk, int32_t *steps) const {
    int64_t n = 0;
    for_each_real_run(geo_, c_.y_size[1], c_.y_size[2], blk.q0, blk.kc,
                      [&](int64_t, int64_t, int64_t, int64_t count, int64_t at) {
                        for (int64_t i = 0; i < count; ++i) steps[n++] = static_cast<int32_t>(at + i);
                      });
    return n;
  }

  // The group's dy rows of the block as RA panels: dy_t[(p·kcp + k)·NR + i] = dy row p·NR + i at the block's k-th
  // real position (zeros past m and past the last), NR rows at a time packed into `rows` (NR·kcp floats) and
  // transposed.
  void pack_dy_transposed(const Block &blk, int64_t kcp, float *rows, float *dy_t) const {
    const int64_t nr = ra_->nr;
    if (dy_rows_in_place_) {
      // The block's real positions are consecutive y positions, so its dense rows are runs of dy's planes:
      // transposed from where they lie (ResNeXt's 14² layer copied 16 rows of 14-float runs per group first: 4 %),
      // then rounded in the panels (HF32: rounding commutes with moving values).
      int64_t first = -1, count = 0;
      for_each_real_run(geo_, c_.y_size[1], c_.y_size[2], blk.q0, blk.kc,
                        [&](int64_t od, int64_t oh, int64_t ow, int64_t n, int64_t) {
                          if (first < 0) first = (od * c_.y_size[1] + oh) * c_.y_size[2] + ow;
                          count += n;
                        });
      if (count == 0) return;  // a block of junk only (large pads or dilation across planes): no K steps
      const View5 &v = dy_.view();
      for (int64_t p = blk.r0; p < blk.r0 + blk.rows; p += nr) {
        const float *src = dy_.plain_data() + v.index(blk.n, blk.g * m_ + p, 0, 0, 0) + first;
        ra_->transpose(src, v.strides[1], nr, count, dy_t + p * kcp, nr);
        if (!dy_.plain()) dy_.finish(dy_t + p * kcp, count * nr);
      }
      return;
    }
    for (int64_t p = blk.r0; p < blk.r0 + blk.rows; p += nr) {
      for (int64_t i = 0; i < nr; ++i) pack_dy_row(blk, kcp, p + i, rows + i * kcp);
      ra_->transpose(rows, kcp, nr, kcp, dy_t + p * kcp, nr);
    }
  }

  // The x windows of the item's channels over the block.
  void pack_windows(const Block &blk, int64_t kcp, float *windows) const {
    float *row = windows + cpi_ * window_ + int64_table_floats(kk_);  // after the tap table (gemm_blocking.cpp)
    for (int64_t ch = 0; ch < blk.channels; ++ch) pack_window(blk, ch, kcp, windows + ch * window_, row);
  }

  // Where each tap's row starts in a channel's windows (phase box and shift: divisions, so once per block).
  int64_t *tap_table(const Block &blk, float *scratch, float *windows) const {
    int64_t *tap_at = int64_table(scratch, (windows - scratch) + blk.channels * window_);
    for (int64_t tap = 0; tap < kk_; ++tap) tap_at[tap] = geo_.phase(c_, tap) * phase_len_ + geo_.shift(c_, tap);
    return tap_at;
  }

  // The rows of `count` columns from column ch_j·K + tap_j on (the last valid one repeated past `valid`): x rows
  // in place or rows of the windows.
  void column_rows(const Block &blk, bool in_place, const float *windows, const int64_t *tap_at, int64_t ch_j,
                   int64_t tap_j, int count, int valid, const float **rows) const {
    const float *x_data = x_.plain_data();
    const View5 &xv = x_.view();
    for (int r = 0; r < count; ++r) {
      int64_t ch = ch_j, tap = tap_j + std::min(r, valid - 1);
      for (; tap >= kk_; tap -= kk_) ++ch;
      rows[r] = in_place ? x_data + xv.index(blk.n, blk.g * c_.cx_per_group + blk.c0 + ch, 0, 0, 0) + blk.q0
                         : windows + ch * window_ + tap_at[tap];
    }
  }

  // dy row r of the group over q-space [q0, q0 + kcp); rows past m and junk positions are zeros. RA (real_steps):
  // only the real positions, one after the other, then zeros.
  void pack_dy_row(const Block &blk, int64_t kcp, int64_t r, float *row) const {
    const View5 &v = dy_.view();
    const int64_t channel = blk.g * m_ + r;
    if (q_is_flat_ && r < m_) {  // one run: q is the flat y position (the HF32 1×1 layers copied rows of 56 one by one)
      dy_.read(v.index(blk.n, channel, 0, 0, 0) + blk.q0, 1, blk.kc, row);
      std::fill(row + blk.kc, row + kcp, 0.0f);
      return;
    }
    std::fill(row, row + kcp, 0.0f);
    if (r >= m_) return;
    const bool dense = ra_ != nullptr;
    int64_t k = 0;
    for_each_real_run(geo_, c_.y_size[1], c_.y_size[2], blk.q0, blk.kc,
                      [&](int64_t od, int64_t oh, int64_t ow, int64_t count, int64_t at) {
                        copy_run(dy_, v.index(blk.n, channel, od, oh, ow), v.strides[4], count, row + (dense ? k : at));
                        k += count;
                      });
    dy_.finish(row, kcp);
  }

  // x channel c0 + ch's padded boxes (one per stride phase) over [q0, q0 + kcp + max_shift): what every tap's row
  // of the block reads. At stride 2 across, the two phases across are packed from one read of each x row.
  void pack_window(const Block &blk, int64_t ch, int64_t kcp, float *win, float *row) const {
    const int64_t channel = blk.g * c_.cx_per_group + blk.c0 + ch, len = kcp + geo_.max_shift;
    for (int64_t phase = 0; phase < geo_.phases; ++phase) {
      if (geo_.pair_across(phase)) {
        pack_phase_window_pair(c_, geo_, x_, rk_, blk.n, channel, phase, blk.q0, len, win + phase * phase_len_,
                               win + (phase + 1) * phase_len_, row);
        ++phase;
        continue;
      }
      pack_phase_window(c_, geo_, x_, blk.n, channel, phase, blk.q0, len, win + phase * phase_len_);
    }
  }

  const Canonical &c_;
  const GemmNtUkernel &uk_;
  const GemmRaUkernel *const ra_;       // the transposed product's kernel, or nullptr (NT)
  const GemmRaBf16Ukernel *const pk_;   // RA on BF16 pairs where a block allows (run_ra_pairs), or nullptr
  const GemmNtBf16Ukernel *const ntp_;  // NT on BF16 pairs where a pass of a block allows (run), or nullptr
  const RowKernels &rk_;
  const ShiftedGeometry geo_;
  const OperandReader x_, dy_;
  const int64_t kk_, m_, lda_, phase_len_, window_, cpi_;
  const bool in_place_;          // dy and x rows read where they lie (whole K blocks)
  const bool dy_in_place_;       // dy rows read where they lie (whole K blocks)
  const bool dy_rows_in_place_;  // RA: the dy panels transposed from FP32 dy's planes (pack_dy_transposed)
  const bool q_is_flat_;         // q-space without junk and dense dy planes: a block's dy row is one run
  const int64_t blocks_per_sample_, k_parts_;
  const int64_t row_floats_;       // the x row of the stride-2 phase pairs (pack_window)
  float *const shared_dy_;         // dy rows packed once for every item (ShiftedWeightBlocking::shared_dy), or nullptr
  const int64_t pairs_at_;         // with pk_ or ntp_: the slot's pair areas (RaPairLayout, NtPairLayout)
  const bool nt_on_pairs_;         // ntp_, and dy rows not read in place (read in place they would be FP32 data)
  const bool pairs_from_bf16_;     // nt_on_pairs_ with both operands' pair rows made from their BF16 rows
  const bool windows_from_bf16_;   // pk_ with the reversed x windows made from x's BF16 rows (reversed_windows)
  const bool dy_pairs_from_bf16_;  // pk_ with dy's pair panels made from its BF16 rows (dy_pairs)
};

}  // namespace

bool gemm_weight_shifted(const Canonical &c, const GemmKernels &k, const ShiftedWeightBlocking &b, const GemmScratch &s,
                         const Rounding &rounding, const View5 &grad_weight) {
  const GemmNtUkernel &uk = *k.nt;
  float *shared_dy = b.shared_dy ? s.shared + shared_dy_offset(b, c) : nullptr;
  const ShiftedWeightGemm gemm(c, k, b, rounding, shared_dy);
  const int64_t blocks = gemm.k_blocks();
  if (shared_dy != nullptr && b.ra) {
    // Before any item runs, so each slot's rows area (RaLayout) is free to pack the blocks' dy rows through.
    parallel_for_slots(c.groups * blocks, s.slots, b.kc * c.cy_per_group * static_cast<double>(c.groups * blocks),
                       [&](int slot, int64_t begin, int64_t end) {
                         for (int64_t i = begin; i < end; ++i) {
                           gemm.pack_shared_dy_block(i / blocks, i % blocks, s.base + slot * s.slot_stride);
                         }
                       });
  } else if (shared_dy != nullptr) {
    const int64_t rows = round_up(c.cy_per_group, uk.mr);
    parallel_for(c.groups * blocks * rows, b.kc, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) gemm.pack_shared_dy_row(i / (blocks * rows), (i / rows) % blocks, i % rows);
    });
  }
  const bool in_place = weight_written_in_place(b.k_parts, c, grad_weight);
  std::atomic<bool> finite{true};
  parallel_for_slots(b.items, s.slots, b.flops / 2, [&](int slot, int64_t begin, int64_t end) {
    float *scratch = s.base + slot * s.slot_stride;
    bool fin = true;
    for (int64_t item = begin; item < end; ++item) {
      const ShiftedItem it(c, b, item);
      Block blk;
      blk.g = it.g;
      blk.c0 = it.c0;
      blk.channels = it.channels;
      blk.r0 = it.r0;
      blk.rows = it.rows;
      int64_t ldc = 0;  // acc: the group's first row, the chunk's first column (the kernels index rows from r0 on)
      float *acc = weight_accumulator(c, s, grad_weight, in_place, it.part, it.g, 0, blk.c0 * c.kernel_numel(), &ldc);
      const int64_t first = part_begin(blocks, b.k_parts, it.part), last = part_begin(blocks, b.k_parts, it.part + 1);
      bool stored_finite = true;
      for (int64_t kb = first; kb < last; ++kb) {
        gemm.set_k_block(kb, &blk);
        blk.first = kb == first;
        blk.only = last - first == 1;
        blk.last = kb + 1 == last;
        stored_finite = gemm.run(blk, scratch, acc, ldc) && stored_finite;
      }
      gemm.finish_item(blk, scratch, acc, ldc);
      if (b.k_parts == 1) {
        const int64_t kk = c.kernel_numel();
        const bool checked = gemm.stores_checked(blk);  // then the kernel's report stands for the scan
        fin &= finish_weight_columns(c, grad_weight, in_place, acc + blk.r0 * ldc, ldc, it.g, blk.r0, blk.rows,
                                     blk.c0 * kk, blk.channels * kk, rounding, !checked);
        if (checked) fin &= stored_finite;
      }
    }
    if (!fin) finite.store(false, std::memory_order_relaxed);
  });
  return b.k_parts == 1 ? finite.load() : store_weight_partials(c, b.k_parts, s, rounding, grad_weight);
}

std::string gemm_weight_shifted_refusal(const Canonical &c) {
  const std::string why = phase_refusal(c, true);
  const int64_t plane = c.y_plane();
  if (why.empty() && c.kernel_numel() == 1 && plane < kShiftedOneTapMinPlane) {
    return "1x1 kernel on planes of " + std::to_string(plane) + " positions (fewer than " +
           std::to_string(kShiftedOneTapMinPlane) + "): short dot products";
  }
  if (why.empty() && plane <= kShiftedSmallPlane && c.cx_per_group * c.cy_per_group >= kShiftedSmallPlaneChannels) {
    return "planes of " + std::to_string(plane) + " positions (at most " + std::to_string(kShiftedSmallPlane) +
           ") with " + std::to_string(c.cx_per_group) + " x " + std::to_string(c.cy_per_group) +
           " channels per group (from " + std::to_string(kShiftedSmallPlaneChannels) + " pairs): short K blocks";
  }
  return why;
}

bool gemm_weight_shifted_run(const Canonical &c, const GemmKernels &k, const ShiftedWeightBlocking &b,
                             const GemmScratch &s, const Rounding &rounding) {
  return gemm_weight_shifted(c, k, b, s, rounding, c.grad_weight);
}

Work gemm_weight_shifted_work(const Canonical &c, const GemmKernels &k, const ShiftedWeightBlocking &b,
                              const Rounding &rounding, int slots) {
  const ShiftedWeightGemm gemm(c, k, b, rounding, nullptr);
  const ShiftedGeometry geo(c);
  const double move = move_cost(k.nn->isa);
  const int64_t blocks = gemm.k_blocks(), m = c.cy_per_group, kk = c.kernel_numel();
  Work work;
  const double ra_dy_moves = gemm.dy_pairs_from_bf16() ? 1.0 : 2.0;  // packed, then transposed; or paired at once
  if (b.shared_dy && b.ra) {
    work.push_back(uniform_phase("shared_dy", LoopKind::kSlots, c.groups * blocks, slots,
                                 static_cast<double>(b.kc * m) * static_cast<double>(c.groups * blocks),
                                 move * ra_dy_moves * static_cast<double>(b.kc * m)));
  } else if (b.shared_dy) {
    work.push_back(uniform_phase("shared_dy", LoopKind::kFor, c.groups * blocks * round_up(m, k.nt->mr), slots,
                                 static_cast<double>(b.kc), move * static_cast<double>(b.kc)));
  }
  // The product's tiles: RA's rows are the item's columns (x channel, tap), its columns the output channels.
  const int64_t row_tile = b.ra ? k.ra->mr : k.nt->nr, m_tile = b.ra ? k.ra->nr : k.nt->mr;
  const bool dy_packed = !b.shared_dy && !gemm.dy_in_place();
  WorkPhase items = uniform_phase("items", LoopKind::kSlots, b.items, slots, b.flops / 2, 0);
  for (int64_t item = 0; item < b.items; ++item) {
    const ShiftedItem it(c, b, item);
    const int64_t columns = it.channels * kk;
    double cost = 0;
    for (int64_t kb = part_begin(blocks, b.k_parts, it.part); kb < part_begin(blocks, b.k_parts, it.part + 1); ++kb) {
      Block blk;
      gemm.set_k_block(kb, &blk);
      const double macs = static_cast<double>(round_up(columns, row_tile)) * round_up(it.rows, m_tile) * blk.kc;
      const int64_t windows = it.channels * geo.phases * (blk.kc + geo.max_shift);
      const double dy_moves = dy_packed ? static_cast<double>(it.rows * blk.kc) * (b.ra ? ra_dy_moves : 1.0) : 0.0;
      cost += macs + move * (static_cast<double>(windows) + dy_moves);
    }
    items.cost.push_back(cost + move * static_cast<double>(columns * it.rows));  // dW's columns
  }
  work.push_back(std::move(items));
  if (b.k_parts > 1) work.push_back(weight_partials_phase(c, b.k_parts, slots, k.nn->isa));
  return work;
}

std::string gemm_weight_shifted_kernel(const GemmKernels &k, const ShiftedWeightBlocking &b) {
  if (b.ra) return k.ra_bf16 != nullptr ? k.ra_bf16->name : k.ra->name;
  return k.nt_bf16 != nullptr ? k.nt_bf16->name : k.nt->name;
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu

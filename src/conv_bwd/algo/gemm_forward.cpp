// The forward relation as GEMMs: y tile (Cy_g × positions) = weight rows (K = Cx_g·taps) · implicit im2col of x.
// Two uses (gemm_algorithms.hpp):
//   transposed gradInput: x := gradOutput, weight rows w[cy, ·] as stored;
//   flipped (stride-1 gradInput of a convolution): x := gradOutput, output dx, weight rows wᵀ with the taps
//   reversed, and begin pads (k−1)·dil − pb: dx[c, p] = Σ_{cy, κ'} w[cy, c, K−1−κ'] · dy[cy, p − pb' + κ'·dil].
// The weight is rounded and packed once into the shared area, in panels every tile uses as they are.
// Stride 1 with more than one tap (every flipped call): the shifted layout (shifted_geometry.hpp) with y positions
// in q-space; each tile rounds and copies the windows of x's padded boxes once, and a B panel row of tap κ is a
// plain copy from window + shift(κ), not an im2col run with bounds. Junk positions are computed, never stored.
// A stride with more than one tap: y positions stay dense, and B's panels are copied from the stride-phase windows of
// each K block's x channels (ForwardGemm::PhaseWindows), again with no bounds per step.
#include <algorithm>
#include <atomic>
#include <cstring>

#include "conv_bwd/algo/gemm_algorithms.hpp"
#include "conv_bwd/algo/im2col.hpp"
#include "conv_bwd/algo/operand_runs.hpp"
#include "conv_bwd/algo/packing.hpp"
#include "conv_bwd/algo/result_runs.hpp"
#include "conv_bwd/algo/shifted_windows.hpp"
#include "conv_bwd/algorithms.hpp"
#include "conv_bwd/parallel.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

Canonical flipped_problem(const Canonical &c) {
  Canonical f = c;
  f.transposed = false;
  f.cx_per_group = c.cy_per_group;  // summed over: gradOutput's channels
  f.cy_per_group = c.cx_per_group;  // produced: gradInput's channels
  for (int d = 0; d < kSpatial; ++d) {
    f.x_size[d] = c.y_size[d];
    f.y_size[d] = c.x_size[d];
    f.stride[d] = 1;
    f.pad_begin[d] = (c.kernel[d] - 1) * c.dilation[d] - c.pad_begin[d];
  }
  f.x = c.y;
  return f;
}

namespace {

// The flipped form's A in the shifted layout's tap-major panels: item = (group, kFlippedRowsPerItem gradOutput
// channels b); their whole weight rows w[b] (every x channel's taps) are read once, then each panel step gets its
// MR values per b (taps reversed; rows past the x channels are zeros), written panel by panel so the stores run
// along memory. False if a weight is not finite.
bool pack_flipped_tap_major(const Canonical &c, const Canonical &f, const GemmUkernel &uk, const Rounding &rounding,
                            const GemmScratch &s) {
  const OperandReader w(c.w, rounding, true);
  const int64_t kk = c.kernel_numel(), cx = f.cx_per_group, m = f.cy_per_group, mp = round_up(m, uk.mr);
  const int64_t row_len = m * kk, blocks = (cx + kFlippedRowsPerItem - 1) / kFlippedRowsPerItem;
  const int mr = uk.mr;
  std::atomic<bool> finite{true};
  parallel_for_slots(f.groups * blocks, s.slots, static_cast<double>(f.groups) * mp * cx * kk * 2,
                     [&](int slot, int64_t begin, int64_t end) {
                       float *rows = s.base + slot * s.slot_stride;  // kFlippedRowsPerItem rows of m·K floats
                       bool fin = true;
                       for (int64_t item = begin; item < end; ++item) {
                         const int64_t g = item / blocks, b0 = (item % blocks) * kFlippedRowsPerItem;
                         const int64_t nb = std::min(kFlippedRowsPerItem, cx - b0);
                         for (int64_t i = 0; i < nb; ++i) {
                           fin &= read_row_run(w, g * c.cy_per_group + b0 + i, 0, row_len, rows + i * row_len);
                         }
                         float *group = s.shared + g * mp * cx * kk;
                         for (int64_t t = 0; t < kk; ++t) {
                           for (int64_t a0 = 0; a0 < mp; a0 += mr) {
                             float *step = group + t * mp * cx + a0 * cx + b0 * mr;
                             const int64_t n_rows = std::min<int64_t>(mr, m - a0);
                             for (int64_t i = 0; i < nb; ++i, step += mr) {
                               const float *src = rows + i * row_len + a0 * kk + (kk - 1 - t);
                               for (int64_t r = 0; r < n_rows; ++r) step[r] = src[r * kk];
                               for (int64_t r = n_rows; r < mr; ++r) step[r] = 0.0f;
                             }
                           }
                         }
                       }
                       if (!fin) finite.store(false, std::memory_order_relaxed);
                     });
  return finite.load();
}

constexpr int kMaxNnMr = 8;  // the most rows an NN kernel's tile has (gemm_f32_8x32__avx512f)

// Steps [k0, k0 + kc) of MR rows into one panel: panel[k·MR + r] = rows[r][k0 + k].
template <int MR>
void rows_to_panel(const float *const *rows, int64_t k0, int64_t kc, float *panel) {
  for (int64_t k = 0; k < kc; ++k) {
    for (int r = 0; r < MR; ++r) panel[k * MR + r] = rows[r][k0 + k];
  }
}

// The transposed call's A: MR weight rows w[g·M + a0 + r] (K floats each, read where they lie when they need no
// rounding and are dense, else copied rounded into tmp; rows past M read a row of zeros) into the K blocks' panels.
// Packing through a zeroed MR × K buffer took 8 % of DCGAN k4s2's gradInput.
bool pack_weight_rows(const Canonical &c, const OperandReader &w, const OperandReader &w_plain, const GemmUkernel &uk,
                      int64_t g, int64_t a0, float *tmp, float *group) {
  const int64_t m = c.cy_per_group, k_total = c.cx_per_group * c.kernel_numel(), mp = round_up(m, uk.mr);
  const int64_t rows = std::min<int64_t>(uk.mr, m - a0);
  const float *src[kMaxNnMr];
  bool fin = true;
  for (int64_t r = 0; r < rows; ++r) {
    src[r] = plain_row_run(w_plain, g * m + a0 + r, 0);
    if (src[r] != nullptr) {
      fin &= all_finite(src[r], k_total);
    } else {
      fin &= read_row_run(w, g * m + a0 + r, 0, k_total, tmp + r * k_total);
      src[r] = tmp + r * k_total;
    }
  }
  if (rows < uk.mr) {
    float *zeros = tmp + uk.mr * k_total;
    std::fill(zeros, zeros + k_total, 0.0f);
    for (int64_t r = rows; r < uk.mr; ++r) src[r] = zeros;
  }
  for (int64_t k0 = 0; k0 < k_total; k0 += kGemmKc) {
    const int64_t kc = std::min(kGemmKc, k_total - k0);
    float *panel = group + k0 * mp + a0 * kc;
    switch (uk.mr) {
      case 6:
        rows_to_panel<6>(src, k0, kc, panel);
        break;
      case 8:
        rows_to_panel<8>(src, k0, kc, panel);
        break;
      default:
        for (int64_t k = 0; k < kc; ++k) {
          for (int64_t r = 0; r < uk.mr; ++r) panel[k * uk.mr + r] = src[r][k0 + k];
        }
    }
  }
  return fin;
}

// The GEMM's A for every group, rounded and packed once in the microkernel's panel layout (packing.hpp):
// group g, K block k0 starts at g·Mp·K + k0·Mp (Mp = M rounded up to MR); in the shifted layout K runs tap by tap,
// tap t's Cx_g steps at g·Mp·K + t·Mp·Cx_g. False if a weight is not finite.
bool pack_weight_panels(const Canonical &c, const Canonical &f, bool flipped, bool shifted, const GemmUkernel &uk,
                        const Rounding &rounding, const GemmScratch &s) {
  if (flipped && shifted) return pack_flipped_tap_major(c, f, uk, rounding, s);
  const OperandReader w(c.w, rounding, true), w_plain(c.w, rounding);
  const int64_t kk = c.kernel_numel(), m = f.cy_per_group, k_total = f.cx_per_group * kk, mp = round_up(m, uk.mr);
  const int64_t panels = mp / uk.mr;
  std::atomic<bool> finite{true};
  // Work items are panels (MR rows of A): each writes only its own part of the shared area, so no two threads
  // share a cache line. A row holds K values of the transposed call's w[g·M + a], or for the flipped form the
  // taps of w[g·Cy_g + b, a] reversed, for every b.
  parallel_for_slots(f.groups * panels, s.slots, static_cast<double>(f.groups) * mp * k_total * 4,
                     [&](int slot, int64_t begin, int64_t end) {
                       float *tmp = s.base + slot * s.slot_stride;  // MR rows of K floats
                       bool fin = true;
                       for (int64_t item = begin; item < end; ++item) {
                         const int64_t g = item / panels, a0 = (item % panels) * uk.mr;
                         const int64_t rows = std::min<int64_t>(uk.mr, m - a0);
                         float *group = s.shared + g * mp * k_total;
                         if (!flipped && !shifted) {
                           fin &= pack_weight_rows(c, w, w_plain, uk, g, a0, tmp, group);
                           continue;
                         }
                         std::fill(tmp, tmp + uk.mr * k_total, 0.0f);
                         if (!flipped) {
                           for (int64_t r = 0; r < rows; ++r) {
                             fin &= read_row_run(w, g * m + a0 + r, 0, k_total, tmp + r * k_total);
                           }
                         } else {
                           float *taps = tmp + uk.mr * k_total;  // rows·K more floats: w[b, a0 .. a0 + rows)
                           for (int64_t b = 0; b < f.cx_per_group; ++b) {
                             fin &= read_row_run(w, g * c.cy_per_group + b, a0 * kk, rows * kk, taps);
                             for (int64_t r = 0; r < rows; ++r) {
                               for (int64_t t = 0; t < kk; ++t)
                                 tmp[r * k_total + b * kk + t] = taps[r * kk + kk - 1 - t];
                             }
                           }
                         }
                         if (shifted) {  // tap-major: tap t's panel holds its K = Cx_g steps (one per x channel)
                           const int64_t cx = f.cx_per_group;
                           for (int64_t t = 0; t < kk; ++t) {
                             float *panel = group + t * mp * cx + a0 * cx;
                             for (int64_t b = 0; b < cx; ++b) {
                               for (int64_t r = 0; r < uk.mr; ++r) panel[b * uk.mr + r] = tmp[r * k_total + b * kk + t];
                             }
                           }
                           continue;
                         }
                         for (int64_t k0 = 0; k0 < k_total; k0 += kGemmKc) {
                           const int64_t kc = std::min(kGemmKc, k_total - k0);
                           float *panel = group + k0 * mp + a0 * kc;
                           for (int64_t k = 0; k < kc; ++k) {
                             for (int64_t r = 0; r < uk.mr; ++r) panel[k * uk.mr + r] = tmp[r * k_total + k0 + k];
                           }
                         }
                       }
                       if (!fin) finite.store(false, std::memory_order_relaxed);
                     });
  return finite.load();
}

// The weight's panels also as BF16 pairs (ForwardBlocking::weight_pairs_at), block by block; returns their exponent
// floor (gemm_bf16_ukernel.hpp), one for the whole weight.
int pair_weight_panels(const Canonical &f, const GemmUkernel &uk, const GemmBf16Ukernel &pk, const ForwardBlocking &b,
                       const GemmScratch &s) {
  const int64_t k_total = f.cx_per_group * f.kernel_numel(), mp = round_up(f.cy_per_group, uk.mr);
  const int64_t blocks = ceil_div(k_total, kGemmKc), group_pairs = mp * forward_weight_pairs(k_total);
  uint32_t *pairs = reinterpret_cast<uint32_t *>(s.shared + b.weight_pairs_at);
  std::atomic<int> floor{kBf16FloorAllZero};
  parallel_for_slots(f.groups * blocks, s.slots, static_cast<double>(f.groups) * mp * k_total,
                     [&](int, int64_t begin, int64_t end) {
                       int seen = kBf16FloorAllZero;
                       for (int64_t item = begin; item < end; ++item) {
                         const int64_t g = item / blocks, k0 = item % blocks * kGemmKc;
                         const int64_t kc = std::min(kGemmKc, k_total - k0);
                         seen = std::min(seen, pk.to_pairs(s.shared + g * mp * k_total + k0 * mp, mp / uk.mr, uk.mr, kc,
                                                           pairs + g * group_pairs + k0 / 2 * mp));
                       }
                       int low = floor.load(std::memory_order_relaxed);
                       while (seen < low && !floor.compare_exchange_weak(low, seen, std::memory_order_relaxed)) {
                       }
                     });
  return floor.load();
}

}  // namespace

namespace {

// One tile of positions of one sample and group, output rows [r0, r0 + rows) (all rows outside the shifted layout):
// the C buffer, the windows and B panels of a slot.
struct ForwardTile {
  int64_t n, g, p0, nt, r0, rows;
};

class ForwardGemm {
 public:
  ForwardGemm(const Canonical &f, const GemmKernels &k, const ForwardBlocking &b, const GemmScratch &s,
              const Rounding &rounding, const View5 &out, int weight_floor)
      : f_(f),
        uk_(*k.nn),
        pk_(b.pairs_at > 0 ? k.bf16 : nullptr),
        weight_floor_(weight_floor),
        rk_(*k.rows),
        b_(b),
        s_(s),
        rounding_(rounding),
        out_(out),
        x_(f.x, rounding),
        geo_(f),
        kk_(f.kernel_numel()),
        m_(f.cy_per_group),
        k_total_(f.cx_per_group * kk_),
        mp_(round_up(m_, uk_.mr)),
        window_(b.tile + geo_.max_shift),
        c_in_place_(!b.shifted && out.dtype == ACL_FLOAT && rounding.grad_input_is_identity() &&
                    out.contiguous_planes()) {}

  // Positions of one sample's output: its plane, or its q-space in the shifted layout.
  int64_t positions() const { return b_.shifted ? geo_.q_len : f_.y_size[0] * f_.y_size[1] * f_.y_size[2]; }

  void run(const ForwardTile &t, int slot) const {
    if (b_.shifted) {
      run_shifted(t, slot);
      return;
    }
    float *b_pack = s_.base + slot * s_.slot_stride;
    uint32_t *b_pairs = reinterpret_cast<uint32_t *>(b_pack + b_.pairs_at);  // with pk_
    float *cbuf = b_pack + b_.tile * kGemmKc;
    float *tmp = cbuf + m_ * b_.tile;
    const float *a_group = s_.shared + t.g * mp_ * k_total_;
    const Im2colStart start = im2col_start(f_, t.p0);
    // FP32 gradInput needing no rounding, dense planes: the kernel sums into its rows where they lie (the tile's
    // positions are consecutive in each plane), so C is not copied out (DCGAN k3s2's gradInput 1.54 -> 1.48 ms).
    float *c = cbuf;
    int64_t ldc = b_.tile;
    if (c_in_place_) {
      c = static_cast<float *>(out_.data) + out_.index(t.n, t.g * m_, 0, 0, 0) + t.p0;
      ldc = out_.strides[1];
    }
    PhaseWindows pw;
    if (b_.phase_window > 0) pw = phase_windows(t, start, tmp);
    for (int64_t k0 = 0; k0 < k_total_; k0 += kGemmKc) {
      const int64_t kc = std::min(kGemmKc, k_total_ - k0);
      if (b_.phase_window > 0) {
        pack_from_windows(t, pw, k0, kc, b_pack);
      } else {
        // Column k0 + k is (channel, tap), walked in order (pack_panels_by_steps fetches the steps in order).
        int64_t channel = t.g * f_.cx_per_group + k0 / kk_;
        Im2colTap tap(f_, k0 % kk_);
        pack_panels_by_steps(uk_.nr, t.nt, kc, tmp, b_pack, [&](int64_t, float *out) -> const float * {
          im2col_run(f_, x_, t.n, channel, tap, start, t.nt, out);
          if (tap.next(f_)) ++channel;
          return out;
        });
      }
      run_block(t, k0, kc, a_group, b_pack, b_pairs, c, ldc);
    }
    if (!c_in_place_) store(t, cbuf);
  }

 private:
  // One K block of a tile: on the pair kernel where the weight's and this block's B floors let it give the fp32
  // kernel's bits (gemm_bf16_ukernel.hpp), else on the fp32 kernel.
  void run_block(const ForwardTile &t, int64_t k0, int64_t kc, const float *a_group, const float *b_pack,
                 uint32_t *b_pairs, float *c, int64_t ldc) const {
    if (pk_ == nullptr ||
        !pairs_exact(weight_floor_, pk_->to_pairs(b_pack, ceil_div(t.nt, uk_.nr), uk_.nr, kc, b_pairs))) {
      run_tiles(uk_, m_, t.nt, kc, a_group + k0 * mp_, b_pack, c, ldc, k0 > 0);
      return;
    }
    const int64_t kp = pair_steps(kc);
    const uint32_t *a = reinterpret_cast<const uint32_t *>(s_.shared + b_.weight_pairs_at) +
                        t.g * mp_ * forward_weight_pairs(k_total_) + k0 / 2 * mp_;
    for (int64_t j = 0; j < t.nt; j += uk_.nr) {
      const int nn = static_cast<int>(std::min<int64_t>(uk_.nr, t.nt - j));
      for (int64_t i = 0; i < m_; i += uk_.mr) {
        const int mm = static_cast<int>(std::min<int64_t>(uk_.mr, m_ - i));
        pk_->run(kp, a + i * kp, b_pairs + j * kp, c + i * ldc + j, ldc, mm, nn, k0 > 0);
      }
    }
  }

  // At a stride, B comes from stride-phase windows (shifted_geometry.hpp) of each K block's x channels over the
  // tile's q range, rounded once: a step (channel, tap) reads its phase's window at the tap's shift, position i of
  // the tile at q offset qpos[i], so a panel's 16 positions along one row are one 16-float copy. im2col_run walked
  // every step's row segments with their bounds (10 % of DCGAN k3s2's gradInput, 7 % of k4s2's).
  struct PhaseWindows {
    float *windows = nullptr;      // per block channel, geo_.phases windows of b_.phase_window floats
    float *row = nullptr;          // an x row, for the pairs of phases across at stride 2
    int64_t *qpos = nullptr;       // the tile's positions in q-space, from its first
    int64_t *tap_at = nullptr;     // per tap: its phase's window and its shift, from a channel's first window
    const float **step = nullptr;  // per step of a block: where its values start
    int64_t z0 = 0, len = 0;       // the windows' q range
  };

  PhaseWindows phase_windows(const ForwardTile &t, const Im2colStart &start, float *area) const {
    PhaseWindows pw;
    const int64_t per_channel = geo_.phases * b_.phase_window;
    const int64_t channels = phase_window_channels(f_.cx_per_group, kk_);
    pw.windows = area;
    pw.row = area + channels * per_channel;
    pw.qpos = int64_table(area, channels * per_channel + geo_.pair_row_floats(f_));
    pw.tap_at = pw.qpos + t.nt;
    pw.step = reinterpret_cast<const float **>(pw.tap_at + kk_);
    int64_t od = start.od, oh = start.oh, ow = start.ow;
    pw.z0 = geo_.q(od, oh, ow);
    for (int64_t i = 0; i < t.nt; ++i) {
      pw.qpos[i] = geo_.q(od, oh, ow) - pw.z0;
      if (++ow == f_.y_size[2]) {
        ow = 0;
        if (++oh == f_.y_size[1]) {
          oh = 0;
          ++od;
        }
      }
    }
    pw.len = pw.qpos[t.nt - 1] + 1 + geo_.max_shift;
    for (int64_t tap = 0; tap < kk_; ++tap) {
      pw.tap_at[tap] = geo_.phase(f_, tap) * b_.phase_window + geo_.shift(f_, tap);
    }
    return pw;
  }

  // The block's channels' windows, then B's panels: for each panel of NR positions, every step's NR values.
  void pack_from_windows(const ForwardTile &t, const PhaseWindows &pw, int64_t k0, int64_t kc, float *b_pack) const {
    const int64_t ch0 = k0 / kk_, ch_end = (k0 + kc - 1) / kk_ + 1, per_channel = geo_.phases * b_.phase_window;
    for (int64_t ch = ch0; ch < ch_end; ++ch) {
      pack_channel_windows(t, t.g * f_.cx_per_group + ch, pw, pw.windows + (ch - ch0) * per_channel);
    }
    int64_t ch = ch0, tap = k0 % kk_;
    for (int64_t k = 0; k < kc; ++k) {
      pw.step[k] = pw.windows + (ch - ch0) * per_channel + pw.tap_at[tap];
      if (++tap == kk_) {
        tap = 0;
        ++ch;
      }
    }
    switch (uk_.nr) {
      case 16:
        return steps_to_panels<16>(t.nt, kc, pw, b_pack);
      case 32:
        return steps_to_panels<32>(t.nt, kc, pw, b_pack);
      default:
        return steps_to_panels<0>(t.nt, kc, pw, b_pack);
    }
  }

  // One x channel's windows of the phases some tap reads; at stride 2 across, both phases of a row from one read.
  void pack_channel_windows(const ForwardTile &t, int64_t channel, const PhaseWindows &pw, float *win) const {
    for (int64_t phase = 0; phase < geo_.phases; ++phase) {
      float *w = win + phase * b_.phase_window;
      if (geo_.pair_across(phase)) {
        pack_phase_window_pair(f_, geo_, x_, rk_, t.n, channel, phase, pw.z0, pw.len, w, w + b_.phase_window, pw.row);
        ++phase;
        continue;
      }
      pack_phase_window(f_, geo_, x_, t.n, channel, phase, pw.z0, pw.len, w);
    }
  }

  // NR > 0: a panel whose positions lie along one row takes each step as one NR-float copy, one that spans two rows of
  // NR/2 (DCGAN k4s2's 16-wide planes: position by position, that loop was 88 % of the items' own time) two copies;
  // others (and NR = 0, the kernel's width at run time) run by run of consecutive q, zeros past the tile.
  template <int NR>
  void steps_to_panels(int64_t nt, int64_t kc, const PhaseWindows &pw, float *b_pack) const {
    const int64_t nr = NR > 0 ? NR : uk_.nr;
    for (int64_t p = 0; p < nt; p += nr) {
      float *d = b_pack + p * kc;
      const int64_t lanes = std::min(nr, nt - p), q = pw.qpos[p];
      if (NR > 0 && lanes == NR && pw.qpos[p + NR - 1] - q == NR - 1) {
        for (int64_t k = 0; k < kc; ++k) std::memcpy(d + k * NR, pw.step[k] + q, NR * sizeof(float));
        continue;
      }
      constexpr int64_t kHalf = NR / 2;
      if (NR > 0 && lanes == NR && pw.qpos[p + kHalf - 1] - q == kHalf - 1 &&
          pw.qpos[p + NR - 1] - pw.qpos[p + kHalf] == kHalf - 1) {
        const int64_t q2 = pw.qpos[p + kHalf];
        for (int64_t k = 0; k < kc; ++k) {
          std::memcpy(d + k * NR, pw.step[k] + q, kHalf * sizeof(float));
          std::memcpy(d + k * NR + kHalf, pw.step[k] + q2, kHalf * sizeof(float));
        }
        continue;
      }
      for (int64_t i = 0; i < lanes;) {
        int64_t e = i + 1;
        while (e < lanes && pw.qpos[p + e] == pw.qpos[p + e - 1] + 1) ++e;
        const int64_t from = pw.qpos[p + i];
        for (int64_t k = 0; k < kc; ++k) {
          const float *src = pw.step[k] + from;
          for (int64_t j = i; j < e; ++j) d[k * nr + j] = src[j - i];
        }
        i = e;
      }
      if (lanes < nr) {
        for (int64_t k = 0; k < kc; ++k) std::fill(d + k * nr + lanes, d + (k + 1) * nr, 0.0f);
      }
    }
  }

  // The shifted layout: the tile's windows of x's padded boxes, rounded once; tap κ's B is then the windows read where
  // they lie from offset shift(κ) (x channel by x channel: a constant step of one window), so no B panel is packed.
  // Each C element sums tap by tap (one kernel sum over the x channels per tap), in tap order.
  void run_shifted(const ForwardTile &t, int slot) const {
    float *cbuf = s_.base + slot * s_.slot_stride;
    float *windows = cbuf + t.rows * b_.tile;
    const int64_t cx = f_.cx_per_group;
    for (int64_t ch = 0; ch < cx; ++ch) {
      pack_box_window(f_, geo_, x_, t.n, t.g * cx + ch, t.p0, window_, windows + ch * window_);
    }
    int64_t *tap_at = int64_table(cbuf, (windows - cbuf) + cx * window_);  // K int64 after the windows
    for (int64_t tap = 0; tap < kk_; ++tap) tap_at[tap] = geo_.shift(f_, tap);
    const float *a_group = s_.shared + t.g * mp_ * k_total_;
    // One NR-column C strip stays in L1 while every tap adds into it.
    for (int64_t j = 0; j < t.nt; j += uk_.nr) {
      const int nn = static_cast<int>(std::min<int64_t>(uk_.nr, t.nt - j));
      for (int64_t tap = 0; tap < kk_; ++tap) {
        const float *b = windows + j + tap_at[tap], *a = a_group + tap * mp_ * cx + t.r0 * cx;
        for (int64_t i = 0; i < t.rows; i += uk_.mr) {
          const int mm = static_cast<int>(std::min<int64_t>(uk_.mr, t.rows - i));
          uk_.run(cx, a + i * cx, b, window_, cbuf + i * b_.tile + j, b_.tile, mm, nn, tap > 0);
        }
      }
    }
    store(t, cbuf);
  }

 private:
  void store(const ForwardTile &t, const float *cbuf) const {
    for (int64_t r = 0; r < t.rows; ++r) {
      const int64_t channel = t.g * m_ + t.r0 + r;
      const float *row = cbuf + r * b_.tile;
      if (!b_.shifted) {
        store_run(out_, t.n, channel, t.p0, t.nt, row, ResultKind::kGradInput, rounding_);
        continue;
      }
      const int64_t oh_n = f_.y_size[1], ow_n = f_.y_size[2];
      for_each_real_run(geo_, oh_n, ow_n, t.p0, t.nt,
                        [&](int64_t od, int64_t oh, int64_t ow, int64_t count, int64_t at) {
                          store_run(out_, t.n, channel, (od * oh_n + oh) * ow_n + ow, count, row + at,
                                    ResultKind::kGradInput, rounding_);
                        });
    }
  }

  const Canonical &f_;
  const GemmUkernel &uk_;
  const GemmBf16Ukernel
      *const pk_;           // B also as pairs, for the pair kernel where a block allows (run_block), or nullptr
  const int weight_floor_;  // with pk_: the weight pairs' exponent floor
  const RowKernels &rk_;
  const ForwardBlocking &b_;
  const GemmScratch &s_;
  const Rounding &rounding_;
  const View5 &out_;
  const OperandReader x_;
  const ShiftedGeometry geo_;
  const int64_t kk_, m_, k_total_, mp_, window_;
  const bool c_in_place_;  // not shifted: the kernel's C is gradInput itself (run)
};

}  // namespace

bool gemm_forward(const Canonical &c, bool flipped, const GemmKernels &k, const ForwardBlocking &b,
                  const GemmScratch &s, const Rounding &rounding, const View5 &grad_input) {
  const GemmUkernel &uk = *k.nn;
  const Canonical f = flipped ? flipped_problem(c) : c;
  const bool finite = pack_weight_panels(c, f, flipped, b.shifted, uk, rounding, s);
  const int weight_floor = b.pairs_at > 0 ? pair_weight_panels(f, uk, *k.bf16, b, s) : 0;
  const ForwardGemm gemm(f, k, b, s, rounding, grad_input, weight_floor);
  const int64_t tiles = (gemm.positions() + b.tile - 1) / b.tile;
  const int64_t rows = b.shifted ? b.rows_per_item : f.cy_per_group;
  const int64_t per_chunk = f.batch * f.groups * tiles;
  parallel_for_slots(b.items, s.slots, b.flops / 2, [&](int slot, int64_t begin, int64_t end) {
    for (int64_t item = begin; item < end; ++item) {
      // Row chunks outermost: consecutive items share the chunk's weight rows (kept in L2).
      const int64_t rest = item % per_chunk;
      ForwardTile t;
      t.r0 = item / per_chunk * rows;
      t.rows = std::min(rows, f.cy_per_group - t.r0);
      t.n = rest / (tiles * f.groups);
      t.g = (rest / tiles) % f.groups;
      t.p0 = (rest % tiles) * b.tile;
      t.nt = std::min(b.tile, gemm.positions() - t.p0);
      gemm.run(t, slot);
    }
  });
  return finite;
}

namespace {

// The jobs of gemm_forward (flipped as there): the weight's panels (and their pairs), then the items.
Work forward_work(const Canonical &c, bool flipped, const GemmKernels &k, const ForwardBlocking &b, int slots) {
  const GemmUkernel &uk = *k.nn;
  const double move = move_cost(uk.isa);
  const Canonical f = flipped ? flipped_problem(c) : c;
  const int64_t kk = c.kernel_numel(), m = f.cy_per_group, cx = f.cx_per_group, k_total = cx * kk;
  const int64_t mp = round_up(m, uk.mr);
  Work work;
  if (flipped && b.shifted) {
    const int64_t blocks = ceil_div(cx, kFlippedRowsPerItem);
    WorkPhase ph = uniform_phase("pack_weight", LoopKind::kSlots, f.groups * blocks, slots,
                                 static_cast<double>(f.groups) * mp * cx * kk * 2, 0);
    for (int64_t item = 0; item < f.groups * blocks; ++item) {
      const int64_t nb = std::min(kFlippedRowsPerItem, cx - item % blocks * kFlippedRowsPerItem);
      ph.cost.push_back(move * 2.0 * static_cast<double>(nb * mp * kk));
    }
    work.push_back(std::move(ph));
  } else {
    work.push_back(uniform_phase("pack_weight", LoopKind::kSlots, f.groups * (mp / uk.mr), slots,
                                 static_cast<double>(f.groups) * mp * k_total * 4,
                                 move * 2.0 * static_cast<double>(uk.mr * k_total)));
  }
  if (b.pairs_at > 0) {
    const int64_t blocks = ceil_div(k_total, kGemmKc);
    WorkPhase ph = uniform_phase("pair_weight", LoopKind::kSlots, f.groups * blocks, slots,
                                 static_cast<double>(f.groups) * mp * k_total, 0);
    for (int64_t item = 0; item < f.groups * blocks; ++item) {
      ph.cost.push_back(move * static_cast<double>(mp * std::min(kGemmKc, k_total - item % blocks * kGemmKc)));
    }
    work.push_back(std::move(ph));
  }
  // Items as gemm_forward cuts them: row chunks outermost, then (sample, group, tile).
  const ShiftedGeometry geo(f);
  const int64_t positions = b.shifted ? geo.q_len : f.y_plane(), tiles = ceil_div(positions, b.tile);
  const int64_t rows = b.shifted ? b.rows_per_item : m, per_chunk = f.batch * f.groups * tiles;
  WorkPhase items = uniform_phase("items", LoopKind::kSlots, b.items, slots, b.flops / 2, 0);
  for (int64_t item = 0; item < b.items; ++item) {
    const int64_t r0 = item / per_chunk * rows, p0 = item % per_chunk % tiles * b.tile;
    const int64_t rows_i = std::min(rows, m - r0), nt = std::min(b.tile, positions - p0);
    const double macs = static_cast<double>(round_up(rows_i, uk.mr)) * round_up(nt, uk.nr) * k_total;
    const int64_t b_moved = b.shifted ? cx * (nt + geo.max_shift) : k_total * nt;  // windows, or im2col's B
    items.cost.push_back(macs + move * static_cast<double>(b_moved + rows_i * nt));
  }
  work.push_back(std::move(items));
  return work;
}

}  // namespace

std::string call_kind_refusal(const Canonical &c, bool transposed) {
  if (c.transposed == transposed) return "";
  return c.transposed ? "transposed call: gradInput is the forward relation"
                      : "not transposed: gradInput is the backward-data relation";
}

namespace {

// The NN kernel (or its pair kernel), and the layout its B comes from: the shifted boxes' windows, or phase windows at
// a stride.
std::string forward_kernel(const GemmKernels &k, const ForwardBlocking &b) {
  return std::string(b.pairs_at > 0 ? k.bf16->name : k.nn->name) + (b.shifted ? "+shifted" : "") +
         (b.phase_window > 0 ? "+phases" : "");
}

}  // namespace

std::string gemm_forward_refusal(const Canonical &c) { return call_kind_refusal(c, true); }

bool gemm_forward_run(const Canonical &c, const GemmKernels &k, const ForwardBlocking &b, const GemmScratch &s,
                      const Rounding &rounding) {
  return gemm_forward(c, false, k, b, s, rounding, c.grad_input);
}

std::string gemm_forward_kernel(const GemmKernels &k, const ForwardBlocking &b) { return forward_kernel(k, b); }

Work gemm_forward_work(const Canonical &c, const GemmKernels &k, const ForwardBlocking &b, const Rounding &,
                       int slots) {
  return forward_work(c, false, k, b, slots);
}

std::string gemm_flipped_forward_refusal(const Canonical &c) {
  std::string why = call_kind_refusal(c, false);
  if (why.empty() && !unit_stride(c)) {
    why = "stride " + stride_text(c) + " is not 1 (the flipped forward relation would read inserted zeros)";
  }
  return why;
}

bool gemm_flipped_forward_run(const Canonical &c, const GemmKernels &k, const ForwardBlocking &b, const GemmScratch &s,
                              const Rounding &rounding) {
  return gemm_forward(c, true, k, b, s, rounding, c.grad_input);
}

std::string gemm_flipped_forward_kernel(const GemmKernels &k, const ForwardBlocking &b) { return forward_kernel(k, b); }

Work gemm_flipped_forward_work(const Canonical &c, const GemmKernels &k, const ForwardBlocking &b, const Rounding &,
                               int slots) {
  return forward_work(c, true, k, b, slots);
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu

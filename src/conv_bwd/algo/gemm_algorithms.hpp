// The fast algorithms: each output as GEMMs over operands packed on the fly (implicit im2col, no whole-tensor
// buffer), fp32 products and fp32 accumulation as in the cube, on the microkernel of the plan's ISA.
//
//   gemm_weight:         dW[g] (Cy_g × Cx_g·K) = dy[g] (Cy_g × N·Ospace) · im2col(x[g])ᵀ, the long K cut into
//                        a fixed number of parts whose fp32 partial sums are added in part order
//   gemm_weight_shifted: the same product with y positions laid out on x's padded rows (a stride splits x into
//                        phase boxes) so that each tap's im2col row is a packed x box shifted (shifted_geometry.hpp);
//                        with an RA kernel transposed, dWᵀ = im2col(x) · dyᵀ (RaLayout)
//   gemm_backward_data:  dcol (Cx_g·K × tile) = w[g]ᵀ · dy tile, scattered into dx (col2im; only real
//                        products: a stride leaves no inserted zeros to multiply)
//   gemm_forward:        y tile (Cy_g × tile) = w[g] · im2col(x[g]) tile  (gradInput of a transposed call; and,
//                        with the weight transposed and its taps reversed, gradInput of a stride-1 convolution:
//                        no col2im, one sum per element)
//
// Determinism: every output element is one fp32 sum whose order depends only on the problem and the ISA
// (fixed K blocks, fixed position tiles), never on how work items are spread over threads.
// Exact IEEE semantics: the only terms that are not in the defining sums are products with the zeros of the
// implicit padding; they change a result only when the other factor is Inf or NaN. gemm_weight and gemm_forward
// therefore report whether that factor held a non-finite value, and the caller recomputes with the reference.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "conv_bwd/algo/packing.hpp"
#include "conv_bwd/algo/rounding.hpp"
#include "conv_bwd/canonical.hpp"
#include "conv_bwd/kernels/gemm_bf16_ukernel.hpp"
#include "conv_bwd/kernels/gemm_nt_bf16_ukernel.hpp"
#include "conv_bwd/kernels/gemm_nt_ukernel.hpp"
#include "conv_bwd/kernels/gemm_ra_bf16_ukernel.hpp"
#include "conv_bwd/kernels/gemm_ra_ukernel.hpp"
#include "conv_bwd/kernels/gemm_ukernel.hpp"
#include "conv_bwd/kernels/rows.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

constexpr int64_t kGemmKc = 256;                       // K block: fixed, so sums never depend on the partition
constexpr int64_t kMaxSlotFloats = int64_t{64} << 20;  // 256 MiB of scratch per thread at most (else: refused)
constexpr int64_t kWeightKParts = 4;  // gemm_weight's partial sums over K (at most; fewer K blocks, fewer parts)
// gemm_weight: a group's dW of this many floats or more (4 MiB, past a core's L2) is summed in one K part: its rows and
// columns give items enough, and each part would be a partial that large, read back from memory.
constexpr int64_t kWeightWholeKFloats = int64_t{1} << 20;
constexpr int64_t kWeightMaxBoxFloats = int64_t{16} << 10;  // gemm_weight: x boxes of a block at most (64 KiB)
constexpr double kWeightByTapMaxInside = 0.95;  // gemm_weight by tap up to this share of im2col entries inside x
// The NT gradWeight loops take dy rows in passes of kNtRowTiles MR-row tiles, which stay in L2 while every column of
// the item goes by; rows that are packed (not read where they lie) are packed pass by pass (nt_pass_rows per pass).
constexpr int64_t kNtRowTiles = 8;
inline int64_t nt_pass_rows(int64_t m, int mr) { return std::min(round_up(m, mr), kNtRowTiles * mr); }
constexpr int64_t kWeightNtKc = 1024;       // gemm_weight's K block with the NT kernel (long dot products)
constexpr int64_t kWeightNtMinPlane = 512;  // y positions per sample from which gemm_weight uses the NT kernel
// gemm_weight and gemm_weight_shifted also cut their items along dW's rows when their column chunks give fewer than
// kWeightItemsPerThread items per thread, from kWeightRowSplitThreads threads on (at 1-2 threads the column chunks
// alone are as tuned and measured there). An element's sum is the same whichever item computes it, so the bits do not
// change.
constexpr int64_t kWeightItemsPerThread = 2;
constexpr int kWeightRowSplitThreads = 4;
constexpr int64_t kWeightItemTiles = 1;  // an item's fixed cost in row tiles' kernel time, when splitting rows
// gemm_weight_shifted takes a 1×1 kernel (the NT kernel on rows read where they lie) only on planes of at least this
// many y positions; on shorter ones each K block's dot products are short, padded to whole vectors and reduced across
// lanes every block, and gemm_weight's NN product is faster (AVX-512, one thread, 512 → 512 channels, time of NN / NT:
// 7² 0.41, 10² 0.50-0.60, 14² 0.76-0.79, 16² 0.88-0.97, 20² 1.0-1.07).
constexpr int64_t kShiftedOneTapMinPlane = 384;
// Nor planes of at most kShiftedSmallPlane y positions where a group has kShiftedSmallPlaneChannels (x × output
// channels) or more: each sample's plane is one short K block, and gemm_weight's NN product over all samples'
// positions is faster. AVX-512 (Zen 5), 3 × 3, mini-batch 8, one thread, ms shifted / NN: 7² 128 → 128 0.9-1.0 /
// 1.4, 256 → 256 4.7-5.3 / 4.3-6.4 (mini-batch 32: 15-17 / 21), 384 → 384 10.1-10.8 / 9.4, 512 → 256 13.4 / 8.7-9.4,
// 512 → 512 23-25 / 17-18, 1024 → 1024 122-147 / 69-70; 9² 128 → 128 1.3-1.6 / 2.7-2.8, 512 → 512 34-36 / 26-27;
// 11² and 14² 512 → 512 even.
constexpr int64_t kShiftedSmallPlane = 100;
constexpr int64_t kShiftedSmallPlaneChannels = 512 * 256;
constexpr int64_t kShiftedKc =
    1024;  // gemm_weight_shifted's K block: long, as each tile's lanes are reduced once per block
// gemm_weight_shifted with the RA kernel: K blocks of about this many q positions (512 measured 2-5 % faster than
// 256 and 1024 on ResNet's 56² 3×3, the 1-D and the 3-D layers), and at least this many columns per group.
constexpr int64_t kShiftedRaKc = 512;
// Its K blocks are at most kShiftedRaKc q positions (⌈q_len / blocks⌉ ≤ 512 rounded up to lanes, which divide it), so
// at most that many real ones: the RA kernel's table of K steps.
static_assert(kShiftedRaKc % 16 == 0, "a multiple of every kernel's lanes");
constexpr int64_t kMaxRaSteps = kShiftedRaKc;
constexpr int64_t kShiftedRaMinColumns = 64;
constexpr int64_t kMaxSharedDyBytes = int64_t{64}
                                      << 20;  // gemm_weight_shifted: dy packed once up to this, else per item
constexpr int64_t kShiftedWindowFloats = int64_t{64} << 10;  // gemm_weight_shifted: x windows per item (L2-sized)
constexpr int64_t kForwardRowsFloats = int64_t{128} << 10;   // gemm_forward (shifted): weight rows per item (L2-sized)
// A 1×1 kernel at stride 1 without pads on y as large as x: y positions map onto x positions one to one, so
// gemm_backward_data's dcol is gradInput's planes (no col2im) and gradWeight's im2col rows are x's rows.
inline bool positions_one_to_one(const Canonical &c) {
  for (int d = 0; d < kSpatial; ++d) {
    if (c.kernel[d] != 1 || c.stride[d] != 1 || c.pad_begin[d] != 0 || c.x_size[d] != c.y_size[d]) return false;
  }
  return true;
}

// gemm_forward's phase windows: the most x channels one K block of kGemmKc (channel, tap) steps touches (a block
// can start on a channel's last tap and end on another's first).
inline int64_t phase_window_channels(int64_t channels, int64_t taps) {
  return std::min(channels, (kGemmKc - 1) / taps + 2);
}
constexpr int64_t kFlippedRowsPerItem = 8;  // gemm_forward (flipped, shifted): weight rows read per packing item
// gemm_backward_data on fewer x planes than this (a stem's 3 input channels, wav2vec's 1): the y positions (or a
// channel's taps) are also cut into up to kDataParts parts, each adding into its own x planes, added in order at the
// end (fixed by the problem, never by the threads, as the K parts of gradWeight).
constexpr int64_t kMaxInPlaceBPages =
    64;  // gemm_backward_data: B rows of a page or more read in place, fewer than this
constexpr int64_t kDataWholeAFloats = 256 * 1024;  // gemm_backward_data: the weight packed whole up to this (1 MB)
constexpr int64_t kDataPartsBelowPlanes = 8;
// gemm_pointwise_data takes planes of fewer positions than this; at most this many x channels per item (its dxᵀ tile
// of up to kPointwisePositions positions stays in L2).
constexpr int64_t kPointwiseMaxPlane = 128;
constexpr int64_t kPointwiseChannels = 512;
constexpr int64_t kPointwisePositions = 128;
constexpr int64_t kDataParts = 4;
constexpr int64_t kMaxSharedBytesOfParts = int64_t{64} << 20;  // above: one part (the planes stay per item)

// The microkernels of one ISA.
struct GemmKernels {
  const GemmUkernel *nn;
  const GemmNtUkernel *nt;
  const RowKernels *rows;   // the strided-row kernels (depthwise, direct_data, col2im, gradBias)
  const GemmRaUkernel *ra;  // gemm_weight_shifted's transposed product for the problem's output channels per group
                            // (gemm_ra_ukernel; nullptr: the ISA has none)
  // For calls computing in BF16, the pair kernel standing in for `nn` where its panels allow (gemm_bf16_ukernel.hpp;
  // nullptr: another compute format, or the ISA has none).
  const GemmBf16Ukernel *bf16 = nullptr;
  // Likewise the pair kernels standing in for `ra` (gemm_ra_bf16_ukernel.hpp) and `nt` (gemm_nt_bf16_ukernel.hpp).
  const GemmRaBf16Ukernel *ra_bf16 = nullptr;
  const GemmNtBf16Ukernel *nt_bf16 = nullptr;
};

// How an algorithm cuts its work, the part every algorithm has: `items` independent work items, each using
// `slot_floats` of scratch, and one area of `shared_floats` all items share. Each algorithm's own choices follow in
// its configuration (below; depthwise.hpp for the direct algorithms).
struct Blocking {
  int64_t items = 0;
  int64_t slot_floats = 0;
  int64_t shared_floats = 0;
  double flops = 0;  // multiply-adds × 2 of the whole output
};

// gemm_weight.
struct WeightBlocking : Blocking {
  int64_t k_parts = 1;            // fixed number of partial sums over K (never the thread count)
  bool nt = false;                // NT kernel (dy and im2col rows copied) instead of NN (transposed)
  int64_t kc = 0;                 // y positions per K block (one sample's), or room for the whole planes below
  int64_t samples_per_block = 1;  // NN on planes shorter than kc: a K block is the whole planes of this many samples
  int64_t cols_per_item = 0;      // columns of dW per item (a multiple of NR)
  int64_t box_floats = 0;         // NN on whole planes: a channel's padded x box per sample of a block (0: im2col runs)
  int64_t rows_per_item = 0;      // dW rows (output channels) per item: all of Cy_g rounded up to MR, or fewer (a
                                  // multiple of MR) when the column chunks give too few items for the threads
  // With GemmKernels::nt_bf16 (NT) or bf16 (NN): where the slot's pair areas start (NT: dy's MR-rounded rows, then
  // the item's columns, each nt_pair_words of the K block; NN: the A pair panels of rows_per_item lines, then the B
  // ones of cols_per_item, each pair_steps(kc) words per line); 0: none.
  int64_t pairs_at = 0;
  // NN on whole planes where taps read padding: dW's columns by tap (WeightTapSlot). An item takes whole x channels
  // (cols_per_item = channels · taps); each tap's B panels hold only the positions it reads inside x, and the RA
  // kernel (GemmKernels::ra, or ra_bf16 for calls computing in BF16) reads dy's lines at those positions from a
  // table, so no product of the padding is computed (18 % of ResNet's 3 × 3 layer at 7²).
  bool by_tap = false;
};

// gemm_weight by tap: where a slot's areas start (float offsets) and the tap-major accumulator's shape. dy's lines
// (rows_per_item × kc), each tap's B panels (taps × channel_cols × kc), the lines packing fetches (kPackLineBlock),
// the x boxes of a panel's channels (nr × samples_per_block boxes), the sums (rows_per_item × taps × channel_cols:
// tap t's channel ch at column t · channel_cols + ch), the K step table (kc int32) and a dW row in dW's order (the
// item's columns, for gradWeight not written in place). With the BF16 pair kernel (`pairs`) then: dy's lines as
// reversed BF16 windows (kc + 2 words each, the word after the last value zero), a tap's B pair panels (channel_cols
// × kc words) and its pair steps and runs (kc int32 each); `windows` is then the blocking's pairs_at.
struct WeightTapSlot {
  int64_t channel_cols, sums_ld;
  int64_t lines = 0, panels, tmp, boxes, sums, steps, row, windows = 0, pair_panels = 0, pair_at = 0, run_steps = 0;
  int64_t floats;
  WeightTapSlot(const Canonical &c, const WeightBlocking &b, int64_t nr, bool pairs)
      : channel_cols(round_up(b.cols_per_item / c.kernel_numel(), nr)), sums_ld(c.kernel_numel() * channel_cols) {
    panels = round_up(b.rows_per_item * b.kc, 16);
    tmp = panels + round_up(sums_ld * b.kc, 16);
    boxes = tmp + round_up(kPackLineBlock * b.kc, 16);
    sums = boxes + round_up(nr * b.samples_per_block * b.box_floats, 16);
    steps = sums + round_up(b.rows_per_item * sums_ld, 16);
    row = steps + round_up(b.kc, 16);
    floats = row + b.cols_per_item;
    if (!pairs) return;
    windows = round_up(floats, 16);
    pair_panels = windows + round_up(b.rows_per_item * window_words(b), 32) / 2;
    pair_at = pair_panels + round_up(channel_cols * b.kc, 16);
    run_steps = pair_at + b.kc;
    floats = run_steps + b.kc;
  }
  static int64_t window_words(const WeightBlocking &b) { return b.kc + 2; }
};

// gemm_weight's slot: K blocks' floats of tmp after the panels' room, the lines packing fetches before they go into a
// panel (packing.hpp's pack_panels_by_lines: kPackLineBlock of them for the NN kernel, one for NT).
inline int64_t weight_tmp_lines(bool nt) { return nt ? 1 : kPackLineBlock; }

// gemm_weight's K blocks, in the order their products are summed: kb-th block = positions [o0, o0 + positions) of
// each of `samples` consecutive samples from n (one sample unless its plane is shorter than the block).
struct WeightKBlock {
  int64_t n = 0, samples = 0, o0 = 0, positions = 0;

  WeightKBlock() = default;
  WeightKBlock(const Canonical &c, const WeightBlocking &b, int64_t kb) {
    const int64_t plane = c.y_plane(), per_sample = ceil_div(plane, b.kc);
    n = kb / per_sample * b.samples_per_block;
    samples = std::min(b.samples_per_block, c.batch - n);
    o0 = kb % per_sample * b.kc;
    positions = std::min(b.kc, plane - o0);
  }
  int64_t len() const { return samples * positions; }
  static int64_t count(const Canonical &c, const WeightBlocking &b) {
    return ceil_div(c.batch, b.samples_per_block) * ceil_div(c.y_plane(), b.kc);
  }
};

// gemm_weight's x box: the part of a channel's padded x plane its taps read, extent[d] = (y − 1)·s + (k − 1)·dil + 1
// per spatial dim from x index −pad_begin; a tap's im2col line is then a few row copies from it.
struct XBox {
  int64_t extent[kSpatial];
  explicit XBox(const Canonical &c) {
    for (int d = 0; d < kSpatial; ++d)
      extent[d] = (c.y_size[d] - 1) * c.stride[d] + (c.kernel[d] - 1) * c.dilation[d] + 1;
  }
  int64_t floats() const { return extent[0] * extent[1] * extent[2]; }
};

// gemm_weight_shifted: NT kernel, or RA (the transposed product).
struct ShiftedWeightBlocking : Blocking {
  int64_t k_parts = 1;            // as WeightBlocking's
  bool ra = false;                // the transposed product on the RA kernel instead of NT
  int64_t kc = 0;                 // q positions per K block
  int64_t channels_per_item = 0;  // x channels per item
  int64_t rows_per_item = 0;      // output channels (dW rows) per item, as WeightBlocking's (RA: a multiple of its NR)
  bool shared_dy = false;         // dy's q-space rows (RA: transposed) packed once, after the partial sums
  int64_t pairs_at = 0;           // with GemmKernels::ra_bf16 (RA) or nt_bf16 (NT): where the slot's pair areas start
                                  // (RaPairLayout, NtPairLayout); 0: none
};

// Pair panels made once in the shared area for every item that reads them (gemm_backward_data): per unit its
// exponent floor (an int in a float's place), then the units' panels, unit_floats apart (64-byte aligned).
struct SharedPairs {
  int64_t at = -1;  // floats from the shared area's start; -1: none
  int64_t units = 0, unit_floats = 0;

  bool on() const { return at >= 0; }
  int64_t floats() const { return on() ? round_up(units, 16) + units * unit_floats : 0; }
  int *floors(float *shared) const { return reinterpret_cast<int *>(shared + at); }
  uint32_t *unit(float *shared, int64_t u) const {
    return reinterpret_cast<uint32_t *>(shared + at + round_up(units, 16) + u * unit_floats);
  }
};

// fp32 A panels made once in the shared area for every item that reads them (gemm_backward_data): the units' whole-K
// panels, unit_floats apart (64-byte aligned).
struct SharedPanels {
  int64_t at = -1;  // floats from the shared area's start; -1: none
  int64_t units = 0, unit_floats = 0;

  bool on() const { return at >= 0; }
  int64_t floats() const { return on() ? units * unit_floats : 0; }
  float *unit(float *shared, int64_t u) const { return shared + at + u * unit_floats; }
};

// gemm_backward_data.
struct DataBlocking : Blocking {
  int64_t tile = 0;               // y positions per tile (fixed per ISA)
  int64_t kc = 0;                 // the K steps its packed weight holds (all of K, or one block of kGemmKc)
  int64_t channels_per_item = 0;  // x channels per item
  int64_t position_parts = 1;     // parts of the y positions with their own x planes
  int64_t tap_parts = 1;          // parts of a channel's taps, likewise (one channel per item)
  // Planes of at most half a tile: the planes of this many samples side by side in an item's one tile (positions flat
  // over the samples), each sample's dcol columns added into its own x planes as a whole plane's would be.
  int64_t samples_per_tile = 1;
  // Items' runs of samples: [i · samples_per_tile, …) of the batch (the last one may hold fewer).
  int64_t sample_runs(const Canonical &c) const { return ceil_div(c.batch, samples_per_tile); }
  int64_t pairs_at = 0;  // with GemmKernels::bf16: where the slot's pair panels start (bf16_pair_floats)
  // With GemmKernels::bf16 and BF16 operands (gemm_blocking.cpp): the weight's A pair panels, whole K per unit
  // (group, block of x channels), when several items read each unit; gradOutput's B pair panels per unit (run of
  // samples, group, tile, K block), when several blocks of x channels read each. After the parts' x planes.
  SharedPairs shared_a, shared_b;
  // Without pair kernels: the weight's fp32 A panels, whole K per unit (group, block of x channels), when several
  // runs of samples or position parts read each unit. After the parts' x planes.
  SharedPanels shared_weight;
};

// gemm_pointwise_data: an item is (group, chunk of positions flat over the samples, chunk of x channels); the shared
// area holds the weight as B panels.
struct PointwiseBlocking : Blocking {
  int64_t positions_per_item = 0;  // a multiple of MR
  int64_t channels_per_item = 0;   // a multiple of NR, or all of Cx_g
};

// gemm_forward (both uses: the transposed call's gradInput and the flipped stride-1 one).
struct ForwardBlocking : Blocking {
  int64_t tile = 0;           // y positions per tile
  int64_t rows_per_item = 0;  // the shifted layout: output channels per item (a multiple of MR)
  bool shifted = false;       // the shifted layout (stride 1, several taps) instead of im2col
  int64_t phase_window = 0;   // at a stride, several taps: floats of one stride phase's window of an x channel over
                              // a tile (B packed from them, not by im2col); 0 otherwise
  // With GemmKernels::bf16, outside the shifted layout (0 otherwise): where the slot's B pair panels start, and
  // where the weight's pair panels start in the shared area (forward_weight_pairs).
  int64_t pairs_at = 0, weight_pairs_at = 0;
};

// Pair steps of K = k_total cut into kGemmKc blocks: Σ pair_steps over the blocks (gemm_forward's weight as pairs,
// group g's at g·Mp·this, block k0's at (k0 / 2)·Mp within it: every block before the last is kGemmKc, even, long).
inline int64_t forward_weight_pairs(int64_t k_total) {
  return k_total / kGemmKc * (kGemmKc / 2) + pair_steps(k_total % kGemmKc);
}

WeightBlocking gemm_weight_blocking(const Canonical &c, const GemmKernels &k, int threads);
ShiftedWeightBlocking gemm_weight_shifted_blocking(const Canonical &c, const GemmKernels &k, int threads);
DataBlocking gemm_backward_data_blocking(const Canonical &c, const GemmKernels &k, int threads);
PointwiseBlocking gemm_pointwise_data_blocking(const Canonical &c, const GemmKernels &k, int threads);
ForwardBlocking gemm_forward_blocking(const Canonical &c, const GemmKernels &k, int threads);
ForwardBlocking gemm_flipped_forward_blocking(const Canonical &c, const GemmKernels &k, int threads);

// gemm_weight_shifted's RA areas, after an item's x windows: NR dy rows (packed, then transposed), the dy block
// transposed (panels of NR output channels: kc steps of NR floats each) and, when items sum several K blocks, the
// item's dW columns transposed (one row of the group's output channels per (x channel, tap) column, MR-rounded),
// summed over its K blocks. (An item of one K block has the kernel store its tiles into dW's rows transposed.)
// With the dy blocks transposed once for all items (ShiftedWeightBlocking::shared_dy) a slot has no block of its own;
// its rows area is where the shared blocks are packed through, before the items run.
struct RaLayout {
  int64_t row, panels, cols;

  RaLayout(const GemmRaUkernel &ra, int64_t m, int64_t kc, int64_t columns, bool shared_dy, bool several_blocks)
      : row(ra.nr * kc),
        panels(shared_dy ? 0 : block_floats(ra, m, kc)),
        cols(several_blocks ? round_up(columns, ra.mr) * round_up(m, ra.nr) : 0) {}
  int64_t floats() const { return row + panels + cols; }
  // One dy block transposed (also the shared area's step).
  static int64_t block_floats(const GemmRaUkernel &ra, int64_t m, int64_t kc) { return round_up(m, ra.nr) * kc; }
};

// gemm_weight_shifted's pair areas (RA with GemmKernels::ra_bf16), after the slot's other areas: the item's x windows
// as one reversed BF16 window (gemm_ra_bf16_ukernel.hpp; `windows` floats of fp32 windows and a zero after them),
// then the dy block's pair panels (at most as many words as its fp32 panels have floats; when the pair panels come
// from the shared area, the area holds the block's fp32 panels for a block the fp32 kernel takes, so it keeps the fp32
// panels' size).
struct RaPairLayout {
  int64_t panels_at, floats;

  RaPairLayout(const GemmRaUkernel &ra, int64_t windows, int64_t m, int64_t kc)
      : panels_at(round_up(windows / 2 + 1, 16)), floats(panels_at + RaLayout::block_floats(ra, m, kc)) {}
};

// gemm_weight_shifted's pair areas (NT with GemmKernels::nt_bf16), after the slot's other areas: one pass of dy rows
// as NT pair rows (gemm_nt_bf16_ukernel.hpp), then the item's columns (x channels × taps) as pair rows.
struct NtPairLayout {
  int64_t words, columns_at, floats;

  NtPairLayout(const GemmNtUkernel &nt, int64_t m, int64_t kc, int64_t columns)
      : words(nt_pair_words(kc)),
        columns_at(nt_pass_rows(m, nt.mr) * words),
        floats(columns_at + round_up(columns, nt.nr) * words) {}
};

// Where gemm_weight_shifted's shared dy rows start in the shared area (floats): after the partial sums, on a 64-byte
// boundary (its rows are whole vectors: lda is the K block rounded to the NT kernel's lanes).
inline int64_t shared_dy_offset(const ShiftedWeightBlocking &b, const Canonical &c) {
  return (b.k_parts * c.groups * c.cy_per_group * c.cx_per_group * c.kernel_numel() + 15) / 16 * 16;
}

// Floats of a slot holding BF16 pair panels (gemm_bf16_ukernel.hpp) of an A pack of a_lines × a_steps and a B pack of
// b_lines × b_steps: A's from the start, B's from a_pair_floats(a_lines, a_steps) on (64-byte aligned).
inline int64_t a_pair_floats(int64_t a_lines, int64_t a_steps) { return round_up(a_lines * pair_steps(a_steps), 16); }
inline int64_t bf16_pair_floats(int64_t a_lines, int64_t a_steps, int64_t b_lines, int64_t b_steps) {
  return a_pair_floats(a_lines, a_steps) + b_lines * pair_steps(b_steps);
}

// Scratch for the work: `slots` areas of slot_floats floats each, 64-byte aligned, and the shared area.
struct GemmScratch {
  float *shared = nullptr;
  float *base = nullptr;
  int64_t slot_stride = 0;  // floats between slots
  int slots = 1;
};

// Each returns false when a non-finite operand met a padding zero (the result may then hold a NaN the defining
// sums do not have; the caller recomputes that output with the reference).
bool gemm_weight(const Canonical &c, const GemmKernels &k, const WeightBlocking &b, const GemmScratch &s,
                 const Rounding &rounding, const View5 &grad_weight);
bool gemm_weight_shifted(const Canonical &c, const GemmKernels &k, const ShiftedWeightBlocking &b, const GemmScratch &s,
                         const Rounding &rounding, const View5 &grad_weight);
bool gemm_backward_data(const Canonical &c, const GemmKernels &k, const DataBlocking &b, const GemmScratch &s,
                        const Rounding &rounding, const View5 &grad_input);
// flipped = false: the transposed call's gradInput; true: a stride-1 convolution's gradInput (see gemm_forward.cpp).
bool gemm_forward(const Canonical &c, bool flipped, const GemmKernels &k, const ForwardBlocking &b,
                  const GemmScratch &s, const Rounding &rounding, const View5 &grad_input);

// Why an algorithm of gradInput that serves one kind of call (a transposed call's, whose gradInput is the forward
// relation, or a convolution's) cannot take c: "" when c is of that kind.
std::string call_kind_refusal(const Canonical &c, bool transposed);

// The forward problem whose output is a stride-1 convolution's gradInput (gemm_forward with flipped = true).
Canonical flipped_problem(const Canonical &c);

}  // namespace conv_bwd
}  // namespace aclnn_cpu

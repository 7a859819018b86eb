// How the GEMM algorithms cut their work (pure functions of the problem, the kernel and the thread count).
// Only the K blocks and the position tiles fix the order of sums; they depend on the kernel's NR at most, never
// on the thread count. Item sizes may follow the thread count: they only decide who computes what.
#include <algorithm>

#include "conv_bwd/algo/gemm_algorithms.hpp"
#include "conv_bwd/algo/im2col.hpp"
#include "conv_bwd/algo/packing.hpp"
#include "conv_bwd/algo/shifted_geometry.hpp"
#include "conv_bwd/plan_steps.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

// Positions per tile of gemm_backward_data: fixed per kernel, because col2im adds tiles in order.
int64_t position_tile(const GemmUkernel &uk) { return 8 * static_cast<int64_t>(uk.nr); }

// What an item of `chunk` units costs, in units of kernel work: its lines (a unit is `per_unit` lines of the
// kernel's tiles, `tile` lines each) rounded up to whole tiles, plus a fixed per-item overhead; and `tail` chunks for
// a thread that starts late (waking a sleeping virtual CPU took up to 3 ms here) and finishes the last item.
struct ChunkCost {
  double overhead;
  double tail = 1.0;
  int64_t per_unit = 1, tile = 1;

  double work(int64_t chunk) const {
    return static_cast<double>(round_up(chunk * per_unit, tile)) / static_cast<double>(per_unit);
  }
};

// The chunk size (1 .. max_chunk) that cuts `units` × `total` into items finishing soonest on `threads`
// threads: rounds of items per thread × an item's cost, plus the tail.
int64_t best_chunk(int64_t units, int64_t total, int64_t max_chunk, int threads, const ChunkCost &cost) {
  int64_t best = 1;
  double best_time = -1;
  const int64_t last = std::max<int64_t>(1, std::min(max_chunk, total));
  count_plan_steps(last);
  for (int64_t chunk = 1; chunk <= last; ++chunk) {
    const int64_t items = units * ceil_div(total, chunk);
    const double rounds = static_cast<double>(ceil_div(items, threads));
    const double late = threads > 1 ? cost.tail * static_cast<double>(chunk) : 0.0;
    const double time = rounds * (cost.work(chunk) + cost.overhead) + late;
    if (best_time < 0 || time < best_time) {
      best = chunk;
      best_time = time;
    }
  }
  return best;
}

// A chunk in [1, max_chunk] (max_chunk, shrunk by quarters) whose slot (slot_of(chunk) floats) stays within
// kMaxSlotFloats; 1 if none does. The plan refuses an algorithm only when even chunk 1 is too large, which does not
// depend on the thread count, so neither does the choice of algorithm (nor, therefore, the bits of the result).
template <typename SlotOf>
int64_t cap_chunk(int64_t max_chunk, SlotOf slot_of) {
  int64_t chunk = std::max<int64_t>(1, max_chunk);
  while (chunk > 1 && slot_of(chunk) > kMaxSlotFloats) {
    chunk = chunk * 3 / 4;
    count_plan_steps(1);
  }
  return chunk;
}

double gemm_flops(const Canonical &c) {
  return 2.0 * static_cast<double>(c.batch) * c.groups * c.cy_per_group * c.cx_per_group * c.kernel_numel() *
         c.y_plane();
}

// gemm_backward_data on pairs: which pair panels are made once for every item (DataBlocking::shared_a, shared_b).
// Each item otherwise converts the weight block it multiplies and every gradOutput block it reads: at mini-batch 16
// ResNet's 3 × 3 layer at 14² converted its weight 16 times and gradOutput once per block of x channels (10 times),
// 13 % of the call. Only operands the pair panels are made from where they lie: BF16, the weight's rows and
// gradOutput's planes dense, within kMaxSharedDyBytes each.
void share_data_pairs(const Canonical &c, const GemmUkernel &uk, DataBlocking *b) {
  const int64_t kk = c.kernel_numel(), blocks = ceil_div(c.cx_per_group, b->channels_per_item);
  const int64_t tiles = ceil_div(c.y_plane(), b->tile), k_blocks = ceil_div(c.cy_per_group, kGemmKc);
  // FP32 gradInput of a 1 × 1 layer may be the kernel's C (gemm_backward_data.cpp): the fp32 kernel then.
  if (positions_one_to_one(c) && c.grad_input.dtype == ACL_FLOAT) return;
  auto fits = [](const SharedPairs &p) {
    return p.floats() * static_cast<int64_t>(sizeof(float)) <= kMaxSharedDyBytes;
  };
  int64_t at = round_up(b->shared_floats, 16);
  // A: one unit per (group, block), read by every sample's and position part's item of the block. Not with tap parts
  // (an item's A is then part of a channel's taps).
  const bool a_rows = c.w.dtype == ACL_BF16 && c.w.contiguous_rows();
  if (a_rows && b->tap_parts == 1 && b->sample_runs(c) * b->position_parts > 1) {
    SharedPairs a;
    a.at = at;
    a.units = c.groups * blocks;
    a.unit_floats = round_up(round_up(b->channels_per_item * kk, uk.mr) * pair_steps(c.cy_per_group), 16);
    if (fits(a)) {
      b->shared_a = a;
      at = round_up(at + a.floats(), 16);
    }
  }
  // B: one unit per (run of samples, group, tile, K block), read by every block's and tap part's item.
  const bool b_planes = c.y.dtype == ACL_BF16 && c.y.contiguous_planes();
  if (b_planes && blocks * b->tap_parts > 1) {
    SharedPairs p;
    p.at = at;
    p.units = b->sample_runs(c) * c.groups * tiles * k_blocks;
    p.unit_floats = round_up(b->tile * pair_steps(kGemmKc), 16);
    if (fits(p)) {
      b->shared_b = p;
      at = round_up(at + p.floats(), 16);
    }
  }
  if (b->shared_a.on() || b->shared_b.on()) b->shared_floats = at;
}

// gemm_backward_data without pair kernels: the weight's fp32 A panels packed once for every item of a (group, block of
// x channels) unit (DataBlocking::shared_weight). Each item otherwise packs its block of the weight again: at 7² a
// sample is one tile, so ResNet's 3 × 3 layer at 512 channels packed its 9.4 MB weight once per sample (14 % of the
// call at mini-batch 8, one thread). Its gradInput, mini-batch 8: one thread 17.6-19.6 -> 15.0-15.4 ms, two 9.8-10.9 ->
// 8.9-9.8; at 14² two threads 7.2 -> 6.5, the 1-D layer and the 1 × 1 stride 2 3-6 % (cold demo calls, interleaved).
// Only with several samples (a sample's position parts each pack their block once, for all their tiles when it fits),
// and not with tap parts (an item's A is then part of a channel's taps).
void share_data_weight(const Canonical &c, const GemmUkernel &uk, DataBlocking *b) {
  if (b->tap_parts != 1 || b->sample_runs(c) < 2) return;
  SharedPanels a;
  a.at = round_up(b->shared_floats, 16);
  a.units = c.groups * ceil_div(c.cx_per_group, b->channels_per_item);
  a.unit_floats = round_up(round_up(b->channels_per_item * c.kernel_numel(), uk.mr) * c.cy_per_group, 16);
  if (a.floats() * static_cast<int64_t>(sizeof(float)) > kMaxSharedDyBytes) return;
  b->shared_weight = a;
  b->shared_floats = a.at + a.floats();
}

// gemm_weight's (and gemm_weight_shifted's) dW rows per item (a multiple of mr): all of them, unless `column_items`
// leave fewer than kWeightItemsPerThread items per thread; then, of the even row cuts that give at least that many
// items, the one whose rounds over the threads end soonest, an item's fixed cost (packing its columns) counted as
// kWeightItemTiles row tiles. (The fewest cuts that give enough items left ResNet's 3 × 3 512 gradWeight at 7², 48
// column chunks × 3 row chunks, to 64 threads: 3 rounds for 2.25 items' work each.)
int64_t weight_rows_per_item(int64_t m, int64_t mr, int64_t column_items, int threads) {
  const int64_t tiles = std::max<int64_t>(1, ceil_div(m, mr)), wanted = kWeightItemsPerThread * threads;
  if (threads < kWeightRowSplitThreads || column_items >= wanted) return tiles * mr;
  const int64_t least = std::min(tiles, ceil_div(wanted, column_items));
  count_plan_steps(tiles - least + 1);
  int64_t best = ceil_div(tiles, least);
  double best_time = -1;
  for (int64_t chunks = least; chunks <= tiles; ++chunks) {
    const int64_t per_item = ceil_div(tiles, chunks), items = column_items * ceil_div(tiles, per_item);
    const double time =
        static_cast<double>(ceil_div(items, threads)) * static_cast<double>(per_item + kWeightItemTiles);
    if (best_time < 0 || time < best_time) {
      best = per_item;
      best_time = time;
    }
  }
  return best * mr;
}

// gemm_weight on whole planes (boxes): by tap (WeightBlocking::by_tap) where at most kWeightByTapMaxInside of the
// im2col entries lie inside x, the items then cut into whole x channels, about as many columns as chosen for the NN
// kernel. Needs an AVX-512 RA kernel (and its pair kernel for calls computing in BF16), and a panel's channels' boxes
// within kWeightMaxBoxFloats. AVX2's 6 × 16 RA kernel by tap took 1.04× the NN form's time (ResNet-50's 7² 3 × 3 512
// FP32 gradWeight capped to AVX2, Zen 5) despite the 18 % fewer products; NEON's is not measured on hardware.
void by_tap(const Canonical &c, const GemmKernels &k, int threads, WeightBlocking *b) {
  const GemmRaUkernel *ra = k.ra;
  const int64_t kk = c.kernel_numel();
  const double inside = static_cast<double>(im2col_entries_inside(c)) / static_cast<double>(kk * c.y_plane());
  if (ra == nullptr || !ra->built() || ra->isa != Isa::kAvx512 || (k.bf16 != nullptr && k.ra_bf16 == nullptr) ||
      inside > kWeightByTapMaxInside || ra->nr * b->samples_per_block * b->box_floats > kWeightMaxBoxFloats) {
    return;
  }
  WeightBlocking t = *b;
  t.by_tap = true;
  const int64_t channels = std::clamp<int64_t>(t.cols_per_item / kk, 1, c.cx_per_group);
  t.cols_per_item = channels * kk;
  const int64_t column_items = c.groups * t.k_parts * ceil_div(c.cx_per_group, channels);
  t.rows_per_item = weight_rows_per_item(c.cy_per_group, ra->mr, column_items, threads);
  t.items = column_items * ceil_div(c.cy_per_group, t.rows_per_item);
  const WeightTapSlot slot(c, t, ra->nr, k.bf16 != nullptr);
  if (slot.floats > kMaxSlotFloats) return;  // the sums (the item's part of dW) too large for a slot: the NN form
  t.slot_floats = slot.floats;
  t.pairs_at = slot.windows;
  *b = t;
}

}  // namespace

WeightBlocking gemm_weight_blocking(const Canonical &c, const GemmKernels &k, int threads) {
  const GemmUkernel &uk = *k.nn;
  const GemmNtUkernel &nt = *k.nt;
  WeightBlocking b;
  const int64_t m = c.cy_per_group, n = c.cx_per_group * c.kernel_numel();
  // Long planes: the NT kernel reads dy rows and im2col rows as they lie (no transpose while packing);
  // short ones keep the NN kernel, whose cost does not grow with a short K.
  b.nt = c.y_plane() >= kWeightNtMinPlane;
  b.kc = b.nt ? kWeightNtKc : kGemmKc;
  const int64_t mr = b.nt ? nt.mr : uk.mr, nr = b.nt ? nt.nr : uk.nr;
  const int64_t kcp = b.nt ? round_up(std::min(b.kc, c.y_plane()), nt.lanes) : b.kc;
  // K (N × output positions) is long and M × N small: the work is cut along K into a fixed number of parts,
  // so that every part packs its dy rows and im2col columns once, whatever the thread count.
  const int64_t parts = m * n >= kWeightWholeKFloats ? 1 : kWeightKParts;
  // NN on planes shorter than a K block: blocks of whole planes of several samples, as many per K part, so that each
  // kernel call sums a long K and each part's dW is loaded and stored once per block, not once per sample (7² planes:
  // 49 steps per call and 16 passes over dW at mini-batch 16).
  if (!b.nt && c.y_plane() < b.kc) {
    const int64_t per_part = ceil_div(c.batch, std::min(parts, c.batch));
    const int64_t blocks_per_part = ceil_div(per_part, b.kc / c.y_plane());
    b.samples_per_block = ceil_div(per_part, blocks_per_part);
  }
  b.k_parts = std::min(parts, WeightKBlock::count(c, b));
  const int64_t panels = ceil_div(n, nr);
  const int64_t tmp_lines = weight_tmp_lines(b.nt);
  auto slot_of = [&](int64_t per_item) { return round_up(m, mr) * kcp + per_item * nr * kcp + tmp_lines * kcp; };
  const int64_t max_panels = b.nt ? std::max<int64_t>(1, 64 / nr) : panels;  // NT: B rows of a chunk stay in L2
  // An item's fixed cost is packing its dy block (all of it unless FP32 rows are read in place): about 16 panels'
  // worth of kernel time (measured at 2 threads: HF32 1x1 stride-2 gradWeight 2.0 -> 1.14 ms with 16 instead of
  // 0.5; FP32 unchanged).
  const int64_t per_item =
      best_chunk(c.groups * b.k_parts, panels, cap_chunk(std::min(max_panels, panels), slot_of), threads, {16.0});
  b.cols_per_item = per_item * nr;
  const int64_t column_items = c.groups * b.k_parts * ceil_div(panels, per_item);
  b.rows_per_item = weight_rows_per_item(m, mr, column_items, threads);
  b.items = column_items * ceil_div(m, b.rows_per_item);
  b.slot_floats = b.rows_per_item * kcp + b.cols_per_item * kcp + tmp_lines * kcp;
  // NN on whole planes: each channel's x box per sample read once for all its taps (im2col runs of a short plane went
  // segment by segment, each tap reading the plane again).
  const int64_t box = XBox(c).floats();
  if (!b.nt && c.kernel_numel() > 1 && c.y_plane() <= b.kc && b.samples_per_block * box <= kWeightMaxBoxFloats) {
    b.box_floats = box;
    b.slot_floats += b.samples_per_block * box;
  }
  if (b.box_floats > 0) by_tap(c, k, threads, &b);
  // After the choices above, so that they (and the sums) are the fp32 kernel's (by_tap placed its own pair areas).
  if (b.nt && k.nt_bf16 != nullptr) {
    b.pairs_at = round_up(b.slot_floats, 16);
    b.slot_floats = b.pairs_at + (b.rows_per_item + b.cols_per_item) * nt_pair_words(kcp);
  } else if (!b.nt && !b.by_tap && k.bf16 != nullptr) {
    b.pairs_at = round_up(b.slot_floats, 16);
    b.slot_floats = b.pairs_at + (b.rows_per_item + b.cols_per_item) * pair_steps(b.kc);
  }
  b.shared_floats = b.k_parts * c.groups * m * n;
  b.flops = gemm_flops(c);
  return b;
}

ShiftedWeightBlocking gemm_weight_shifted_blocking(const Canonical &c, const GemmKernels &k, int threads) {
  const GemmNtUkernel &nt = *k.nt;
  const ShiftedGeometry geo(c);
  ShiftedWeightBlocking b;
  const int64_t m = c.cy_per_group, kk = c.kernel_numel();
  // The transposed product (RaLayout) where the group's output channels fill the RA kernel's panels and its columns
  // (x channels × taps) are enough to pay for transposing the dy blocks: no lane reduction per NT tile and block, no
  // MR remainder on the rows. One thread, AVX2, against NT: ResNeXt's 14² × 16 per group 915 -> 768 µs, ResNet's
  // 3×3 layers 5 to 7 % and DCGAN's 6 to 8 % faster, 1-D and 3-D 1 to 6 %; with 27 columns (MobileNet's stem) 5 %
  // and with 10 (wav2vec) 23 % slower.
  b.ra = k.ra != nullptr && m % k.ra->nr == 0 && kk > 1 && c.cx_per_group * kk >= kShiftedRaMinColumns;
  // Equal K blocks of about kShiftedKc q positions (RA: kShiftedRaKc; a sample's q-space cut evenly), K parts as in
  // gemm_weight.
  const int64_t blocks = ceil_div(geo.q_len, b.ra ? kShiftedRaKc : kShiftedKc);
  b.kc = round_up(ceil_div(geo.q_len, blocks), nt.lanes);
  b.k_parts = std::min<int64_t>(kWeightKParts, c.batch * ceil_div(geo.q_len, b.kc));
  const int64_t window = geo.phases * (b.kc + geo.max_shift);  // per x channel: one box window per stride phase
  // Slot: one pass of dy rows (unless shared, below), the chunk's windows, a table of kk int64 tap offsets, and at
  // stride 2 across one x row (decoded for the pairs of phases); RA: the windows, the table and the row, then
  // RaLayout's areas.
  const int64_t dy_block_floats = b.ra ? RaLayout::block_floats(*k.ra, m, b.kc) : round_up(m, nt.mr) * b.kc;
  const int64_t row = geo.pair_row_floats(c);
  const bool several_blocks = c.batch * ceil_div(geo.q_len, b.kc) > b.k_parts;  // in some item
  auto slot_of = [&](int64_t channels, bool shared_dy) {
    const int64_t windows = channels * window + int64_table_floats(kk) + row;
    if (b.ra) return windows + RaLayout(*k.ra, m, b.kc, channels * kk, shared_dy, several_blocks).floats();
    return (shared_dy ? 0 : nt_pass_rows(m, nt.mr) * b.kc) + windows;
  };
  // An item's fixed cost is about 24/K channels' worth of kernel time: packing its dy block (unless shared) and
  // reading all of it, as measured on the benchmark's dense layers at 2 threads (4/K cut 2-4x more items: 10-20 %
  // slower calls, with the dy block packed per item and with it shared).
  const int64_t max_channels = std::max<int64_t>(1, std::min(c.cx_per_group, kShiftedWindowFloats / window));
  // Half a chunk of tail: whole groups or K parts per item, when they split evenly over the threads, beat channels
  // cut finer, which also puts dy in the shared area that every item then streams (ResNet's stem at two threads:
  // 12 items of one channel 3.75 ms, 4 of three 3.37). An item's columns (channels × taps) run in tiles of the
  // kernel's lines (RA: MR rows of Ct; NT: NR columns): 43 channels × 3 taps took 22 tiles of 6 for 21.5 (the 1-D
  // layers 2 % slower than 32 × 3 in 16).
  const ChunkCost cost{24.0 / static_cast<double>(kk), 0.5, kk, b.ra ? k.ra->mr : nt.nr};
  const int64_t cpi =
      best_chunk(c.groups * b.k_parts, c.cx_per_group,
                 cap_chunk(max_channels, [&](int64_t ch) { return slot_of(ch, false); }), threads, cost);
  b.channels_per_item = cpi;
  // dy's q-space rows with junk positions are packed whatever the dtype. When several items (chunks of x channels)
  // read the same K block, it is packed once for all of them before they run (in the shared area after the partial
  // sums, unless too large): the rows of each K block, MR-rounded, one after the other. One chunk per group: each
  // item packs its own (a separate pass measured 17 % slower on ResNeXt's 56² gradWeight at 2 threads).
  const int64_t dy_floats = c.groups * c.batch * ceil_div(geo.q_len, b.kc) * dy_block_floats;
  b.shared_dy = (b.ra || !geo.q_space_dense(c)) && cpi < c.cx_per_group &&
                dy_floats * static_cast<int64_t>(sizeof(float)) <= kMaxSharedDyBytes;
  const int64_t column_items = c.groups * b.k_parts * ceil_div(c.cx_per_group, cpi);
  b.rows_per_item = weight_rows_per_item(m, b.ra ? k.ra->nr : nt.mr, column_items, threads);
  b.items = column_items * ceil_div(m, b.rows_per_item);
  b.slot_floats = slot_of(cpi, b.shared_dy);
  b.shared_floats = b.shared_dy ? shared_dy_offset(b, c) + dy_floats : b.k_parts * c.groups * m * c.cx_per_group * kk;
  // The pair areas after the choices above, so that they (and the sums) are those of the fp32 kernel.
  if (b.ra && k.ra_bf16 != nullptr) {
    b.pairs_at = round_up(b.slot_floats, 16);
    b.slot_floats = b.pairs_at + RaPairLayout(*k.ra, cpi * window, m, b.kc).floats;
  } else if (!b.ra && k.nt_bf16 != nullptr) {
    b.pairs_at = round_up(b.slot_floats, 16);
    b.slot_floats = b.pairs_at + NtPairLayout(nt, m, b.kc, cpi * kk).floats;
  }
  b.flops = gemm_flops(c);
  return b;
}

DataBlocking gemm_backward_data_blocking(const Canonical &c, const GemmKernels &k, int threads) {
  const GemmUkernel &uk = *k.nn;
  DataBlocking b;
  const int64_t kk = c.kernel_numel();
  b.tile = position_tile(uk);
  // Few x planes: the positions cut into parts whose x planes live in the shared area (within its limit); when there
  // are too few position tiles for that (ViT's patchify: 196 positions, one tile), a channel's taps too (one x
  // channel per item then). An even number of parts, so that two threads share them without cutting channels:
  // three planes (RGB stems) in three parts ran at two threads as 9 items of one channel, each packing the same dy
  // panels again, or as 3 items split 2 : 1.
  const int64_t planes = c.batch * c.groups * c.cx_per_group, tiles = ceil_div(c.y_plane(), b.tile);
  if (planes < kDataPartsBelowPlanes) {
    const int64_t wanted = std::min(kDataParts, round_up(ceil_div(kDataPartsBelowPlanes, planes), 2));
    b.position_parts = std::min(wanted, tiles);
    b.tap_parts = std::min(ceil_div(wanted, b.position_parts), ceil_div(kk, uk.mr));
    const double bytes = static_cast<double>(b.position_parts * b.tap_parts * planes) * c.x_plane() * sizeof(float);
    if (bytes > static_cast<double>(kMaxSharedBytesOfParts)) b.position_parts = b.tap_parts = 1;
  } else if (positions_one_to_one(c)) {
    // 1×1 layers, whose dcol tiles are gradInput's (stored by tile, no x planes): position parts write disjoint
    // positions, so items cut along the positions, each streaming only its part of dy (cut along the channels, every
    // item streamed all of it: ResNet's 1×1 56² layer on two threads 1.16 -> 1.06 ms, BF16 1.45 -> 1.27).
    b.position_parts = std::min(kDataParts, tiles);
  }
  const bool x_planes = !positions_one_to_one(c);  // col2im's accumulators: in the slot, or per part in the shared area
  const int64_t parts = b.position_parts * b.tap_parts;
  // Planes of at most half a tile: whole samples side by side in one tile, as many as fit (ResNet's 7² stage ran a
  // sample's 49 positions as kernel columns 32 + 17 of 64, 77 % of them used). Each sample's columns are added into
  // its own x planes as a tile of one plane's are, so the sums and their bits stay those of one sample per tile. Not
  // with parts, nor where an FP32 1 × 1 gradInput may be the kernel's C (a tile's columns are then one plane's).
  const int64_t plane = c.y_plane();
  if (parts == 1 && plane > 0 && plane * 2 <= b.tile && !(positions_one_to_one(c) && c.grad_input.dtype == ACL_FLOAT)) {
    b.samples_per_tile = std::min(c.batch, b.tile / plane);
  }
  const int64_t runs = b.sample_runs(c);
  // The packed weight holds every K block when an item has several position tiles and it fits kDataWholeAFloats:
  // packed once per item, not once per tile and block (ResNet's 1×1 stride-2 layer read its 512 × 256 weight once per
  // tile of 128 positions: one thread 4.55 -> 4.46 ms, wav2vec 1.62 -> 1.58). With one tile per item (ViT's parts)
  // packing it whole ahead measured 2 % slower than block by block.
  const bool several_tiles = ceil_div(tiles, b.position_parts) > 1;
  auto a_steps = [&](int64_t mp) {
    const bool whole = several_tiles && c.cy_per_group > kGemmKc && mp * c.cy_per_group <= kDataWholeAFloats;
    return whole ? c.cy_per_group : kGemmKc;
  };
  auto slot_of = [&](int64_t cb) {
    const int64_t mp = round_up(cb * kk, uk.mr);
    return mp * a_steps(mp) + b.tile * kGemmKc + cb * kk * b.tile + kPackStepBlock * std::max(mp, b.tile) +
           (parts > 1 || !x_planes ? 0 : b.samples_per_tile * cb * c.x_plane());
  };
  // Rows of dcol per item: up to 256; an item's fixed cost is about 48 rows' worth (packing dy, store).
  const int64_t max_cb =
      b.tap_parts > 1 ? 1 : cap_chunk(std::min<int64_t>(c.cx_per_group, std::max<int64_t>(1, 256 / kk)), slot_of);
  const int64_t cb =
      best_chunk(runs * c.groups * parts, c.cx_per_group, max_cb, threads, {48.0 / static_cast<double>(kk)});
  b.channels_per_item = cb;
  b.kc = a_steps(round_up(cb * kk, uk.mr));
  b.items = runs * c.groups * ceil_div(c.cx_per_group, cb) * parts;
  b.slot_floats = slot_of(cb);
  b.shared_floats = parts > 1 && x_planes ? parts * planes * c.x_plane() : 0;
  if (k.bf16 != nullptr) {  // after the choices above, so that they (and the sums) are those of the fp32 kernel
    b.pairs_at = round_up(b.slot_floats, 16);
    b.slot_floats = b.pairs_at + bf16_pair_floats(round_up(cb * kk, uk.mr), b.kc, b.tile, kGemmKc);
    share_data_pairs(c, uk, &b);
  } else {
    share_data_weight(c, uk, &b);
  }
  b.flops = gemm_flops(c);
  return b;
}

PointwiseBlocking gemm_pointwise_data_blocking(const Canonical &c, const GemmKernels &k, int threads) {
  const GemmUkernel &uk = *k.nn;
  PointwiseBlocking b;
  const int64_t chunks = ceil_div(c.cx_per_group, kPointwiseChannels);
  b.channels_per_item = std::min(c.cx_per_group, round_up(ceil_div(c.cx_per_group, chunks), uk.nr));
  // Position chunks of MR-row panels; an item's fixed cost (packing its dy block, storing its tile) is about one
  // panel's worth of kernel time.
  const int64_t panels = ceil_div(c.batch * c.y_plane(), static_cast<int64_t>(uk.mr));
  const int64_t per_item = best_chunk(c.groups * ceil_div(c.cx_per_group, b.channels_per_item), panels,
                                      kPointwisePositions / uk.mr, threads, {1.0});
  b.positions_per_item = per_item * uk.mr;
  b.items = c.groups * ceil_div(c.cx_per_group, b.channels_per_item) * ceil_div(panels, per_item);
  // Slot: the A panels of one K block, the dxᵀ tile, and the packing's steps (also the tile's column on the way out,
  // and the weight packing's, NR wide).
  b.slot_floats = b.positions_per_item * kGemmKc + b.positions_per_item * b.channels_per_item +
                  kPackStepBlock * std::max<int64_t>(b.positions_per_item, uk.nr);
  b.shared_floats = c.groups * ceil_div(c.cx_per_group, uk.nr) * uk.nr * c.cy_per_group;
  b.flops = gemm_flops(c);
  return b;
}

ForwardBlocking gemm_forward_blocking(const Canonical &c, const GemmKernels &k, int threads) {
  const GemmUkernel &uk = *k.nn;
  const ShiftedGeometry geo(c);
  ForwardBlocking b;
  const int64_t m = c.cy_per_group, k_total = c.cx_per_group * c.kernel_numel();
  // The shifted layout at stride 1 with several taps. (With stride phases it measured slower on DCGAN's k4s2 and
  // k3s2 layers: gathering every phase's windows at stride 2, once per row chunk, cost more than the B packing saved.
  // Those layers pack B from phase windows instead, once per tile and K block: phased, below.)
  b.shifted = unit_stride(c) && c.kernel_numel() > 1;
  const int64_t positions = b.shifted ? geo.q_len : c.y_plane();
  // The shifted layout runs every tap over an item's weight rows: as many rows as stay in L2 (all of them outside it).
  b.rows_per_item = b.shifted ? std::min(m, std::max<int64_t>(1, kForwardRowsFloats / k_total / uk.mr) * uk.mr) : m;
  const int64_t row_chunks = ceil_div(m, b.rows_per_item);
  // At a stride with several taps, B is packed from stride-phase windows of the K block's x channels over the tile
  // (gemm_forward.cpp): one window per phase and channel, as long as the tile's widest q range plus the largest shift.
  const bool phased = !b.shifted && !unit_stride(c) && c.kernel_numel() > 1 && geo.tabled;
  const int64_t block_channels = phase_window_channels(c.cx_per_group, c.kernel_numel());
  auto window_of = [&](int64_t tile) {
    auto q = [&](int64_t p) {
      const Im2colStart o = im2col_start(c, p);
      return geo.q(o.od, o.oh, o.ow);
    };
    int64_t widest = 0;
    count_plan_steps(positions / tile + 1);
    for (int64_t p0 = 0; p0 < positions; p0 += tile)
      widest = std::max(widest, q(std::min(p0 + tile, positions) - 1) - q(p0));
    return widest + 1 + geo.max_shift;
  };
  // Slot: B panels, C tile and tmp (phased: the windows, an x row for pairs of phases across, and int64 tables of
  // the tile's q offsets, the taps' offsets and the block steps' window pointers), or in the shifted layout the C
  // tile, one window per x channel (read in place as B) and the K taps' offsets (int64); it also holds MR weight
  // rows (and as many tap rows), or kFlippedRowsPerItem weight rows of the flipped form, while the weight is packed.
  auto slot_of = [&](int64_t panels) {
    const int64_t tile = panels * uk.nr;
    const int64_t packing = phased ? block_channels * geo.phases * window_of(tile) + geo.pair_row_floats(c) +
                                         int64_table_floats(tile + c.kernel_numel() + kGemmKc)
                                   : std::max(kGemmKc, kPackStepBlock * tile);
    const int64_t work = b.shifted ? b.rows_per_item * tile + c.cx_per_group * (tile + geo.max_shift) +
                                         int64_table_floats(c.kernel_numel())
                                   : tile * kGemmKc + m * tile + packing;
    return std::max({work, 2 * uk.mr * k_total, kFlippedRowsPerItem * m * c.kernel_numel()});
  };
  // Here the tile is free (each sum runs over K only): NR-panels per tile chosen for balance, at most 8. Half a
  // chunk of tail, as in gemm_weight_shifted: every tile streams the whole packed weight (2 MB for DCGAN's k4s2), and
  // with one chunk DCGAN's layers took 8 and 16 tiles at two threads (k4s2 3.08 -> 2.99 ms, k3s2 1.72 -> 1.68 with 4
  // and 8).
  const int64_t panels = ceil_div(positions, uk.nr);
  b.tile = uk.nr * best_chunk(c.batch * c.groups * row_chunks, panels, cap_chunk(std::min<int64_t>(8, panels), slot_of),
                              threads, {1.0, 0.5});
  b.items = row_chunks * c.batch * c.groups * ceil_div(positions, b.tile);
  b.slot_floats = slot_of(b.tile / uk.nr);
  b.phase_window = phased ? window_of(b.tile) : 0;
  b.shared_floats = c.groups * round_up(m, uk.mr) * k_total;  // the weight, rounded, in A panels
  if (k.bf16 != nullptr && !b.shifted) {  // after the choices above, so that they (and the sums) are the fp32 kernel's
    b.pairs_at = round_up(b.slot_floats, 16);
    b.slot_floats = b.pairs_at + b.tile * pair_steps(kGemmKc);
    b.weight_pairs_at = round_up(b.shared_floats, 16);
    b.shared_floats = b.weight_pairs_at + c.groups * round_up(m, uk.mr) * forward_weight_pairs(k_total);
  }
  b.flops = gemm_flops(c);
  return b;
}

ForwardBlocking gemm_flipped_forward_blocking(const Canonical &c, const GemmKernels &k, int threads) {
  return gemm_forward_blocking(flipped_problem(c), k, threads);
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu

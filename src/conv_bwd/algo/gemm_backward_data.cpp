// gradInput of a convolution as GEMM + col2im: for a block of x channels and a tile of y positions,
// dcol ((channel, tap) × positions) = wᵀ (packed by K = y channels) · dy (packed by K), then each dcol row is
// added into the x channel plane it came from. Only real products are formed: strides insert nothing.
#include <algorithm>

#include "conv_bwd/algo/gemm_algorithms.hpp"
#include "conv_bwd/algo/im2col.hpp"
#include "conv_bwd/algo/operand_runs.hpp"
#include "conv_bwd/algo/packing.hpp"
#include "conv_bwd/algo/prefetch.hpp"
#include "conv_bwd/algo/result_runs.hpp"
#include "conv_bwd/algorithms.hpp"
#include "conv_bwd/parallel.hpp"
#include "core/dtype.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

// A 1×1 kernel at stride 1 without padding maps y positions onto x positions one to one, so dcol is gradInput
// itself: FP32 output planes that need no rounding are then the kernel's C (no x-plane accumulators, no col2im).
// A K block of B read in place touches one dy plane per step, kc planes apart. Planes of a page or more put every
// step on its own page, and from a first-level TLB's worth of them per block (64 on the x86 cores measured) packing
// the panel (contiguous) was faster. One thread, AVX2, against reading in place: ResNet's 1×1 56² 2.23 -> 2.11 ms
// (two threads 1.25 -> 1.15), 1×1 stride 2 4.51 -> 4.40, its stem (64 planes of 50 KB) 5.88 -> 5.64, wav2vec 1.73 ->
// 1.65, 3-D 1 %; MobileNet's stem (32 planes) lost 2-4 % packed. Smaller planes share pages: the 28² layers lost up
// to 3 % at two threads packed, the 1-D ones (2 KB) gained 1-2 %; they stay in place.
bool b_rows_in_place_pay(const Canonical &c) {
  constexpr int64_t kPage = 4096;
  const int64_t rows = std::min<int64_t>(kGemmKc, c.cy_per_group);
  const int64_t plane_bytes = c.y.strides[1] * static_cast<int64_t>(sizeof(float));
  return plane_bytes < kPage || rows < kMaxInPlaceBPages;
}

// FP32 gradInput planes that need no rounding, each dense: col2im adds into them where they lie (zeroed first), so
// no x-plane accumulator is copied into them at the end (5 % of ResNet's 1×1 stride-2 layer on one thread, whose
// planes col2im fills only a quarter of).
bool adds_in_place(const Rounding &rounding, const View5 &grad_input) {
  return grad_input.dtype == ACL_FLOAT && rounding.grad_input_is_identity() && grad_input.contiguous_planes();
}

bool writes_in_place(const Canonical &c, const Rounding &rounding, const View5 &grad_input) {
  return positions_one_to_one(c) && grad_input.dtype == ACL_FLOAT && rounding.grad_input_is_identity() &&
         grad_input.contiguous_planes();
}

// The positions of position part pp: its tiles [pp·tiles/P, (pp + 1)·tiles/P).
struct PositionRange {
  int64_t begin, end;
};

PositionRange position_part(int64_t pp, int64_t parts, int64_t y_plane, int64_t tile) {
  const int64_t tiles = (y_plane + tile - 1) / tile;
  return {pp * tiles / parts * tile, std::min(y_plane, (pp + 1) * tiles / parts * tile)};
}

// A flat x range [lo, hi) holding every x position that y positions [begin, end) reach with any tap. Per spatial
// dimension, outermost first, the reach of the first and the last position; below the first dimension where those
// two differ, the whole extent (a lexicographic bound: flat indices follow (d, h, w)). A position part's x planes
// are zeroed, and later added, over this range only: the parts of a stem's 224² planes overlap by a few rows.
PositionRange reached_x_range(const Canonical &c, PositionRange y) {
  int64_t first = y.begin, last = y.end - 1, first_at[kSpatial], last_at[kSpatial];
  for (int d = kSpatial - 1; d >= 0; --d) {
    first_at[d] = first % c.y_size[d];
    last_at[d] = last % c.y_size[d];
    first /= c.y_size[d];
    last /= c.y_size[d];
  }
  int64_t lo = 0, hi = 0;
  bool same = true;
  for (int d = 0; d < kSpatial; ++d) {
    const int64_t n = c.x_size[d];
    int64_t a = 0, b = n - 1;
    if (same) {
      a = std::clamp<int64_t>(first_at[d] * c.stride[d] - c.pad_begin[d], 0, n - 1);
      b = std::clamp<int64_t>(last_at[d] * c.stride[d] - c.pad_begin[d] + (c.kernel[d] - 1) * c.dilation[d], 0, n - 1);
      same = first_at[d] == last_at[d];
    }
    lo = lo * n + a;
    hi = hi * n + b;
  }
  return {lo, hi + 1};
}

// Adds each x plane's parts in order into part 0's plane and stores it. A part's plane holds its sums over its
// reached range only (zeroed there by its item); outside it adds nothing, and part 0's plane is zeroed there first.
void add_parts_and_store(const Canonical &c, const DataBlocking &b, float *shared, const Rounding &rounding,
                         const View5 &grad_input) {
  const int64_t x_plane = c.x_plane(), y_plane = c.y_plane();
  const int64_t planes_n = c.batch * c.groups * c.cx_per_group, parts = b.position_parts * b.tap_parts;
  PositionRange reach[kDataParts];  // of each position part
  for (int64_t pp = 0; pp < b.position_parts; ++pp) {
    reach[pp] = reached_x_range(c, position_part(pp, b.position_parts, y_plane, b.tile));
  }
  parallel_for(planes_n, parts * x_plane, [&](int64_t begin, int64_t end) {
    for (int64_t plane = begin; plane < end; ++plane) {
      float *sum = shared + plane * x_plane;
      std::fill(sum, sum + reach[0].begin, 0.0f);
      std::fill(sum + reach[0].end, sum + x_plane, 0.0f);
      for (int64_t part = 1; part < parts; ++part) {
        const PositionRange r = reach[part / b.tap_parts];
        const float *add = shared + (part * planes_n + plane) * x_plane;
        for (int64_t i = r.begin; i < r.end; ++i) sum[i] += add[i];
      }
      const int64_t n = plane / (c.groups * c.cx_per_group), channel = plane % (c.groups * c.cx_per_group);
      store_run(grad_input, n, channel, 0, x_plane, sum, ResultKind::kGradInput, rounding);
    }
  });
}

// A's pair panels from BF16 weight rows: K steps [k0, k0 + kc) of group g's rows, `lines` columns from col0, panel i
// at dst + i·panel_words. Returns their floor.
int weight_pairs(const Canonical &c, const GemmBf16Ukernel &pk, const OperandReader &w, int64_t g, int64_t k0,
                 int64_t kc, int64_t col0, int64_t lines, uint32_t *dst, int64_t panel_words) {
  const uint16_t *steps[kGemmKc];
  for (int64_t k = 0; k < kc; ++k) steps[k] = w.bf16_data() + c.w.index(g * c.cy_per_group + k0 + k, 0, 0, 0, 0) + col0;
  return pk.steps_to_pairs(steps, kc, lines, pk.mr, dst, panel_words);
}

// Whole-K A pair panels (panel i at dst + i·MR·pair_steps(K)), K block by block: each block's part starts k0 / 2
// pair steps in (K blocks have even lengths).
int whole_weight_pairs(const Canonical &c, const GemmBf16Ukernel &pk, const OperandReader &w, int64_t g, int64_t col0,
                       int64_t lines, uint32_t *dst) {
  int floor = kBf16FloorAllZero;
  for (int64_t k0 = 0; k0 < c.cy_per_group; k0 += kGemmKc) {
    const int64_t kc = std::min(kGemmKc, c.cy_per_group - k0);
    floor = std::min(floor, weight_pairs(c, pk, w, g, k0, kc, col0, lines, dst + k0 / 2 * pk.mr,
                                         pair_steps(c.cy_per_group) * pk.mr));
  }
  return floor;
}

// Where a tile's positions [p0, p0 + nt) of an item's samples (DataBlocking::samples_per_tile: their planes side by
// side) lie: fn(sample, position in its plane, count, column in the tile) for each sample's part, in order.
template <typename Fn>
void for_each_sample_part(int64_t plane, int64_t p0, int64_t nt, Fn fn) {
  for (int64_t done = 0; done < nt;) {
    const int64_t p = p0 + done, at = p % plane, count = std::min(nt - done, plane - at);
    fn(p / plane, at, count, done);
    done += count;
  }
}

// B's pair panels from BF16 gradOutput planes: samples [n, n + ns), group g, the tile's positions [p0, p0 + nt), K
// steps [k0, k0 + kc). A tile over several samples' planes is copied into `stage` first (kc rows of nt values).
int dy_pairs(const Canonical &c, const GemmBf16Ukernel &pk, const OperandReader &dy, int64_t n, int64_t ns, int64_t g,
             int64_t p0, int64_t nt, int64_t k0, int64_t kc, uint16_t *stage, uint32_t *dst) {
  const uint16_t *steps[kGemmKc];
  for (int64_t k = 0; k < kc; ++k) {
    const int64_t channel = g * c.cy_per_group + k0 + k;
    if (ns == 1) {
      steps[k] = dy.bf16_data() + c.y.index(n, channel, 0, 0, 0) + p0;
      continue;
    }
    uint16_t *row = stage + k * nt;
    for_each_sample_part(c.y_plane(), p0, nt, [&](int64_t s, int64_t at, int64_t count, int64_t col) {
      const uint16_t *from = dy.bf16_data() + c.y.index(n + s, channel, 0, 0, 0) + at;
      std::copy(from, from + count, row + col);
    });
    steps[k] = row;
  }
  return pk.steps_to_pairs(steps, kc, nt, pk.nr, dst, pair_steps(kc) * pk.nr);
}

// The shared pair panels (DataBlocking::shared_a, shared_b), all units in one parallel pass before the items run (each
// slot's start as dy_pairs' stage).
void make_shared_pairs(const Canonical &c, const GemmBf16Ukernel &pk, const DataBlocking &b, const OperandReader &w,
                       const OperandReader &dy, bool a_on, bool b_on, const GemmScratch &s) {
  float *shared = s.shared;
  const int64_t kk = c.kernel_numel(), blocks = ceil_div(c.cx_per_group, b.channels_per_item);
  const int64_t y_plane = c.y_plane(), tiles = ceil_div(y_plane, b.tile), spt = b.samples_per_tile;
  const int64_t k_blocks = ceil_div(c.cy_per_group, kGemmKc);
  const int64_t a_units = a_on ? b.shared_a.units : 0, b_units = b_on ? b.shared_b.units : 0;
  const double cost = static_cast<double>(a_units + b_units) * b.tile * kGemmKc;
  parallel_for_slots(a_units + b_units, s.slots, cost, [&](int slot, int64_t begin, int64_t end) {
    uint16_t *stage = reinterpret_cast<uint16_t *>(s.base + slot * s.slot_stride);
    for (int64_t u = begin; u < end; ++u) {
      if (u < a_units) {  // (group, block)
        const int64_t g = u / blocks, c0 = u % blocks * b.channels_per_item;
        const int64_t lines = std::min(b.channels_per_item, c.cx_per_group - c0) * kk;
        b.shared_a.floors(shared)[u] = whole_weight_pairs(c, pk, w, g, c0 * kk, lines, b.shared_a.unit(shared, u));
        continue;
      }
      const int64_t v = u - a_units;  // (run of samples, group, tile, K block)
      const int64_t kb = v % k_blocks, tile = v / k_blocks % tiles, g = v / (k_blocks * tiles) % c.groups;
      const int64_t n = v / (k_blocks * tiles * c.groups) * spt, ns = std::min(spt, c.batch - n);
      const int64_t p0 = tile * b.tile, k0 = kb * kGemmKc;
      b.shared_b.floors(shared)[v] =
          dy_pairs(c, pk, dy, n, ns, g, p0, std::min(b.tile, ns * y_plane - p0), k0,
                   std::min(kGemmKc, c.cy_per_group - k0), stage, b.shared_b.unit(shared, v));
    }
  });
}

// The weight's whole-K fp32 A panels per unit (group, block of x channels), in one parallel pass before the items run
// (each slot's start as the packing's steps).
void make_shared_weight(const Canonical &c, const GemmUkernel &uk, const DataBlocking &b, const OperandReader &w,
                        const GemmScratch &s) {
  const int64_t kk = c.kernel_numel(), blocks = ceil_div(c.cx_per_group, b.channels_per_item);
  parallel_for_slots(b.shared_weight.units, s.slots,
                     static_cast<double>(c.groups) * c.cy_per_group * c.cx_per_group * kk,
                     [&](int slot, int64_t begin, int64_t end) {
                       float *tmp = s.base + slot * s.slot_stride;
                       for (int64_t u = begin; u < end; ++u) {
                         const int64_t g = u / blocks, c0 = u % blocks * b.channels_per_item;
                         const int64_t col0 = c0 * kk, mi = std::min(b.channels_per_item, c.cx_per_group - c0) * kk;
                         pack_row_panels(w, uk.mr, g * c.cy_per_group, c.cy_per_group, col0, mi, tmp,
                                         b.shared_weight.unit(s.shared, u));
                       }
                     });
}

// Which of its ways gemm_backward_data takes for a call: decided from the problem, the plan and the operands'
// formats alone, for the run and for its work (gemm_backward_data_work) alike.
struct DataPaths {
  // FP32 gradOutput needing no rounding, dense over each plane: whole NR panels of B are its rows, read in place
  // (ldb = its channel stride) unless a K block of them spans too many pages; a last partial panel is packed.
  bool b_in_place;
  // FP32 gradOutput to round (HF32), dense over each plane: its rows are copied into the B panels as they are, then
  // the panels are rounded in one pass, instead of each row copied out, rounded, and copied again into the panels.
  bool b_rounded_in_panels;
  bool c_in_place;  // 1×1: the kernel's C is gradInput itself
  // 1×1 at stride 1 without pads: dcol's tiles are gradInput's, stored tile by tile (no x planes) unless the kernel
  // writes them in place.
  bool dcol_out;
  bool shared_planes;    // parts add into their own x planes in the shared area, added in order at the end
  bool planes_in_place;  // col2im adds into gradInput's planes where they lie
  // BF16: the packed panels also as pairs, for the pair kernel wherever their values let it give the same bits.
  const GemmBf16Ukernel *pk;
  // BF16 gradOutput as it is, dense over each plane: B's pair panels straight from its rows (one pass, not three:
  // widened, packed as fp32, paired).
  bool b_pairs_from_bf16;
  // BF16 weight as it is, each output channel's (input channel, taps) row dense: A's pair panels straight from those
  // rows too, and its fp32 panels only once a block needs the fp32 kernel.
  bool a_pairs_from_bf16;
  // Pair panels made once for all items where the plan shares them (DataBlocking::shared_a, shared_b); A's then hold
  // all of K per unit, as a whole packed weight's do.
  bool a_shared, b_shared;
  bool a_shared_fp32;  // the weight's fp32 panels made once for every item (DataBlocking::shared_weight)

  DataPaths(const Canonical &c, const GemmKernels &k, const DataBlocking &b, const Rounding &rounding,
            const OperandReader &w, const OperandReader &dy, const View5 &grad_input) {
    const View5 &yv = c.y;
    b_in_place = dy.plain() && yv.contiguous_planes() && b_rows_in_place_pay(c);
    b_rounded_in_panels = !dy.plain() && yv.dtype == ACL_FLOAT && yv.contiguous_planes();
    c_in_place = writes_in_place(c, rounding, grad_input);
    dcol_out = positions_one_to_one(c);
    shared_planes = b.position_parts * b.tap_parts > 1 && !dcol_out;
    planes_in_place = !dcol_out && !shared_planes && adds_in_place(rounding, grad_input);
    pk = b_in_place || c_in_place ? nullptr : k.bf16;
    b_pairs_from_bf16 = pk != nullptr && dy.bf16_exact() && yv.contiguous_planes();
    a_pairs_from_bf16 = pk != nullptr && w.bf16_exact() && c.w.contiguous_rows();
    a_shared = a_pairs_from_bf16 && b.shared_a.on();
    b_shared = b_pairs_from_bf16 && b.shared_b.on();
    a_shared_fp32 = b.shared_weight.on();
  }
};

}  // namespace

bool gemm_backward_data(const Canonical &c, const GemmKernels &k, const DataBlocking &b, const GemmScratch &s,
                        const Rounding &rounding, const View5 &grad_input) {
  const GemmUkernel &uk = *k.nn;
  const OperandReader w(c.w, rounding), dy(c.y, rounding);
  const DataPaths paths(c, k, b, rounding, w, dy, grad_input);
  const int64_t kk = c.kernel_numel(), cb_max = b.channels_per_item, nt_max = b.tile;
  const int64_t y_plane = c.y_plane();
  const int64_t x_plane = c.x_plane();
  const int64_t dy_bytes = static_cast<int64_t>(dtype_size(c.y.dtype));
  const int64_t blocks = (c.cx_per_group + cb_max - 1) / cb_max;
  const int64_t mp_max = round_up(cb_max * kk, uk.mr);
  // A's panels hold b.kc K steps: all of K (packed once per item, panel i at a_pack + i·Cy_g), or one block.
  const bool whole_a = b.kc >= c.cy_per_group;
  const View5 &yv = c.y;
  const bool b_in_place = paths.b_in_place, b_rounded_in_panels = paths.b_rounded_in_panels;
  const bool c_in_place = paths.c_in_place;
  // Parts (gemm_blocking.cpp): position part p takes tiles [p·tiles/P, (p + 1)·tiles/P), tap part t the taps
  // [t·K/T, (t + 1)·K/T) of its one channel; part (p, t) adds into its own x planes in the shared area, plane
  // (p·T + t, (n·G + g)·Cx_g + channel); parts are added in order at the end. Where dcol is gradInput (below), the
  // position parts write disjoint positions and need no planes.
  const int64_t p_parts = b.position_parts, t_parts = b.tap_parts, parts = p_parts * t_parts;
  const int64_t planes_n = c.batch * c.groups * c.cx_per_group;
  const bool dcol_out = paths.dcol_out, shared_planes = paths.shared_planes, planes_in_place = paths.planes_in_place;
  const int64_t plane_pitch = planes_in_place ? grad_input.strides[1] : x_plane;
  const GemmBf16Ukernel *pk = paths.pk;
  const bool b_pairs_from_bf16 = paths.b_pairs_from_bf16, a_pairs_from_bf16 = paths.a_pairs_from_bf16;
  const bool a_shared = paths.a_shared, b_shared = paths.b_shared;
  if (a_shared || b_shared) make_shared_pairs(c, *pk, b, w, dy, a_shared, b_shared, s);
  const bool a_whole_pairs = whole_a || a_shared;
  const bool a_shared_fp32 = paths.a_shared_fp32;
  if (a_shared_fp32) make_shared_weight(c, uk, b, w, s);
  const int64_t tiles = ceil_div(y_plane, nt_max), k_blocks = ceil_div(c.cy_per_group, kGemmKc);
  const int64_t spt = b.samples_per_tile;
  parallel_for_slots(b.items, s.slots, b.flops / 2, [&](int slot, int64_t begin, int64_t end) {
    float *a_pack = s.base + slot * s.slot_stride;
    uint32_t *a_pairs = pk != nullptr ? reinterpret_cast<uint32_t *>(a_pack + b.pairs_at) : nullptr;
    uint32_t *b_pairs = pk != nullptr ? a_pairs + a_pair_floats(mp_max, b.kc) : nullptr;
    int a_floor = 0;
    bool a_fp32 = false;     // whether a_pack holds the fp32 panels of the weight the pair panels were made from
    SpreadPrefetch next_dy;  // idle unless B is packed or paired per item
    float *b_pack = a_pack + mp_max * b.kc;
    float *dcol = b_pack + nt_max * kGemmKc;
    float *tmp = dcol + cb_max * kk * nt_max;
    for (int64_t item = begin; item < end; ++item) {
      const int64_t part = item % parts, rest = item / parts, pp = part / t_parts, tp = part % t_parts;
      const int64_t block = rest % blocks, g = (rest / blocks) % c.groups, run = rest / (blocks * c.groups);
      // Samples [n, n + ns), their planes side by side (one sample unless DataBlocking::samples_per_tile).
      const int64_t n = run * spt, ns = std::min(spt, c.batch - n);
      const int64_t t0 = tp * kk / t_parts, t1 = (tp + 1) * kk / t_parts;  // all taps unless tap parts (cb = 1)
      const int64_t c0 = block * cb_max, cb = std::min(cb_max, c.cx_per_group - c0);
      const int64_t mi = t_parts > 1 ? t1 - t0 : cb * kk, col0 = c0 * kk + t0;
      const PositionRange positions = position_part(pp, p_parts, ns * y_plane, nt_max);
      const int64_t p_begin = positions.begin, p_end = positions.end;
      // The item's first gradInput plane (FP32 only): the kernel's C (1×1 in place) or col2im's planes (in place).
      float *dx = c_in_place || planes_in_place
                      ? static_cast<float *>(grad_input.data) + grad_input.index(n, g * c.cx_per_group + c0, 0, 0, 0)
                      : nullptr;
      float *planes = shared_planes ? s.shared + (part * planes_n + (n * c.groups + g) * c.cx_per_group + c0) * x_plane
                      : planes_in_place ? dx
                      : dcol_out        ? nullptr
                                        : tmp + kPackStepBlock * std::max(mp_max, nt_max);
      // Sample s's first plane of the item (s > 0 only without parts: in place or in the slot).
      auto planes_of = [&](int64_t s) {
        return planes_in_place ? planes + s * grad_input.strides[0] : planes + s * cb * x_plane;
      };
      if (shared_planes) {
        const PositionRange reach = reached_x_range(c, positions);
        for (int64_t ch = 0; ch < cb; ++ch)
          std::fill(planes + ch * x_plane + reach.begin, planes + ch * x_plane + reach.end, 0.0f);
      } else if (!dcol_out) {
        for (int64_t s = 0; s < ns; ++s) {
          for (int64_t ch = 0; ch < cb; ++ch)
            std::fill(planes_of(s) + ch * plane_pitch, planes_of(s) + ch * plane_pitch + x_plane, 0.0f);
        }
      }
      auto pack_weight_fp32 = [&](int64_t k0, int64_t kc) {
        pack_row_panels(w, uk.mr, g * c.cy_per_group + k0, kc, col0, mi, tmp, a_pack);
        a_fp32 = true;
      };
      // A's pair panels: the shared unit of (group, block), or made in the slot (from the BF16 rows, or from the fp32
      // panels).
      const uint32_t *a_base = a_shared ? b.shared_a.unit(s.shared, g * blocks + block) : a_pairs;
      auto pack_weight = [&](int64_t k0, int64_t kc) {
        a_fp32 = false;
        if (a_shared) {
          a_floor = b.shared_a.floors(s.shared)[g * blocks + block];
        } else if (a_pairs_from_bf16 && whole_a) {
          a_floor = whole_weight_pairs(c, *pk, w, g, col0, mi, a_pairs);
        } else if (a_pairs_from_bf16) {
          a_floor = weight_pairs(c, *pk, w, g, k0, kc, col0, mi, a_pairs, pair_steps(kc) * uk.mr);
        } else {
          pack_weight_fp32(k0, kc);
          if (pk != nullptr) a_floor = pk->to_pairs(a_pack, ceil_div(mi, uk.mr), uk.mr, kc, a_pairs);
        }
      };
      if (whole_a && !a_shared_fp32) pack_weight(0, c.cy_per_group);
      // The item's next dy block to pack or pair (the next K block of this tile, else the next tile's first), fetched
      // during this block's kernel calls. Dense planes only (as both ways of reading them in place need).
      auto prefetch_next_dy = [&](int64_t p0, int64_t k0) {
        if (!yv.contiguous_planes() || ns > 1) return;
        const bool next_k = k0 + kGemmKc < c.cy_per_group, next_tile = !next_k && p0 + nt_max < p_end;
        const int64_t p1 = next_tile ? p0 + nt_max : p0, k1 = next_k ? k0 + kGemmKc : 0;
        const int64_t rows = next_k || next_tile ? std::min(kGemmKc, c.cy_per_group - k1) : 0;
        const int64_t positions = std::min(nt_max, y_plane - p1), calls = ceil_div(mi, uk.mr) * ceil_div(nt_max, uk.nr);
        next_dy.start(
            static_cast<const char *>(yv.data) + (yv.index(n, g * c.cy_per_group + k1, 0, 0, 0) + p1) * dy_bytes,
            yv.strides[1] * dy_bytes, rows, positions * dy_bytes, calls);
      };
      for (int64_t p0 = p_begin; p0 < p_end; p0 += nt_max) {
        const int64_t nt = std::min(nt_max, p_end - p0);
        for (int64_t k0 = 0; k0 < c.cy_per_group; k0 += kGemmKc) {
          const int64_t kc = std::min(kGemmKc, c.cy_per_group - k0);
          const int64_t cy0 = g * c.cy_per_group + k0;
          if (!whole_a && !a_shared_fp32) pack_weight(k0, kc);
          const float *a_block = a_shared_fp32 ? b.shared_weight.unit(s.shared, g * blocks + block) + k0 * uk.mr
                                 : whole_a     ? a_pack + k0 * uk.mr
                                               : a_pack;
          const int64_t a_panel =
              whole_a || a_shared_fp32 ? c.cy_per_group : kc;  // floats from one MR panel to the next
          const int64_t in_place = b_in_place && ns == 1 ? nt / uk.nr * uk.nr : 0;  // positions [p0, p0 + in_place)
          auto pack_b = [&] {
            pack_panels_by_steps(uk.nr, nt - in_place, kc, tmp, b_pack, [&](int64_t k, float *out) -> const float * {
              if (ns > 1) {  // the samples' plane parts side by side (rounded with the panels when they are to be)
                for_each_sample_part(y_plane, p0, nt, [&](int64_t s, int64_t at, int64_t count, int64_t col) {
                  if (!b_rounded_in_panels) {
                    read_plane_run(dy, n + s, cy0 + k, at, count, out + col);
                    return;
                  }
                  const float *from = dy.plain_data() + yv.index(n + s, cy0 + k, 0, 0, 0) + at;
                  std::copy(from, from + count, out + col);
                });
                return out;
              }
              if (const float *direct = plain_plane_run(dy, n, cy0 + k, p0 + in_place)) return direct;
              if (b_rounded_in_panels) return dy.plain_data() + yv.index(n, cy0 + k, 0, 0, 0) + p0 + in_place;
              read_plane_run(dy, n, cy0 + k, p0 + in_place, nt - in_place, out);
              return out;
            });
            if (b_rounded_in_panels) dy.finish(b_pack, round_up(nt - in_place, uk.nr) * kc);
          };
          bool pairs = false;
          const uint32_t *b_base = b_pairs;
          if (b_shared) {  // the fp32 panels only for a block the pair kernel cannot take
            const int64_t u = ((run * c.groups + g) * tiles + p0 / nt_max) * k_blocks + k0 / kGemmKc;
            b_base = b.shared_b.unit(s.shared, u);
            pairs = pairs_exact(a_floor, b.shared_b.floors(s.shared)[u]);
            if (!pairs) pack_b();
          } else if (b_pairs_from_bf16) {
            pairs = pairs_exact(
                a_floor, dy_pairs(c, *pk, dy, n, ns, g, p0, nt, k0, kc, reinterpret_cast<uint16_t *>(b_pack), b_pairs));
            if (!pairs) pack_b();
            prefetch_next_dy(p0, k0);
          } else {
            pack_b();
            pairs =
                pk != nullptr && pairs_exact(a_floor, pk->to_pairs(b_pack, ceil_div(nt, uk.nr), uk.nr, kc, b_pairs));
            if (in_place == 0) prefetch_next_dy(p0, k0);
          }
          if (!pairs && !a_fp32) pack_weight_fp32(whole_a ? 0 : k0, whole_a ? c.cy_per_group : kc);
          const float *dy_rows = in_place > 0 ? dy.plain_data() + yv.index(n, cy0, 0, 0, 0) + p0 : nullptr;
          for (int64_t j = 0; j < nt; j += uk.nr) {
            const int nn = static_cast<int>(std::min<int64_t>(uk.nr, nt - j));
            const float *bj = j < in_place ? dy_rows + j : b_pack + (j - in_place) * kc;
            const int64_t ldb = j < in_place ? yv.strides[1] : uk.nr;
            for (int64_t i = 0; i < mi; i += uk.mr) {
              const int mm = static_cast<int>(std::min<int64_t>(uk.mr, mi - i));
              if (pairs) {  // A's pair panels: whole K (pair_steps(Cy_g) per panel) or this block's
                const uint32_t *ai = a_whole_pairs ? a_base + k0 / 2 * uk.mr + i * pair_steps(c.cy_per_group)
                                                   : a_base + i * pair_steps(kc);
                pk->run(pair_steps(kc), ai, b_base + j * pair_steps(kc), dcol + i * nt_max + j, nt_max, mm, nn, k0 > 0);
              } else if (c_in_place) {
                uk.run(kc, a_block + i * a_panel, bj, ldb, dx + i * grad_input.strides[1] + p0 + j,
                       grad_input.strides[1], mm, nn, k0 > 0);
              } else {
                uk.run(kc, a_block + i * a_panel, bj, ldb, dcol + i * nt_max + j, nt_max, mm, nn, k0 > 0);
              }
              next_dy.step();
            }
          }
        }
        if (c_in_place) continue;
        // Each sample's part of the tile: a plane's sums in the order of a tile of one plane (taps in order).
        for_each_sample_part(y_plane, p0, nt, [&](int64_t s, int64_t at, int64_t count, int64_t col) {
          if (dcol_out) {
            for (int64_t ch = 0; ch < cb; ++ch) {
              store_run(grad_input, n + s, g * c.cx_per_group + c0 + ch, at, count, dcol + ch * nt_max + col,
                        ResultKind::kGradInput, rounding);
            }
            return;
          }
          col2im_taps(c, *k.rows, t0, t1, at, count, cb, dcol + col, nt_max, (t1 - t0) * nt_max, planes_of(s),
                      plane_pitch);
        });
      }
      if (dcol_out || shared_planes || planes_in_place) continue;
      for (int64_t s = 0; s < ns; ++s) {
        for (int64_t ch = 0; ch < cb; ++ch) {
          store_run(grad_input, n + s, g * c.cx_per_group + c0 + ch, 0, x_plane, planes_of(s) + ch * x_plane,
                    ResultKind::kGradInput, rounding);
        }
      }
    }
  });
  if (shared_planes) add_parts_and_store(c, b, s.shared, rounding, grad_input);
  return true;
}

std::string gemm_backward_data_refusal(const Canonical &c) { return call_kind_refusal(c, false); }

bool gemm_backward_data_run(const Canonical &c, const GemmKernels &k, const DataBlocking &b, const GemmScratch &s,
                            const Rounding &rounding) {
  return gemm_backward_data(c, k, b, s, rounding, c.grad_input);
}

std::string gemm_backward_data_kernel(const GemmKernels &k, const DataBlocking &b) {
  const std::string samples =
      b.samples_per_tile > 1 ? "+" + std::to_string(b.samples_per_tile) + "_samples_per_tile" : "";
  if (k.bf16 == nullptr) return std::string(k.nn->name) + (b.shared_weight.on() ? "+shared_weight" : "") + samples;
  return std::string(k.bf16->name) + (b.shared_a.on() ? "+shared_a" : "") + (b.shared_b.on() ? "+shared_b" : "") +
         samples;
}

Work gemm_backward_data_work(const Canonical &c, const GemmKernels &k, const DataBlocking &b, const Rounding &rounding,
                             int slots) {
  const GemmUkernel &uk = *k.nn;
  const OperandReader w(c.w, rounding), dy(c.y, rounding);
  const DataPaths paths(c, k, b, rounding, w, dy, c.grad_input);
  const double move = move_cost(uk.isa);
  const int64_t kk = c.kernel_numel(), cy = c.cy_per_group, cb_max = b.channels_per_item;
  const int64_t blocks = ceil_div(c.cx_per_group, cb_max), y_plane = c.y_plane(), x_plane = c.x_plane();
  const int64_t tiles = ceil_div(y_plane, b.tile), k_blocks = ceil_div(cy, kGemmKc);
  const int64_t t_parts = b.tap_parts, parts = b.position_parts * t_parts;
  auto lines_of = [&](int64_t block) { return std::min(cb_max, c.cx_per_group - block * cb_max) * kk; };
  auto samples_of = [&](int64_t run) { return std::min(b.samples_per_tile, c.batch - run * b.samples_per_tile); };
  Work work;
  if (paths.a_shared || paths.b_shared) {
    const int64_t a_units = paths.a_shared ? b.shared_a.units : 0, b_units = paths.b_shared ? b.shared_b.units : 0;
    WorkPhase ph = uniform_phase("shared_pairs", LoopKind::kSlots, a_units + b_units, slots,
                                 static_cast<double>(a_units + b_units) * b.tile * kGemmKc, 0);
    for (int64_t u = 0; u < a_units; ++u) ph.cost.push_back(move * static_cast<double>(lines_of(u % blocks) * cy));
    for (int64_t v = 0; v < b_units; ++v) {
      const int64_t p0 = v / k_blocks % tiles * b.tile, k0 = v % k_blocks * kGemmKc;
      const int64_t span = samples_of(v / (k_blocks * tiles * c.groups)) * y_plane, staged = span > y_plane ? 2 : 1;
      ph.cost.push_back(move * staged * static_cast<double>(std::min(b.tile, span - p0) * std::min(kGemmKc, cy - k0)));
    }
    work.push_back(std::move(ph));
  }
  if (paths.a_shared_fp32) {
    WorkPhase ph = uniform_phase("shared_weight", LoopKind::kSlots, b.shared_weight.units, slots,
                                 static_cast<double>(c.groups) * cy * c.cx_per_group * kk, 0);
    for (int64_t u = 0; u < b.shared_weight.units; ++u) {
      ph.cost.push_back(stream_cost(uk.isa) * static_cast<double>(lines_of(u % blocks) * cy));
    }
    work.push_back(std::move(ph));
  }
  const bool whole_a = b.kc >= cy, a_made = paths.a_shared || paths.a_shared_fp32;
  WorkPhase items = uniform_phase("items", LoopKind::kSlots, b.items, slots, b.flops / 2, 0);
  items.cost.resize(static_cast<size_t>(b.items));
  for (int64_t item = 0; item < b.items; ++item) {
    const int64_t part = item % parts, pp = part / t_parts, tp = part % t_parts, block = item / parts % blocks;
    const int64_t mi = t_parts > 1 ? (tp + 1) * kk / t_parts - tp * kk / t_parts : lines_of(block);
    const int64_t cb = t_parts > 1 ? 1 : mi / kk, ns = samples_of(item / (parts * blocks * c.groups));
    const PositionRange pos = position_part(pp, b.position_parts, ns * y_plane, b.tile);
    const double n = static_cast<double>(pos.end - pos.begin), part_tiles = ceil_div(pos.end - pos.begin, b.tile);
    const double macs =
        static_cast<double>(round_up(mi, uk.mr)) * panel_columns(pos.begin, pos.end, b.tile, uk.nr) * cy;
    // dy: packed or paired per item (BF16 pairs of several samples staged first: two passes), or read in place.
    const double dy_passes = paths.b_shared || (paths.b_in_place && ns == 1) ? 0
                             : paths.b_pairs_from_bf16 && ns > 1             ? 2
                                                                             : 1;
    double moved = (a_made ? 0 : mi * cy * (whole_a ? 1 : part_tiles)) + dy_passes * cy * n;
    if (!paths.dcol_out) moved += mi * n + ns * cb * x_plane;  // col2im, zeroing the planes
    if (!paths.dcol_out && !paths.shared_planes && !paths.planes_in_place) moved += ns * cb * x_plane;  // their store
    if (paths.dcol_out && !paths.c_in_place) moved += cb * n;                                           // dcol's store
    items.cost[static_cast<size_t>(item)] = macs + move * moved;
  }
  work.push_back(std::move(items));
  if (paths.shared_planes) {
    const double per_plane = static_cast<double>(parts * x_plane);
    work.push_back(uniform_phase("add_parts", LoopKind::kFor, c.batch * c.groups * c.cx_per_group, slots, per_plane,
                                 stream_cost(uk.isa) * per_plane));
  }
  return work;
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu

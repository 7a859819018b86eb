// How the GEMM algorithms cut their work (pure functions of the problem, the kernel and the thread count).
// Only the K blocks and the position tiles fix the order of sums; they depend on the kernel's NR at most, never
// on the thread count. Item sizes may follow the thread count: they only decide who computes what.
#include <algorithm>

#include "conv_bwd/algo/gemm_algorithms.hpp"
#include "conv_bwd/algo/packing.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

int64_t ceil_div_pos(int64_t a, int64_t b) { return (a + b - 1) / b; }

int64_t y_plane(const Canonical &c) { return c.y_size[0] * c.y_size[1] * c.y_size[2]; }
int64_t x_plane(const Canonical &c) { return c.x_size[0] * c.x_size[1] * c.x_size[2]; }

// Positions per tile of the data-gradient algorithms: a multiple of NR that keeps packed B in L2.
int64_t position_tile(const GemmUkernel &uk) { return 8 * static_cast<int64_t>(uk.nr); }

double gemm_flops(const Canonical &c) {
  return 2.0 * static_cast<double>(c.batch) * c.groups * c.cy_per_group * c.cx_per_group * c.kernel_numel() *
         y_plane(c);
}

}  // namespace

GemmBlocking gemm_weight_blocking(const Canonical &c, const GemmUkernel &uk, int threads) {
  GemmBlocking b;
  const int64_t m = c.cy_per_group, n = c.cx_per_group * c.kernel_numel();
  const int64_t panels = ceil_div_pos(n, uk.nr);
  int64_t per_item = 4;
  while (per_item > 1 && c.groups * ceil_div_pos(panels, per_item) < 2 * static_cast<int64_t>(threads)) per_item /= 2;
  b.cols_per_item = per_item * uk.nr;
  b.items = c.groups * ceil_div_pos(panels, per_item);
  b.slot_floats = round_up(m, uk.mr) * kGemmKc + b.cols_per_item * kGemmKc + m * b.cols_per_item + kGemmKc;
  b.flops = gemm_flops(c);
  return b;
}

GemmBlocking gemm_backward_data_blocking(const Canonical &c, const GemmUkernel &uk, int threads) {
  GemmBlocking b;
  const int64_t kk = c.kernel_numel();
  b.tile = position_tile(uk);
  int64_t cb = std::max<int64_t>(1, std::min<int64_t>(c.cx_per_group, ceil_div_pos(128, kk)));
  auto items = [&](int64_t per) { return c.batch * c.groups * ceil_div_pos(c.cx_per_group, per); };
  while (cb > 1 && items(cb) < 2 * static_cast<int64_t>(threads)) cb = ceil_div_pos(cb, 2);
  b.channels_per_item = cb;
  b.items = items(cb);
  const int64_t mp = round_up(cb * kk, uk.mr);
  b.slot_floats = mp * kGemmKc + b.tile * kGemmKc + cb * kk * b.tile + std::max(mp, b.tile) + cb * x_plane(c);
  b.flops = gemm_flops(c);
  return b;
}

GemmBlocking gemm_forward_blocking(const Canonical &c, const GemmUkernel &uk, int threads) {
  (void)threads;
  GemmBlocking b;
  b.tile = position_tile(uk);
  const int64_t m = c.cy_per_group;
  b.items = c.batch * c.groups * ceil_div_pos(y_plane(c), b.tile);
  b.slot_floats = round_up(m, uk.mr) * kGemmKc + b.tile * kGemmKc + m * b.tile + std::max(kGemmKc, b.tile);
  b.flops = gemm_flops(c);
  return b;
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu

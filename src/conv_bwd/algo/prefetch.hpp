// Software prefetching of an operand block needed next: rows of dy a plane apart, each only a few cache lines long, are
// too short a run per row for the hardware prefetchers, so the code packing or pairing them waited on memory for every
// row (BF16, ResNet's 1 × 1 64→256 layer at 56²: gemm_backward_data's pairing took longer than its kernel calls).
// Prefetching a whole next block in one burst stalls the core as long as the fetch takes; SpreadPrefetch issues a few
// lines after each kernel call instead, so they arrive while the kernel computes.
#pragma once

#include <cstdint>

namespace aclnn_cpu {
namespace conv_bwd {

class SpreadPrefetch {
 public:
  // The lines holding bytes [0, bytes) from each of `rows` starts, first + r · pitch bytes, issued over `portions`
  // calls of step(); anything not issued by then is dropped by the next start().
  void start(const void *first, int64_t pitch, int64_t rows, int64_t bytes, int64_t portions) {
    first_ = reinterpret_cast<uintptr_t>(first);
    pitch_ = pitch;
    // Each row from the line holding its first byte: as many lines as a row of `bytes` can touch at any offset in a
    // line (rows a pitch apart that is no multiple of a line start at different offsets).
    lines_per_row_ = (bytes + 2 * kLine - 2) / kLine;
    next_ = 0;
    total_ = bytes > 0 ? rows * lines_per_row_ : 0;
    per_step_ = portions > 0 ? (total_ + portions - 1) / portions : total_;
  }

  void step() {
    const int64_t end = next_ + per_step_ < total_ ? next_ + per_step_ : total_;
    for (; next_ < end; ++next_) {
      const int64_t row = next_ / lines_per_row_, line = next_ % lines_per_row_;
      const uintptr_t at = (first_ + static_cast<uintptr_t>(row * pitch_)) & ~uintptr_t{kLine - 1};
      __builtin_prefetch(reinterpret_cast<const void *>(at + static_cast<uintptr_t>(line * kLine)), 0, 2);
    }
  }

 private:
  static constexpr int64_t kLine = 64;
  uintptr_t first_ = 0;
  int64_t pitch_ = 0, lines_per_row_ = 0, next_ = 0, total_ = 0, per_step_ = 0;
};

}  // namespace conv_bwd
}  // namespace aclnn_cpu

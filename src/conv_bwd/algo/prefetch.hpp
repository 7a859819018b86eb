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
    pitch_ = pitch;
    // Each row from the line holding its first byte: as many lines as a row of `bytes` can touch at any offset in a
    // line (rows a pitch apart that is no multiple of a line start at different offsets).
    lines_per_row_ = (bytes + 2 * kLine - 2) / kLine;
    row_start_ = reinterpret_cast<uintptr_t>(first);
    line_ = 0;
    left_ = bytes > 0 ? rows * lines_per_row_ : 0;
    per_step_ = portions > 0 ? (left_ + portions - 1) / portions : left_;
  }

  // The next portion, rows and lines walked by counters: step() runs after every kernel call, so no divisions.
  void step() {
    for (int64_t n = left_ < per_step_ ? left_ : per_step_; n > 0; --n, --left_) {
      const uintptr_t at = (row_start_ & ~uintptr_t{kLine - 1}) + static_cast<uintptr_t>(line_ * kLine);
      __builtin_prefetch(reinterpret_cast<const void *>(at), 0, 2);
      if (++line_ == lines_per_row_) {
        line_ = 0;
        row_start_ += static_cast<uintptr_t>(pitch_);
      }
    }
  }

 private:
  static constexpr int64_t kLine = 64;
  uintptr_t row_start_ = 0;  // the first byte of the row being issued
  int64_t pitch_ = 0, lines_per_row_ = 0, line_ = 0, left_ = 0, per_step_ = 0;
};

}  // namespace conv_bwd
}  // namespace aclnn_cpu

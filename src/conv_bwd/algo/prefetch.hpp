// Software prefetching of operand runs needed next: rows of dy a plane apart, each only a few cache lines long, are
// too short a run per row for the hardware prefetchers, so the code packing or pairing them waited on memory for every
// row (BF16, ResNet's 1 × 1 64→256 layer at 56²: gemm_backward_data's pairing took longer than its kernel calls).
// Prefetching a whole next block in one burst stalls the core as long as the fetch takes; SpreadPrefetch issues a few
// lines after each kernel call instead, so they arrive while the kernel computes.
#pragma once

#include <cstdint>

namespace aclnn_cpu {
namespace conv_bwd {

// The lines holding bytes [0, bytes) from `at` on, into L2.
inline void prefetch_run(const void *at, int64_t bytes) {
  const char *p = static_cast<const char *>(at);
  for (int64_t o = 0; o < bytes; o += 64) __builtin_prefetch(p + o, 0, 2);
  if (bytes > 0) __builtin_prefetch(p + bytes - 1, 0, 2);
}

class SpreadPrefetch {
 public:
  // The lines holding bytes [0, bytes) from each of `rows` starts, first + r · pitch bytes, issued over `portions`
  // calls of step(); anything not issued by then is dropped by the next start().
  void start(const void *first, int64_t pitch, int64_t rows, int64_t bytes, int64_t portions) {
    first_ = static_cast<const char *>(first);
    pitch_ = pitch;
    const uintptr_t begin = reinterpret_cast<uintptr_t>(first_) & ~uintptr_t{kLine - 1};
    lead_ = static_cast<int64_t>(reinterpret_cast<uintptr_t>(first_) - begin);
    lines_per_row_ = (lead_ + bytes + kLine - 1) / kLine;
    next_ = 0;
    total_ = bytes > 0 ? rows * lines_per_row_ : 0;
    per_step_ = portions > 0 ? (total_ + portions - 1) / portions : total_;
  }

  void step() {
    const int64_t end = next_ + per_step_ < total_ ? next_ + per_step_ : total_;
    for (; next_ < end; ++next_) {
      const int64_t row = next_ / lines_per_row_, line = next_ % lines_per_row_;
      __builtin_prefetch(first_ + row * pitch_ - lead_ + line * kLine, 0, 2);
    }
  }

 private:
  static constexpr int64_t kLine = 64;
  const char *first_ = nullptr;
  int64_t pitch_ = 0, lead_ = 0, lines_per_row_ = 0, next_ = 0, total_ = 0, per_step_ = 0;
};

}  // namespace conv_bwd
}  // namespace aclnn_cpu

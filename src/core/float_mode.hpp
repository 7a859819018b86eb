// The floating-point mode every computation of this library is written for: IEEE round to nearest even, subnormal
// inputs and results kept (no flush-to-zero, no denormals-are-zero), every exception masked. The caller's thread may
// be in another: PyTorch's torch.set_flush_denormal(True) sets flush-to-zero, and a program linked with -ffast-math's
// startup code starts that way. Left in force, it would change results (subnormal products and sums flushed, unlike
// the NPU and our references), make them depend on which thread ran an item (the pool's workers keep the mode they
// were created with), and an unmasked exception would turn an Inf or NaN in the data into SIGFPE.
#pragma once

#include <cstdint>

namespace aclnn_cpu {

// Sets the standard mode on this thread for its lifetime, and gives the thread its own mode back at the end.
class StandardFloatMode {
 public:
  StandardFloatMode();
  ~StandardFloatMode();
  StandardFloatMode(const StandardFloatMode &) = delete;
  StandardFloatMode &operator=(const StandardFloatMode &) = delete;

 private:
  uint64_t saved_ = 0;
  bool changed_ = false;
};

// Sets the standard mode on this thread for good (threads this library owns, once at their start).
void set_standard_float_mode();

}  // namespace aclnn_cpu

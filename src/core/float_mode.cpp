#include "core/float_mode.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

namespace aclnn_cpu {
namespace {

#if defined(__x86_64__) || defined(__i386__)
// MXCSR: all six exceptions masked (bits 7-12), round to nearest (bits 13-14 zero), FTZ (bit 15) and DAZ (bit 6)
// clear. The status flags (bits 0-5) are not part of the mode.
constexpr uint64_t kStandard = 0x1F80u, kFlags = 0x3Fu;
uint64_t get_mode() { return _mm_getcsr(); }
void set_mode(uint64_t mode) { _mm_setcsr(static_cast<unsigned>(mode)); }
#elif defined(__aarch64__)
// FPCR: all zero is round to nearest, no flush (FZ, FZ16), no default NaN, no trapped exceptions (Linux's default).
constexpr uint64_t kStandard = 0, kFlags = 0;
uint64_t get_mode() {
  uint64_t fpcr;
  __asm__ __volatile__("mrs %0, fpcr" : "=r"(fpcr));
  return fpcr;
}
void set_mode(uint64_t mode) { __asm__ __volatile__("msr fpcr, %0" : : "r"(mode)); }
#else
// Elsewhere the mode is left as it is.
constexpr uint64_t kStandard = 0, kFlags = 0;
uint64_t get_mode() { return kStandard; }
void set_mode(uint64_t) {}
#endif

}  // namespace

StandardFloatMode::StandardFloatMode() : saved_(get_mode()) {
  changed_ = (saved_ & ~kFlags) != kStandard;
  if (changed_) set_mode(kStandard);
}

StandardFloatMode::~StandardFloatMode() {
  if (changed_) set_mode(saved_);
}

void set_standard_float_mode() { set_mode(kStandard); }

}  // namespace aclnn_cpu

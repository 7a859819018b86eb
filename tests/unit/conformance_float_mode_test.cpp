// Results do not depend on the floating-point mode of the thread that calls (core/float_mode.hpp): with
// flush-to-zero set on the calling thread (x86: MXCSR's FTZ and DAZ, as torch.set_flush_denormal(True) sets them;
// aarch64: FPCR.FZ), a call whose products and sums are subnormal in fp32 gives the bits it gives in the standard
// mode, at one thread (everything on the calling thread) and two, and leaves the caller's mode as it was.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "conformance_harness.hpp"
#include "conv_bwd/execute.hpp"
#include "conv_bwd/plan.hpp"
#include "core/isa.hpp"
#include "problem_builder.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

namespace {

using namespace conformance;

#if defined(__x86_64__) || defined(__i386__)
constexpr bool kHaveModes = true;
constexpr uint64_t kFlushBits = 0x8040;  // MXCSR FTZ (bit 15) and DAZ (bit 6)
uint64_t read_mode() { return _mm_getcsr(); }
void write_mode(uint64_t m) { _mm_setcsr(static_cast<unsigned>(m)); }
#elif defined(__aarch64__)
constexpr bool kHaveModes = true;
constexpr uint64_t kFlushBits = uint64_t{1} << 24;  // FPCR.FZ
uint64_t read_mode() {
  uint64_t m;
  __asm__ __volatile__("mrs %0, fpcr" : "=r"(m));
  return m;
}
void write_mode(uint64_t m) { __asm__ __volatile__("msr fpcr, %0" : : "r"(m)); }
#else
constexpr bool kHaveModes = false;
constexpr uint64_t kFlushBits = 0;
uint64_t read_mode() { return 0; }
void write_mode(uint64_t) {}
#endif

// The outputs' bytes of one call of `desc` on this thread, its operands scaled by 2^-70 (normal numbers whose
// products, near 2^-140, are subnormal in fp32), planned for `threads`, executed with the flush bits set on this
// thread when `flush` (only then: the test's own conversions must not flush); `subnormals` counts the outputs'
// nonzero subnormal values. `after` receives the mode execute() left.
std::vector<unsigned char> run_tiny(const std::string &desc, int threads, bool flush, int *subnormals,
                                    uint64_t *after) {
  const ConvCase c = parse_case(desc, Data::kRandom, 7);
  CaseTensors t(c);
  for (int s : {kGradOutput, kInput, kWeight}) {
    for (int64_t i = 0; i < t.t[s].numel(); ++i) t.t[s].set(i, std::ldexp(t.t[s].get(i), -70));
  }
  const aclnn_cpu::conv_bwd::Problem p = build_problem(c, t);
  aclnn_cpu::conv_bwd::PlanContext ctx = aclnn_cpu::conv_bwd::current_plan_context();
  ctx.threads = threads;
  const aclnn_cpu::conv_bwd::Plan plan = aclnn_cpu::conv_bwd::make_plan(p, ctx);
  std::vector<unsigned char> ws(plan.bytes);
  const uint64_t standard = read_mode();
  if (flush) write_mode(standard | kFlushBits);
  const int status = aclnn_cpu::conv_bwd::execute(p, plan, ws.data(), ws.size());
  *after = read_mode();
  write_mode(standard);
  EXPECT_EQ(status, 0) << desc;
  *subnormals = 0;
  std::vector<unsigned char> out;
  for (int s : {kGradInput, kGradWeight, kGradBias}) {
    for (int64_t i = 0; i < t.t[s].numel(); ++i) {
      const double v = t.t[s].get(i);
      if (v != 0 && std::fabs(v) < 0x1p-126) ++*subnormals;
    }
    out.insert(out.end(), t.t[s].bytes().begin(), t.t[s].bytes().end());
  }
  return out;
}

TEST(ConformanceFloatMode, FlushToZeroOnTheCallingThreadChangesNothing) {
  if (!kHaveModes) GTEST_SKIP() << "no floating-point mode this test knows how to set on this architecture";
  const uint64_t standard = read_mode();
  ASSERT_EQ(standard & kFlushBits, 0u) << "the test process starts in the standard mode";
  // A dense layer (GEMM kernels) and a depthwise one (row kernels).
  for (const char *desc : {"mb2_g1_ic8oc16_ih9iw9_kh3kw3_ph1pw1_dtf32", "mb2_g8_ic8oc8_ih9iw9_kh3kw3_ph1pw1_dtf32"}) {
    for (int threads : {1, 2}) {
      int subnormals = 0, flushed_subnormals = 0;
      uint64_t after = 0;
      const std::vector<unsigned char> expected = run_tiny(desc, threads, false, &subnormals, &after);
      EXPECT_GT(subnormals, 0) << desc << ": the data must give subnormal results, or flushing could not show";
      const std::vector<unsigned char> got = run_tiny(desc, threads, true, &flushed_subnormals, &after);
      constexpr uint64_t kX86Flags = 0x3F;  // MXCSR's status flags, which any arithmetic may set
      EXPECT_EQ(after & ~kX86Flags, (standard | kFlushBits) & ~kX86Flags)
          << desc << ": the caller's mode must be given back";
      EXPECT_EQ(flushed_subnormals, subnormals) << desc << " threads " << threads;
      EXPECT_TRUE(got == expected) << desc << " threads " << threads << ": other bits under flush-to-zero";
    }
  }
}

}  // namespace

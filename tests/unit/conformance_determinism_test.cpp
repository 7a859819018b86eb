// Determinism: the same call gives bitwise-identical outputs for any thread count and on
// every run, because every output element is summed by one thread in an order fixed by the problem.
// ctest's conformance_threads16/64 run this again with ACLNN_CPU_NUM_THREADS set, which joins the counts compared.
#include <gtest/gtest.h>

#include "conformance_harness.hpp"
#include "core/config.hpp"

namespace conformance {
namespace {

class ConformanceDeterminism : public ::testing::Test {
 protected:
  void SetUp() override { saved_ = aclnn_cpu::settings().num_threads; }
  void TearDown() override { aclnn_cpu::set_num_threads(saved_); }

  // The thread counts compared with one thread: 2 and 3 always, and the configured count when it is larger.
  std::vector<int> thread_counts() const {
    std::vector<int> counts = {2, 3};
    if (saved_ > 3) counts.push_back(saved_);
    return counts;
  }

  // Output bytes of one run with `threads` threads.
  static std::vector<unsigned char> run_with(const ConvCase &c, int threads) {
    aclnn_cpu::set_num_threads(threads);
    CaseTensors t(c);
    std::string error;
    EXPECT_EQ(run_direct(c, t, &error), 0) << error;
    std::vector<unsigned char> out;
    for (int s = kGradInput; s < kSlots; ++s) out.insert(out.end(), t.t[s].bytes().begin(), t.t[s].bytes().end());
    return out;
  }

 private:
  int saved_ = 0;
};

TEST_F(ConformanceDeterminism, OneTwoAndThreeThreadsAndRepeatedRunsAreBitwiseEqual) {
  // Large enough that every algorithm splits its outputs over several ranges.
  const char *cases[] = {"mb2_g2_ic16oc16_ih12iw12_kh3kw3_sh1sw1_ph1pw1_dh1dw1_dtf32_cmt1",
                         "mb2_g1_ic8oc12_id4ih8iw8_kd3kh3kw3_sd2sh1sw1_pd1ph1pw1_dd1dh1dw1_tr1_opd1oph0opw0_dtbf16",
                         "mb4_g1_ic16oc16_iw64_kw5_sw1_pw2_dw1_dtf16",
                         // gradWeight's RA product with its dy blocks transposed once for the items of 2 or 3 threads
                         "mb2_g1_ic40oc32_ih9iw10_kh3kw3_sh1sw1_ph1pw1_dh1dw1_dtf32_cmt1"};
  for (const char *text : cases) {
    const ConvCase c = parse_case(text, Data::kRandom, 41);
    ASSERT_TRUE(check_case(c));
    const std::vector<unsigned char> one = run_with(c, 1);
    for (int threads : thread_counts()) EXPECT_EQ(one, run_with(c, threads)) << text << " at " << threads << " threads";
    EXPECT_EQ(one, run_with(c, 2)) << text;
    EXPECT_EQ(one, run_with(c, 1)) << text;
  }
}

}  // namespace
}  // namespace conformance

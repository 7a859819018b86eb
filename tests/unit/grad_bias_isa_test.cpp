// gradBias's block adds are compiled once per ISA at its register width; every ISA this CPU runs must give the bits
// of the specified order: a channel's k-th value (samples in turn) into double lane k mod 32, the lanes folded by the
// fixed tree (lane l += lane l + w for w = 16, 8, 4, 2, 1), rounded to fp32. Values spread over 2^±30 make the sums
// inexact; values of ±2^90 make a lane or fold order other than that one change them by far more than an ulp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "conformance_harness.hpp"
#include "conv_bwd/algo/grad_bias.hpp"
#include "conv_bwd/algo/rounding.hpp"
#include "conv_bwd/canonical.hpp"
#include "core/isa.hpp"

namespace conformance {
namespace {

using aclnn_cpu::Isa;
using aclnn_cpu::conv_bwd::Canonical;
using aclnn_cpu::conv_bwd::make_canonical;
using aclnn_cpu::conv_bwd::Problem;
using aclnn_cpu::conv_bwd::Rounding;

std::vector<Isa> runnable_isas() {
  std::vector<Isa> isas;
  for (Isa isa : {Isa::kScalar, Isa::kAvx2, Isa::kAvx512, Isa::kNeon}) {
    if (aclnn_cpu::isa_includes(aclnn_cpu::cpu_isa(), isa)) isas.push_back(isa);
  }
  return isas;
}

// Planes of 37·41 = 1517 values (whole blocks of 32 and a remainder, lanes continuing across samples), a gradOutput
// with gaps between its elements (decoded in chunks, not read in place), and short planes of 7·7 values (gathered over
// the samples before they are added) in channel blocks of 5 (one thread), the last of one channel.
TEST(GradBiasIsa, EveryIsaSumsInTheSpecifiedLaneOrder) {
  for (const char *name :
       {"mb3_g1_ic2oc5_ih37iw41_kh1kw1", "mb2_g1_ic2oc3_ih9iw70_kh1kw1", "mb9_g1_ic2oc21_ih7iw7_kh1kw1"}) {
    ConvCase c = parse_case(name);
    if (std::string(name).find("iw70") != std::string::npos) c.layout[kGradOutput] = Layout{{}, 2, 3};
    CaseTensors t(c);
    std::mt19937 gen(7);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    std::uniform_int_distribution<int> scale(-30, 30);
    const std::vector<int64_t> &shape = t.t[kGradOutput].shape();
    const int64_t numel = t.t[kGradOutput].numel(), plane = numel / (shape[0] * shape[1]);
    for (int64_t i = 0; i < numel; ++i) t.t[kGradOutput].set(i, std::ldexp(unit(gen), scale(gen)));
    // ±2^90 in each plane at positions 16 apart (lanes folded together at the first level): each absorbs the values
    // later added to its lane, so which values are lost depends on the lane of every value and on the tree.
    for (int64_t q = 0; q < numel / plane; ++q) {
      t.t[kGradOutput].set(q * plane + 3, std::ldexp(1.0, 90));
      t.t[kGradOutput].set(q * plane + 19, -std::ldexp(1.0, 90));
    }
    const Problem p = build_problem(c, t);
    Canonical k;
    std::string error;
    ASSERT_TRUE(make_canonical(p, &k, &error)) << error;
    const Rounding rounding(p);
    const int64_t channels = k.grad_output.shape[1];
    std::vector<float> first;
    for (Isa isa : runnable_isas()) {
      std::vector<float> sums(channels, -1.0f);
      aclnn_cpu::conv_bwd::sum_grad_bias(k.grad_output, isa, 1, rounding, sums.data());
      for (int64_t ch = 0; ch < channels; ++ch) {
        double lanes[32] = {};
        int64_t at = 0;
        for (int64_t n = 0; n < k.grad_output.shape[0]; ++n) {
          for (int64_t i = 0; i < plane; ++i) lanes[at++ % 32] += t.t[kGradOutput].get((n * channels + ch) * plane + i);
        }
        for (int w = 16; w > 0; w /= 2) {
          for (int l = 0; l < w; ++l) lanes[l] += lanes[l + w];
        }
        EXPECT_EQ(sums[ch], static_cast<float>(lanes[0]))
            << name << " " << aclnn_cpu::isa_name(isa) << " channel " << ch;
      }
      if (first.empty()) {
        first = sums;
      } else {
        EXPECT_EQ(std::memcmp(first.data(), sums.data(), sums.size() * sizeof(float)), 0)
            << name << ": " << aclnn_cpu::isa_name(isa) << " differs from scalar";
      }
    }
  }
}

}  // namespace
}  // namespace conformance

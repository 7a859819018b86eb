// gradBias's block adds are compiled once per ISA at its register width; the sums must be the same bits on every
// ISA this CPU runs, and the fp64 sum of gradOutput's channel rounded to fp32 (32 double lanes lose nothing here).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
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
  for (Isa isa : {Isa::kScalar, Isa::kAvx2, Isa::kAvx512}) {
    if (static_cast<int>(isa) <= static_cast<int>(aclnn_cpu::cpu_isa())) isas.push_back(isa);
  }
  return isas;
}

// Planes of 37·41 = 1517 values (whole blocks of 32 and a remainder, lanes continuing across samples) and a
// gradOutput with gaps between its elements (decoded in chunks, not read in place).
TEST(GradBiasIsa, EveryIsaGivesTheSameBitsAndTheRoundedSum) {
  for (const char *name : {"mb3_g1_ic2oc5_ih37iw41_kh1kw1", "mb2_g1_ic2oc3_ih9iw70_kh1kw1"}) {
    ConvCase c = parse_case(name);
    if (std::string(name).find("iw70") != std::string::npos) c.layout[kGradOutput] = Layout{{}, 2, 3};
    CaseTensors t(c);
    const Problem p = build_problem(c, t);
    Canonical k;
    std::string error;
    ASSERT_TRUE(make_canonical(p, &k, &error)) << error;
    const Rounding rounding(p);
    const int64_t channels = k.grad_output.shape[1];
    std::vector<float> first;
    for (Isa isa : runnable_isas()) {
      std::vector<float> sums(channels, -1.0f);
      aclnn_cpu::conv_bwd::sum_grad_bias(k.grad_output, isa, rounding, sums.data());
      for (int64_t ch = 0; ch < channels; ++ch) {
        double exact = 0.0;
        const int64_t plane = k.grad_output.spatial_numel();
        for (int64_t n = 0; n < k.grad_output.shape[0]; ++n) {
          for (int64_t i = 0; i < plane; ++i) exact += t.t[kGradOutput].get((n * channels + ch) * plane + i);
        }
        EXPECT_EQ(sums[ch], static_cast<float>(exact)) << name << " " << aclnn_cpu::isa_name(isa) << " channel " << ch;
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

// Every algorithm of the table (conv_bwd/algorithms.hpp) as its output's first choice: the algorithms its output
// tries before it are skipped (ACLNN_CPU_ALGO=-name,...), and the feature cases and seeded random configurations run
// against the fp64 reference. The sweep is the table's: an algorithm added there is swept here, and each must be
// chosen by some case (else the sweep would prove nothing about it).
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "conformance_cases.hpp"
#include "conformance_harness.hpp"
#include "conv_bwd/algorithms.hpp"
#include "conv_bwd/plan.hpp"
#include "core/config.hpp"

namespace conformance {
namespace {

using aclnn_cpu::conv_bwd::AlgorithmEntry;
using aclnn_cpu::conv_bwd::algorithms_begin;
using aclnn_cpu::conv_bwd::algorithms_end;

std::vector<const AlgorithmEntry *> entries() {
  std::vector<const AlgorithmEntry *> all;
  for (const AlgorithmEntry *e = algorithms_begin(); e != algorithms_end(); ++e) all.push_back(e);
  return all;
}

class ConformanceAlgorithmSweep : public ::testing::TestWithParam<const AlgorithmEntry *> {
 protected:
  void SetUp() override {
    saved_ = conformance::algo_setting();
    set_algo(aclnn_cpu::conv_bwd::setting_with_first(*GetParam()));
  }
  void TearDown() override { set_algo(saved_); }

  static void set_algo(const std::string &value) { conformance::set_algo_setting(value); }

  // Checks c and says whether the plan gave the swept algorithm its output.
  bool check_and_whether_chosen(const ConvCase &c) {
    CaseTensors tensors(c);
    const aclnn_cpu::conv_bwd::Problem p = build_problem(c, tensors);
    const aclnn_cpu::conv_bwd::Plan plan = make_plan(p, aclnn_cpu::conv_bwd::current_plan_context());
    const AlgorithmEntry &e = *GetParam();
    const bool input = e.output == aclnn_cpu::conv_bwd::Output::kGradInput;
    const bool chosen = (input ? plan.grad_input : plan.grad_weight).algorithm == e.id;
    CaseTensors fresh(c);
    EXPECT_TRUE(check_case(c, fresh)) << e.name << " first, " << case_text(c);
    return chosen;
  }

  std::string saved_;
};

TEST_P(ConformanceAlgorithmSweep, AgreesWithTheReferenceWhereverItIsChosen) {
  // The feature suite's cases (conformance_sweep_test.cpp) and its seeded configurations, as that suite runs them.
  int chosen = 0;
  for (const std::string &text : feature_cases()) {
    chosen += check_and_whether_chosen(parse_case(text, Data::kIntegers, 3));
    chosen += check_and_whether_chosen(parse_case(text, Data::kRandom, 4));
    for (const char *dt : {"_dtf16", "_dtbf16", "_dtf16:f32:bf16:f32:f16:bf16"}) {
      for (int cmt = 0; cmt < 4; ++cmt) {
        chosen += check_and_whether_chosen(parse_case(text + dt + "_cmt" + std::to_string(cmt), Data::kRandom, 5));
      }
    }
  }
  for (uint64_t seed = 1; seed <= 200; ++seed) chosen += check_and_whether_chosen(random_case(seed));
  EXPECT_GT(chosen, 0) << GetParam()->name << " was never chosen: the sweep does not reach it";
  std::printf("[ sweep    ] %-22s first (%s): chosen in %d cases\n", GetParam()->name,
              aclnn_cpu::conv_bwd::setting_with_first(*GetParam()).c_str(), chosen);
}

// ACLNN_CPU_ALGO takes the table's names (and the fused depthwise pass), which the settings learn from the table.
TEST(AlgorithmTable, AclnnCpuAlgoSkipsExactlyItsNames) {
  const char *was = std::getenv("ACLNN_CPU_ALGO");
  const std::string saved = was != nullptr ? was : "";
  std::string names;
  for (const AlgorithmEntry *e = algorithms_begin(); e != algorithms_end(); ++e) {
    setenv("ACLNN_CPU_ALGO", (std::string("-") + e->name).c_str(), 1);
    std::string error;
    EXPECT_TRUE(aclnn_cpu::load_settings_from_env(&error)) << e->name << ": " << error;
    EXPECT_EQ(aclnn_cpu::settings().disabled_algorithms, std::string(",") + e->name + ",");
    names += std::string(names.empty() ? "" : ", ") + e->name;
  }
  setenv("ACLNN_CPU_ALGO", "-gemm_weight,-no_such_algorithm", 1);
  std::string error;
  EXPECT_FALSE(aclnn_cpu::load_settings_from_env(&error));
  EXPECT_NE(error.find("\"-no_such_algorithm\" is not -name with name one of " + names + ", depthwise_both"),
            std::string::npos)
      << error;
  if (saved.empty()) {
    unsetenv("ACLNN_CPU_ALGO");
  } else {
    setenv("ACLNN_CPU_ALGO", saved.c_str(), 1);
  }
  EXPECT_TRUE(aclnn_cpu::load_settings_from_env(&error)) << error;
}

INSTANTIATE_TEST_SUITE_P(Table, ConformanceAlgorithmSweep, ::testing::ValuesIn(entries()),
                         [](const ::testing::TestParamInfo<const AlgorithmEntry *> &info) {
                           return std::string(info.param->name);
                         });

}  // namespace
}  // namespace conformance

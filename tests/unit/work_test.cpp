// The plan's work (conv_bwd/work.hpp): the simulation of a thread count on jobs of known costs, the loops' range cuts
// it shares with the run, and, for every algorithm of the table, that the jobs the plan predicts are the jobs the
// run runs (the same loops, in the same order, over the same number of items), so the prediction cannot drift from
// the code it describes.
#include "conv_bwd/work.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "conformance_cases.hpp"
#include "conformance_harness.hpp"
#include "conv_bwd/algorithms.hpp"
#include "conv_bwd/parallel.hpp"
#include "conv_bwd/plan.hpp"
#include "core/config.hpp"

namespace conformance {
namespace {

using aclnn_cpu::conv_bwd::for_ranges;
using aclnn_cpu::conv_bwd::ItemTimes;
using aclnn_cpu::conv_bwd::LoopKind;
using aclnn_cpu::conv_bwd::Ranges;
using aclnn_cpu::conv_bwd::simulate;
using aclnn_cpu::conv_bwd::slot_ranges;
using aclnn_cpu::conv_bwd::uniform_phase;
using aclnn_cpu::conv_bwd::Work;
using aclnn_cpu::conv_bwd::WorkPhase;

constexpr double kBig = 1e12;  // a loop cost far above what makes a loop use every thread

void expect_cover(const Ranges &r, int64_t count) {
  ASSERT_GE(r.ranges, 1);
  EXPECT_EQ(r.begin(0), 0);
  EXPECT_EQ(r.begin(r.ranges), count);
  for (int64_t i = 0; i < r.ranges; ++i) EXPECT_LT(r.begin(i), r.begin(i + 1)) << "range " << i << " is empty";
}

TEST(WorkRanges, CoverEveryItemOnceInOrder) {
  for (int64_t count : {1, 2, 7, 64, 1000, 100003}) {
    for (int threads : {1, 2, 3, 16, 64}) {
      expect_cover(for_ranges(count, 1 << 20, threads), count);
      expect_cover(for_ranges(count, 1, threads), count);
      expect_cover(slot_ranges(count, threads, kBig, threads), count);
      expect_cover(slot_ranges(count, threads, 1, threads), count);
    }
  }
}

TEST(WorkRanges, SmallJobsUseFewerThreads) {
  EXPECT_EQ(slot_ranges(100, 64, 1000, 64).participants, 1);  // below one range's worth
  EXPECT_EQ(slot_ranges(100, 64, kBig, 64).participants, 64);
  EXPECT_EQ(slot_ranges(100, 4, kBig, 64).participants, 4);  // at most the slots
  EXPECT_EQ(for_ranges(10, 1 << 20, 4).ranges, 4);
  EXPECT_EQ(for_ranges(10, 1, 4).ranges, 1);
}

TEST(WorkSimulation, KnownSpreads) {
  // 4 equal items on 2 threads: both busy all the time.
  Work even{uniform_phase("even", LoopKind::kSlots, 4, 2, kBig, 1.0)};
  EXPECT_DOUBLE_EQ(simulate(even, 2).efficiency(2), 1.0);
  EXPECT_DOUBLE_EQ(simulate(even, 2).span, 2.0);
  // 3 equal items on 2 threads: the second round has one.
  Work odd{uniform_phase("odd", LoopKind::kSlots, 3, 2, kBig, 1.0)};
  EXPECT_DOUBLE_EQ(simulate(odd, 2).efficiency(2), 0.75);
  // parallel_for cuts 10 items into 4 ranges of 3, 3, 2, 2.
  Work ten{uniform_phase("ten", LoopKind::kFor, 10, 4, 1 << 20, 1.0)};
  EXPECT_DOUBLE_EQ(simulate(ten, 4).span, 3.0);
  EXPECT_NEAR(simulate(ten, 4).efficiency(4), 10.0 / 12.0, 1e-12);
  // Serial code counts on one thread whatever the thread count.
  Work serial{aclnn_cpu::conv_bwd::serial_phase("serial", 5.0)};
  EXPECT_DOUBLE_EQ(simulate(serial, 8).efficiency(8), 1.0 / 8.0);
  // A long item handed out first keeps one thread busy while the others share the rest: 8 | 1+1+1+1 on 2 threads,
  // as the pool hands ranges (one item each here: 5 items, 2 participants, 8 ranges per participant at most).
  WorkPhase uneven = uniform_phase("uneven", LoopKind::kSlots, 5, 2, kBig, 0);
  uneven.cost = {8, 1, 1, 1, 1};
  EXPECT_DOUBLE_EQ(simulate(Work{uneven}, 2).span, 8.0);
  // Given costs replace the model's: the long item last waits for the four short ones (2 each) then runs on thread 0.
  EXPECT_DOUBLE_EQ(simulate(Work{uneven}, {{1, 1, 1, 1, 8}}, 2).span, 10.0);
  // Jobs run one after the other: spans add.
  Work both{even[0], odd[0]};
  EXPECT_DOUBLE_EQ(simulate(both, 2).span, 4.0);
  EXPECT_DOUBLE_EQ(simulate(both, 2).work, 7.0);
}

class WorkOfThePlan : public ::testing::TestWithParam<const aclnn_cpu::conv_bwd::AlgorithmEntry *> {
 protected:
  void SetUp() override {
    saved_algo_ = algo_setting();
    set_algo_setting(aclnn_cpu::conv_bwd::setting_with_first(*GetParam()));
  }
  void TearDown() override { set_algo_setting(saved_algo_); }

  // Runs c planned for `threads` while recording its jobs; false when the plan's work differs from them. Counts
  // whether the swept algorithm had an output.
  void expect_same_jobs(const ConvCase &c, int threads) {
    CaseTensors tensors(c);
    const aclnn_cpu::conv_bwd::Problem p = build_problem(c, tensors);
    aclnn_cpu::conv_bwd::PlanContext ctx = aclnn_cpu::conv_bwd::current_plan_context();
    ctx.threads = threads;
    const aclnn_cpu::conv_bwd::Plan plan = aclnn_cpu::conv_bwd::make_plan(p, ctx);
    const Work work = aclnn_cpu::conv_bwd::plan_work(p, plan);
    std::vector<unsigned char> workspace(plan.bytes, 0x4B);
    ItemTimes times;
    ASSERT_EQ(aclnn_cpu::conv_bwd::execute(p, plan, plan.bytes ? workspace.data() : nullptr, plan.bytes), 0);
    std::vector<const WorkPhase *> loops;
    for (const WorkPhase &ph : work) {
      if (!ph.serial) loops.push_back(&ph);
    }
    std::string predicted, ran;
    for (const WorkPhase *ph : loops) {
      predicted += ph->name + (ph->kind == LoopKind::kFor ? "(for " : "(slots ") + std::to_string(ph->count) + ") ";
    }
    for (const auto &job : times.jobs()) {
      ran += std::string(job.kind == LoopKind::kFor ? "(for " : "(slots ") + std::to_string(job.item_seconds.size()) +
             ") ";
    }
    bool same = loops.size() == times.jobs().size();
    for (size_t j = 0; same && j < loops.size(); ++j) {
      same = loops[j]->kind == times.jobs()[j].kind &&
             loops[j]->count == static_cast<int64_t>(times.jobs()[j].item_seconds.size());
    }
    EXPECT_TRUE(same) << case_text(c) << " at " << threads << " threads: " << describe_plan(plan)
                      << "\n  predicted: " << predicted << "\n  ran:       " << ran;
    // And the outputs are still right when every job runs item by item: bitwise those of the checked call (planned
    // for the configured thread count).
    const std::vector<unsigned char> item_by_item = output_bytes(tensors);
    EXPECT_TRUE(check_case(c, tensors)) << case_text(c);
    EXPECT_TRUE(output_bytes(tensors) == item_by_item) << case_text(c) << " at " << threads << " threads";
    const aclnn_cpu::conv_bwd::Output out = GetParam()->output;
    chosen_ += (out == aclnn_cpu::conv_bwd::Output::kGradInput ? plan.grad_input : plan.grad_weight).algorithm ==
               GetParam()->id;
  }

  int chosen_ = 0;

 private:
  std::string saved_algo_;
};

TEST_P(WorkOfThePlan, IsTheJobsTheRunRuns) {
  for (const std::string &text : feature_cases()) {
    for (const char *dt : {"", "_dtbf16", "_dtf32_cmt1"}) {
      // 16 threads: gemm_weight's items also cut dW's rows where its columns give too few.
      for (int threads : {1, 3, 16}) expect_same_jobs(parse_case(text + dt, Data::kRandom, 9), threads);
    }
  }
  // Many output channels, few columns: at 16 threads gradWeight's GEMMs cut dW's rows too (gemm_weight's NN form on
  // 7², NT on 24² with 70 rows: a last partial MR tile; gemm_weight_shifted's RA product, its only K block per item
  // and two, and its NT product).
  for (const char *many_rows : {"mb2_g1_ic8oc64_ih7iw7_kh1kw1", "mb1_g2_ic6oc140_ih24iw24_kh2kw1_ph1pw0",
                                "mb2_g1_ic8oc64_ih9iw9_kh3kw3_ph1pw1", "mb8_g1_ic8oc64_ih9iw9_kh3kw3_ph1pw1",
                                // gemm_weight's K blocks of 2 samples, the last of 1
                                "mb7_g1_ic8oc64_ih5iw5_kh3kw3_ph1pw1"}) {
    for (const char *dt : {"", "_dtbf16"}) {
      expect_same_jobs(parse_case(std::string(many_rows) + dt, Data::kRandom, 9), 16);
    }
  }
  for (uint64_t seed = 1; seed <= 40; ++seed) expect_same_jobs(random_case(seed), 2);
  EXPECT_GT(chosen_, 0) << GetParam()->name << " was never chosen";
}

std::vector<const aclnn_cpu::conv_bwd::AlgorithmEntry *> entries() {
  std::vector<const aclnn_cpu::conv_bwd::AlgorithmEntry *> all;
  for (auto *e = aclnn_cpu::conv_bwd::algorithms_begin(); e != aclnn_cpu::conv_bwd::algorithms_end(); ++e) {
    all.push_back(e);
  }
  return all;
}

INSTANTIATE_TEST_SUITE_P(EveryAlgorithmFirst, WorkOfThePlan, ::testing::ValuesIn(entries()),
                         [](const ::testing::TestParamInfo<const aclnn_cpu::conv_bwd::AlgorithmEntry *> &info) {
                           return std::string(info.param->name);
                         });

}  // namespace
}  // namespace conformance

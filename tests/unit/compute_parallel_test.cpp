// parallel_for (src/conv_bwd/parallel.hpp): exact coverage, a partition fixed by count, threads and cost,
// concurrent callers and nested calls.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

#include "conv_bwd/parallel.hpp"
#include "core/config.hpp"

namespace aclnn_cpu {
namespace conv_bwd {
namespace {

class ComputeParallel : public ::testing::Test {
 protected:
  void SetUp() override { saved_ = settings().num_threads; }
  void TearDown() override { set_num_threads(saved_); }

  // The ranges parallel_for hands out, sorted by begin.
  static std::vector<std::pair<int64_t, int64_t>> ranges(int64_t count, int64_t cost) {
    std::mutex m;
    std::vector<std::pair<int64_t, int64_t>> out;
    parallel_for(count, cost, [&](int64_t b, int64_t e) {
      std::lock_guard<std::mutex> lock(m);
      out.emplace_back(b, e);
    });
    std::sort(out.begin(), out.end());
    return out;
  }

 private:
  int saved_ = 0;
};

TEST_F(ComputeParallel, EveryItemRunsExactlyOnce) {
  for (int threads : {1, 2, 3, 8}) {
    set_num_threads(threads);
    for (int64_t count : {0, 1, 2, 7, 1000, 100003}) {
      for (int64_t cost : {int64_t{1}, int64_t{1} << 20}) {
        std::vector<std::atomic<int>> hits(static_cast<size_t>(count));
        parallel_for(count, cost, [&](int64_t b, int64_t e) {
          for (int64_t i = b; i < e; ++i) hits[static_cast<size_t>(i)]++;
        });
        for (int64_t i = 0; i < count; ++i)
          ASSERT_EQ(hits[static_cast<size_t>(i)].load(), 1) << threads << " " << count;
      }
    }
  }
}

TEST_F(ComputeParallel, PartitionDependsOnlyOnCountThreadsAndCost) {
  set_num_threads(2);
  EXPECT_EQ(ranges(1000, 1 << 20), (std::vector<std::pair<int64_t, int64_t>>{{0, 500}, {500, 1000}}));
  EXPECT_EQ(ranges(1000, 1), (std::vector<std::pair<int64_t, int64_t>>{{0, 1000}}));  // too small to split
  set_num_threads(3);
  EXPECT_EQ(ranges(10, 1 << 20), (std::vector<std::pair<int64_t, int64_t>>{{0, 4}, {4, 7}, {7, 10}}));
  EXPECT_EQ(ranges(2, 1 << 20), (std::vector<std::pair<int64_t, int64_t>>{{0, 1}, {1, 2}}));
}

TEST_F(ComputeParallel, ConcurrentAndNestedCallersAllFinish) {
  set_num_threads(2);
  std::atomic<int64_t> total{0};
  auto work = [&] {
    for (int round = 0; round < 50; ++round) {
      parallel_for(64, 1 << 20, [&](int64_t b, int64_t e) {
        // A nested call finds the pool busy and runs inline.
        parallel_for(e - b, 1 << 20, [&](int64_t nb, int64_t ne) { total += ne - nb; });
      });
    }
  };
  std::thread a(work), b(work);
  a.join();
  b.join();
  EXPECT_EQ(total.load(), 2 * 50 * 64);
}

TEST_F(ComputeParallel, ARangeThatThrowsFailsTheJobAndLeavesThePoolUsable) {
  set_num_threads(2);
  std::atomic<int64_t> ran{0};
  EXPECT_THROW(parallel_for(8, 1 << 20,
                            [&](int64_t b, int64_t e) {
                              ran += e - b;
                              if (b == 0) throw std::bad_alloc();
                            }),
               std::bad_alloc);
  EXPECT_EQ(ran.load(), 8);  // every other range still ran before the failure was reported
  std::atomic<int64_t> after{0};
  parallel_for(8, 1 << 20, [&](int64_t b, int64_t e) { after += e - b; });
  EXPECT_EQ(after.load(), 8);
}

}  // namespace
}  // namespace conv_bwd
}  // namespace aclnn_cpu

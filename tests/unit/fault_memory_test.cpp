// Out of device memory (docs/faults.md), simulated by ACLNN_CPU_MEM_LIMIT: live device blocks
// (their reserved bytes) may not exceed it; a refused aclrtMalloc is ACL_ERROR_RT_MEMORY_ALLOCATION (207001),
// allocates nothing and leaves *devPtr alone. Host memory (aclrtMallocHost) is not limited.
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "core/config.hpp"
#include "runtime/diagnostics.hpp"
#include "runtime/memory.hpp"
#include "runtime_fixture.hpp"

namespace {

using runtime_test::take_error;

// Restores the limit a test changes (aclInit would re-read it from the environment only when first).
class LimitKeeper {
 public:
  LimitKeeper() : saved_(aclnn_cpu::settings().mem_limit) {}
  ~LimitKeeper() { aclnn_cpu::set_mem_limit(saved_); }

 private:
  uint64_t saved_;
};

size_t reserved(size_t size) {
  size_t bytes = 0;
  EXPECT_TRUE(aclnn_cpu::runtime::block_size(size, true, &bytes));
  return bytes;
}

class FaultMemory : public runtime_test::RuntimeTest {
 protected:
  LimitKeeper limit_;
};

TEST_F(FaultMemory, AnAllocationPastTheLimitIs207001AndAllocatesNothing) {
  const size_t block = reserved(1000);  // 1056: 1000 rounded up to 32, plus 32
  aclnn_cpu::set_mem_limit(2 * block);
  void *a = nullptr;
  void *b = nullptr;
  ASSERT_EQ(aclrtMalloc(&a, 1000, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&b, 1000, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  const size_t blocks = aclnn_cpu::runtime::live_counts().blocks;
  void *c = reinterpret_cast<void *>(0x1);
  EXPECT_EQ(aclrtMalloc(&c, 1, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
  EXPECT_EQ(c, reinterpret_cast<void *>(0x1));
  const std::string error = take_error();
  EXPECT_NE(error.find("aclrtMalloc"), std::string::npos) << error;
  EXPECT_NE(error.find("ACLNN_CPU_MEM_LIMIT = " + std::to_string(2 * block)), std::string::npos) << error;
  EXPECT_NE(error.find(std::to_string(2 * block) + " are in use"), std::string::npos) << error;
  EXPECT_EQ(aclnn_cpu::runtime::live_counts().blocks, blocks);
  // The other device allocators count against the same limit; host memory does not.
  EXPECT_EQ(aclrtMallocCached(&c, 1, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
  EXPECT_EQ(aclrtMallocAlign32(&c, 1, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
  void *host = nullptr;
  EXPECT_EQ(aclrtMallocHost(&host, 4096), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeHost(host), ACL_SUCCESS);
  // Freeing makes room again.
  EXPECT_EQ(aclrtFree(a), ACL_SUCCESS);
  EXPECT_EQ(aclrtMalloc(&a, 1000, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(a), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(b), ACL_SUCCESS);
  EXPECT_EQ(aclnn_cpu::runtime::live_counts().device_bytes, 0u);
  take_error();
}

TEST_F(FaultMemory, ASingleRequestLargerThanTheLimitIs207001) {
  aclnn_cpu::set_mem_limit(1 << 20);
  void *p = nullptr;
  EXPECT_EQ(aclrtMalloc(&p, 2 << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
  EXPECT_EQ(p, nullptr);
  EXPECT_NE(take_error().find("out of device memory"), std::string::npos);
  // Zero removes the limit.
  aclnn_cpu::set_mem_limit(0);
  EXPECT_EQ(aclrtMalloc(&p, 2 << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
}

TEST_F(FaultMemory, GetMemInfoReportsTheLimitAsTheDeviceSize) {
  const size_t block = reserved(4000);
  aclnn_cpu::set_mem_limit(10 * block);
  void *p = nullptr;
  ASSERT_EQ(aclrtMalloc(&p, 4000, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  size_t free_bytes = 0;
  size_t total = 0;
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free_bytes, &total), ACL_SUCCESS);
  EXPECT_EQ(total, 10 * block);
  EXPECT_LE(free_bytes, 9 * block);
  EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
}

// Threads allocating at once never pass the limit together: exactly limit / block allocations succeed.
TEST_F(FaultMemory, ConcurrentAllocationsStayWithinTheLimit) {
  constexpr int kThreads = 4;
  constexpr int kTries = 6;
  constexpr int kFit = 10;
  const size_t block = reserved(4000);
  aclnn_cpu::set_mem_limit(kFit * block);
  std::vector<std::vector<void *>> got(kThreads);
  std::atomic<int> refused{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kTries; ++i) {
        void *p = nullptr;
        const aclError st = aclrtMalloc(&p, 4000, ACL_MEM_MALLOC_HUGE_FIRST);
        if (st == ACL_SUCCESS) {
          got[t].push_back(p);
        } else if (st == ACL_ERROR_RT_MEMORY_ALLOCATION) {
          ++refused;
        }
      }
    });
  }
  for (std::thread &th : threads) th.join();
  size_t succeeded = 0;
  for (const auto &g : got) succeeded += g.size();
  EXPECT_EQ(succeeded, static_cast<size_t>(kFit));
  EXPECT_EQ(refused.load(), kThreads * kTries - kFit);
  EXPECT_EQ(aclnn_cpu::runtime::live_counts().device_bytes, kFit * block);
  for (const auto &g : got) {
    for (void *p : g) EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
  }
  take_error();
}

// The variable itself: read at aclInit like the other ACLNN_CPU_* settings; a malformed value fails aclInit.
class FaultMemoryEnv : public runtime_test::LifecycleTest {
 protected:
  LimitKeeper limit_;
};

TEST_F(FaultMemoryEnv, TheLimitIsReadAtAclInit) {
  {
    runtime_test::ScopedEnv env("ACLNN_CPU_MEM_LIMIT", "65536");
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    EXPECT_EQ(aclnn_cpu::settings().mem_limit, 65536u);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    void *p = nullptr;
    EXPECT_EQ(aclrtMalloc(&p, 65536, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
    EXPECT_EQ(aclrtMalloc(&p, 60000, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  }
  for (const char *bad : {"64k", "-1", "1e6", " 5", "99999999999999999999999"}) {
    runtime_test::ScopedEnv env("ACLNN_CPU_MEM_LIMIT", bad);
    EXPECT_EQ(aclInit(nullptr), ACL_ERROR_INVALID_PARAM) << bad;
    const std::string error = take_error();
    EXPECT_NE(error.find("ACLNN_CPU_MEM_LIMIT"), std::string::npos) << error;
    EXPECT_EQ(aclnn_cpu::runtime::init_reference_count(), 0u);
  }
  runtime_test::ScopedEnv unset("ACLNN_CPU_MEM_LIMIT", "0");
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclnn_cpu::settings().mem_limit, 0u);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

}  // namespace

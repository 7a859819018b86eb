// aclrtMalloc/Free/MallocHost/FreeHost, aclrtMemcpy/Memset checks, and the allocation registry behind
// runtime::find_allocation.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/memory.hpp"
#include "runtime_fixture.hpp"

namespace {

using aclnn_cpu::runtime::find_allocation;
using runtime_test::RuntimeTest;
using runtime_test::take_error;

using MemoryTest = RuntimeTest;

size_t reserved_for(size_t size, bool padded) {
  size_t bytes = 0;
  EXPECT_TRUE(aclnn_cpu::runtime::block_size(size, padded, &bytes));
  return bytes;
}

TEST(MemoryBlockSize, RoundsUpTo32AndPadsBy32AsCannDoes) {
  EXPECT_EQ(reserved_for(1, true), 64u);
  EXPECT_EQ(reserved_for(32, true), 64u);
  EXPECT_EQ(reserved_for(33, true), 96u);
  EXPECT_EQ(reserved_for(100, true), 160u);
  EXPECT_EQ(reserved_for(1, false), 32u);
  EXPECT_EQ(reserved_for(32, false), 32u);
  EXPECT_EQ(reserved_for(33, false), 64u);
  size_t bytes = 0;
  EXPECT_FALSE(aclnn_cpu::runtime::block_size(SIZE_MAX - 10, true, &bytes));
}

TEST_F(MemoryTest, AllocationsAre32ByteAlignedAndFindAllocationMapsTheirWholeRange) {
  for (size_t size : {1u, 31u, 32u, 33u, 100u, 4096u}) {
    void *p = nullptr;
    ASSERT_EQ(aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS) << size;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 32, 0u) << size;
    const unsigned char *begin = nullptr;
    const unsigned char *end = nullptr;
    ASSERT_TRUE(find_allocation(p, &begin, &end)) << size;
    EXPECT_EQ(begin, p);
    EXPECT_EQ(static_cast<size_t>(end - begin), reserved_for(size, true)) << size;
    std::memset(p, 0xab, end - begin);  // the whole reported range is usable (ASan checks it)
    const unsigned char *inner_begin = nullptr;
    const unsigned char *inner_end = nullptr;
    ASSERT_TRUE(find_allocation(static_cast<unsigned char *>(p) + size - 1, &inner_begin, &inner_end));
    EXPECT_EQ(inner_begin, begin);
    EXPECT_EQ(inner_end, end);
    const unsigned char *other = nullptr;
    if (find_allocation(end, &other, &inner_end)) {
      EXPECT_NE(other, begin);  // one past the end is not ours
    }
    EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
    EXPECT_FALSE(find_allocation(p, &begin, &end) && begin == p);
  }
  void *aligned = nullptr;
  ASSERT_EQ(aclrtMallocAlign32(&aligned, 33, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  const unsigned char *begin = nullptr;
  const unsigned char *end = nullptr;
  ASSERT_TRUE(find_allocation(aligned, &begin, &end));
  EXPECT_EQ(end - begin, 64);
  EXPECT_EQ(aclrtFree(aligned), ACL_SUCCESS);
  void *host = nullptr;
  ASSERT_EQ(aclrtMallocHost(&host, 10), ACL_SUCCESS);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(host) % 32, 0u);
  EXPECT_TRUE(find_allocation(host, &begin, &end));
  EXPECT_EQ(aclrtFreeHost(host), ACL_SUCCESS);
  void *cached = nullptr;
  ASSERT_EQ(aclrtMallocCached(&cached, 10, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(cached), ACL_SUCCESS);
}

TEST_F(MemoryTest, BadAllocationRequestsAreRefused) {
  void *p = nullptr;
  EXPECT_EQ(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
  const std::string message = take_error();
  EXPECT_NE(message.find("aclrtMalloc"), std::string::npos) << message;
  EXPECT_NE(message.find("size = 0"), std::string::npos) << message;
  EXPECT_EQ(aclrtMalloc(nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(take_error().find("devPtr"), std::string::npos);
  EXPECT_EQ(aclrtMallocHost(&p, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMallocHost(nullptr, 8), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMalloc(&p, SIZE_MAX, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);  // padding overflows
  EXPECT_EQ(aclrtMalloc(&p, SIZE_MAX / 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION);
  EXPECT_NE(take_error().find("out of memory"), std::string::npos);
  EXPECT_EQ(p, nullptr);
}

TEST_F(MemoryTest, FreeingAnythingButALiveBlockStartIsRefusedWithoutTouchingIt) {
  void *p = nullptr;
  ASSERT_EQ(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  std::vector<unsigned char> not_ours(64, 0x5a);
  EXPECT_EQ(aclrtFree(not_ours.data()), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(take_error().find("is not a live allocation"), std::string::npos);
  EXPECT_EQ(aclrtFree(reinterpret_cast<void *>(0x10)), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtFree(static_cast<unsigned char *>(p) + 32), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(take_error().find("inside a block"), std::string::npos);
  EXPECT_EQ(aclrtFree(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtFreeHost(p), ACL_ERROR_INVALID_PARAM);  // device memory freed as host memory
  EXPECT_NE(take_error().find("aclrtFree"), std::string::npos);
  EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(p), ACL_ERROR_INVALID_PARAM);  // double free

  void *host = nullptr;
  ASSERT_EQ(aclrtMallocHost(&host, 64), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(host), ACL_ERROR_INVALID_PARAM);  // host memory freed as device memory
  EXPECT_EQ(aclrtFreeHost(host), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeHost(host), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(not_ours[0], 0x5a);
}

TEST_F(MemoryTest, MemcpyChecksPointersKindAndSizes) {
  void *device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  std::vector<unsigned char> src(64), dst(64, 0);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<unsigned char>(i);

  EXPECT_EQ(aclrtMemcpy(device, 64, src.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(dst.data(), 64, device, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(dst, src);
  for (aclrtMemcpyKind kind :
       {ACL_MEMCPY_HOST_TO_HOST, ACL_MEMCPY_DEVICE_TO_DEVICE, ACL_MEMCPY_DEFAULT, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE}) {
    EXPECT_EQ(aclrtMemcpy(dst.data(), 64, src.data(), 8, kind), ACL_SUCCESS) << kind;
  }
  EXPECT_EQ(aclrtMemcpy(dst.data(), 8, src.data(), 9, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_INVALID_PARAM);
  std::string message = take_error();
  EXPECT_NE(message.find("count = 9"), std::string::npos) << message;
  EXPECT_NE(message.find("destMax = 8"), std::string::npos) << message;
  EXPECT_EQ(aclrtMemcpy(nullptr, 8, src.data(), 8, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(take_error().find("dst"), std::string::npos);
  EXPECT_EQ(aclrtMemcpy(dst.data(), 8, nullptr, 8, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemcpy(dst.data(), 8, src.data(), 8, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(take_error().find("kind = 6"), std::string::npos);
  EXPECT_EQ(aclrtMemcpy(dst.data(), 0, src.data(), 0, ACL_MEMCPY_HOST_TO_HOST), ACL_SUCCESS);

  // Beyond CANN: a copy that would run past the end of an aclrtMalloc block is refused.
  const unsigned char *begin = nullptr;
  const unsigned char *end = nullptr;
  ASSERT_TRUE(find_allocation(device, &begin, &end));
  void *near_end = const_cast<unsigned char *>(end) - 8;
  EXPECT_EQ(aclrtMemcpy(near_end, 64, src.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
  // The message quotes the size asked for and the usable (rounded and padded) size.
  const std::string past_end = take_error();
  EXPECT_NE(past_end.find("16 bytes from there pass the end of the aclrtMalloc allocation of 64 bytes (" +
                          std::to_string(end - begin) + " usable) (8 bytes left)"),
            std::string::npos)
      << past_end;
  EXPECT_EQ(aclrtMemcpy(dst.data(), 64, near_end, 16, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemcpy(near_end, 8, src.data(), 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
}

TEST_F(MemoryTest, MemsetChecksItsCount) {
  void *device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemset(device, 64, 0x7f, 64), ACL_SUCCESS);
  EXPECT_EQ(static_cast<unsigned char *>(device)[63], 0x7f);
  EXPECT_EQ(aclrtMemset(device, 16, 0, 17), ACL_ERROR_INVALID_PARAM);
  EXPECT_NE(take_error().find("maxCount = 16"), std::string::npos);
  EXPECT_EQ(static_cast<unsigned char *>(device)[0], 0x7f);  // nothing written
  EXPECT_EQ(aclrtMemset(nullptr, 16, 0, 16), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
}

TEST_F(MemoryTest, MemInfoReportsTheHostMemory) {
  size_t free = 0;
  size_t total = 0;
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free, &total), ACL_SUCCESS);
  EXPECT_GT(total, 0u);
  EXPECT_GT(free, 0u);
  EXPECT_LE(free, total);
  EXPECT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, nullptr, &total), ACL_ERROR_INVALID_PARAM);
}

TEST_F(MemoryTest, FreeWaitsForQueuedWorkThatMayStillUseTheBlock) {
  void *device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  runtime_test::Gate gate;
  ASSERT_EQ(gate.block(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetAsync(device, 64, 1, 64, nullptr), ACL_SUCCESS);
  gate.open();
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);  // under ASan a use after free here would be reported
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
}

}  // namespace

// A launch allocates nothing: aclnnConvolutionBackward + aclrtSynchronizeStream make no malloc-family call, no
// operator new (which calls malloc) and no mmap, on any thread, for every algorithm of the table as its output's first
// choice, every dtype and cubeMathType, ordinary, NaN and Inf data (the reference fallback), outputs sharing memory
// with an operand (the reference from staged operands), calls with no term (zeros) and the empty path. The counting
// is this binary's own malloc (it replaces glibc's for the process, forwarding to it), on only while a launch and its
// synchronize run, after a first launch of the same shape has started the threads (one-time start-up). Built without
// sanitizers only (they replace malloc themselves).
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_convolution_backward.h"
#include "conformance_harness.hpp"
#include "conv_bwd/algorithms.hpp"
#include "core/config.hpp"

extern "C" {
void *__libc_malloc(size_t size);
void *__libc_calloc(size_t count, size_t size);
void *__libc_realloc(void *p, size_t size);
void *__libc_memalign(size_t alignment, size_t size);
void __libc_free(void *p);
}

namespace {

std::atomic<bool> g_counting{false};
std::atomic<long> g_calls{0};

void count() {
  if (g_counting.load(std::memory_order_relaxed)) g_calls.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

extern "C" {
void *malloc(size_t size) {
  count();
  return __libc_malloc(size);
}
void *calloc(size_t count_, size_t size) {
  count();
  return __libc_calloc(count_, size);
}
void *realloc(void *p, size_t size) {
  count();
  return __libc_realloc(p, size);
}
void *memalign(size_t alignment, size_t size) {
  count();
  return __libc_memalign(alignment, size);
}
void *aligned_alloc(size_t alignment, size_t size) {
  count();
  return __libc_memalign(alignment, size);
}
int posix_memalign(void **out, size_t alignment, size_t size) {
  count();
  *out = __libc_memalign(alignment, size);
  return *out != nullptr ? 0 : ENOMEM;
}
void free(void *p) { __libc_free(p); }
void *mmap(void *addr, size_t length, int prot, int flags, int fd, off_t offset) {
  count();
  return reinterpret_cast<void *>(syscall(SYS_mmap, addr, length, prot, flags, fd, offset));
}
}

namespace conformance {
namespace {

using aclnn_cpu::conv_bwd::AlgorithmEntry;

class LaunchAllocations : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
  }
  void TearDown() override {
    set_algo("");
    EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  }

  static void set_algo(const std::string &value) { conformance::set_algo_setting(value); }

  // The allocations of the launch and synchronize of executor, whose workspace is `bytes`.
  long count_launch(aclOpExecutor *executor, uint64_t bytes, const std::string &what) {
    void *workspace = nullptr;
    if (bytes > 0) {
      EXPECT_EQ(aclrtMalloc(&workspace, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    }
    g_calls = 0;
    g_counting = true;
    const int launched = aclnnConvolutionBackward(workspace, bytes, executor, stream_);
    const int synchronized = aclrtSynchronizeStream(stream_);
    g_counting = false;
    const long calls = g_calls.load();
    EXPECT_EQ(launched, ACLNN_SUCCESS) << what << ": " << recent_api_error();
    EXPECT_EQ(synchronized, ACL_SUCCESS) << what << ": " << recent_api_error();
    if (workspace != nullptr) aclrtFree(workspace);
    return calls;
  }

  // The allocations of the launch and synchronize of c (its second: the first starts the threads).
  long launch_allocations(const ConvCase &c) {
    long calls = -1;
    for (int round = 0; round < 2; ++round) {
      CaseTensors tensors(c);
      uint64_t bytes = 0;
      aclOpExecutor *executor = nullptr;
      {
        ApiCall call(c, tensors);
        EXPECT_EQ(call.get_workspace_size(&bytes, &executor), ACLNN_SUCCESS) << case_text(c) << recent_api_error();
      }
      calls = count_launch(executor, bytes, case_text(c));
    }
    return calls;
  }

  aclrtStream stream_ = nullptr;
};

const char *const kShapes[] = {
    "mb2_g1_ic3oc5_ih9iw9_kh3kw3_ph1pw1",                      // dense 3×3
    "mb1_g1_ic4oc6_ih9iw9_kh3kw3_sh2sw2_ph1pw1",               // strided
    "mb2_g4_ic4oc8_ih9iw9_kh3kw3_ph1pw1",                      // depthwise (direct, fused)
    "mb1_g1_ic2oc3_iw600_kw3_pw1",                             // 1-D, long rows (NT kernels)
    "mb1_g1_ic2oc3_id4ih5iw5_kd2kh3kw3_pd1ph1pw1",             // 3-D
    "mb1_g2_ic4oc6_ih5iw6_kh3kw3_sh2sw2_ph1pw1_tr1_oph1opw1",  // transposed
    "mb1_g1_ic3oc4_ih6iw6_kh1kw1",                             // 1×1
};

// Every table algorithm as its output's first choice, on every shape, FP32/FP16/BF16 under each cubeMathType the
// product takes, ordinary data and a NaN and an Inf in gradOutput (fallback to the reference, reading the views).
TEST_F(LaunchAllocations, NoAllocationForAnyAlgorithmDtypeOrData) {
  for (const AlgorithmEntry *e = aclnn_cpu::conv_bwd::algorithms_begin(); e != aclnn_cpu::conv_bwd::algorithms_end();
       ++e) {
    set_algo(aclnn_cpu::conv_bwd::setting_with_first(*e));
    for (const char *shape : kShapes) {
      for (const char *dt : {"_dtf32", "_dtf16", "_dtbf16"}) {
        for (int cmt : {0, 1, 2, 3}) {
          for (int data = 0; data < 3; ++data) {
            ConvCase c = parse_case(std::string(shape) + dt + "_cmt" + std::to_string(cmt), Data::kRandom, 7);
            if (data > 0) c.specials.push_back({kGradOutput, 1, data == 1 ? NAN : INFINITY});
            EXPECT_EQ(launch_allocations(c), 0) << e->name << " first: " << case_text(c) << " data " << data;
          }
        }
      }
    }
  }
}

TEST_F(LaunchAllocations, NoAllocationForTheReferenceInPlaceZerosOrTheEmptyPath) {
  set_algo("reference");
  EXPECT_EQ(launch_allocations(parse_case("mb2_g1_ic3oc5_ih9iw9_kh3kw3_ph1pw1_dtbf16_cmt0")), 0);
  set_algo("");
  // gradInput in gradOutput's memory (3×3, pad 1, 4 → 4 channels: the same shape): the plan takes the reference,
  // which stages the operands in the workspace first.
  for (int round = 0; round < 2; ++round) {
    const int64_t act[4] = {1, 4, 8, 8}, act_strides[4] = {256, 64, 8, 1}, w[4] = {4, 4, 3, 3},
                  w_strides[4] = {36, 9, 3, 1}, act_n = 256, w_n = 144;
    void *dy = nullptr, *x = nullptr, *wt = nullptr, *dw = nullptr;
    ASSERT_EQ(aclrtMalloc(&dy, 1024, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&x, 1024, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&wt, 576, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&dw, 576, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    aclTensor *t_dy = aclCreateTensor(act, 4, ACL_FLOAT, act_strides, 0, ACL_FORMAT_NCHW, &act_n, 1, dy);
    aclTensor *t_x = aclCreateTensor(act, 4, ACL_FLOAT, act_strides, 0, ACL_FORMAT_NCHW, &act_n, 1, x);
    aclTensor *t_w = aclCreateTensor(w, 4, ACL_FLOAT, w_strides, 0, ACL_FORMAT_NCHW, &w_n, 1, wt);
    aclTensor *t_dx = aclCreateTensor(act, 4, ACL_FLOAT, act_strides, 0, ACL_FORMAT_NCHW, &act_n, 1, dy);
    aclTensor *t_dw = aclCreateTensor(w, 4, ACL_FLOAT, w_strides, 0, ACL_FORMAT_NCHW, &w_n, 1, dw);
    const int64_t one[2] = {1, 1}, zero[2] = {0, 0};
    aclIntArray *stride = aclCreateIntArray(one, 2), *pad = aclCreateIntArray(one, 2), *dil = aclCreateIntArray(one, 2),
                *out_pad = aclCreateIntArray(zero, 2);
    const bool mask[3] = {true, true, false};
    aclBoolArray *m = aclCreateBoolArray(mask, 3);
    uint64_t bytes = 0;
    aclOpExecutor *executor = nullptr;
    ASSERT_EQ(aclnnConvolutionBackwardGetWorkspaceSize(t_dy, t_x, t_w, nullptr, stride, pad, dil, false, out_pad, 1, m,
                                                       0, t_dx, t_dw, nullptr, &bytes, &executor),
              ACLNN_SUCCESS)
        << recent_api_error();
    for (aclTensor *t : {t_dy, t_x, t_w, t_dx, t_dw}) aclDestroyTensor(t);
    for (aclIntArray *a : {stride, pad, dil, out_pad}) aclDestroyIntArray(a);
    aclDestroyBoolArray(m);
    const long calls = count_launch(executor, bytes, "in place");
    if (round == 1) {
      EXPECT_EQ(calls, 0) << "gradInput in gradOutput's memory";
    }
    for (void *p : {dy, x, wt, dw}) aclrtFree(p);
  }
  // No (position, tap) pair reads x: zeros.
  EXPECT_EQ(launch_allocations(parse_case("mb1_g1_ic2oc3_iw6_kw3_sw1000000000000000100_pw1000000000000000000")), 0);
  // The empty path: an empty batch.
  EXPECT_EQ(launch_allocations(parse_case("mb0_g1_ic2oc3_ih5iw5_kh3kw3")), 0);
}

// The counter sees allocations (else the tests above would prove nothing).
TEST_F(LaunchAllocations, TheCounterCounts) {
  g_calls = 0;
  g_counting = true;
  std::vector<int> *v = new std::vector<int>(1000);
  void *m = std::malloc(64);
  g_counting = false;
  EXPECT_GE(g_calls.load(), 3);
  std::free(m);
  delete v;
}

}  // namespace
}  // namespace conformance

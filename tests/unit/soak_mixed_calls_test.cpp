// Soak: a fixed number of mixed calls — random valid problems and random faults — from two
// host threads on three shared streams. Every valid result is checked against the fp64 reference, every
// fault gets its status code and leaves the outputs untouched, and at the end every registry of the runtime
// and of the aclnn layer is back where it started (LeakSanitizer, in the asan preset, checks the heap).
// The count is calls, not time: ACLNN_CPU_SOAK_CALLS overrides the default (10000; 1000 in debug and
// sanitizer builds).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "api/diagnostics.hpp"
#include "concurrency_support.hpp"
#include "core/config.hpp"
#include "runtime_fixture.hpp"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define ACLNN_CPU_SOAK_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define ACLNN_CPU_SOAK_SANITIZED 1
#endif
#endif

namespace concurrency {
namespace {

using conformance::Rng;

constexpr int kHostThreads = 2;
constexpr int kStreams = 3;
constexpr int kBatch = 4;                    // calls launched before their streams are synchronized
constexpr uint64_t kMemLimit = 64ull << 20;  // ACLNN_CPU_MEM_LIMIT during the soak

int soak_calls() {
  if (const char *v = std::getenv("ACLNN_CPU_SOAK_CALLS")) {
    const int n = std::atoi(v);
    if (n > 0) return n;
  }
#if defined(ACLNN_CPU_SOAK_SANITIZED) || !defined(NDEBUG)
  return 1000;
#else
  return 10000;
#endif
}

int64_t pick(Rng &rng, int64_t lo, int64_t hi) { return lo + static_cast<int64_t>(rng.next() % (hi - lo + 1)); }

// A random small problem that is valid on the default product: 1-D to 3-D, groups, strides, pads, dilations,
// transposed, any output mask, FP32 (every cubeMathType), FP16 or BF16.
ConvCase random_valid_case(Rng &rng) {
  const int rank = static_cast<int>(pick(rng, 1, 6) <= 2 ? pick(rng, 1, 2) : (pick(rng, 0, 4) == 0 ? 3 : 2));
  const bool transposed = pick(rng, 0, 4) == 0;
  const int64_t groups = pick(rng, 1, 2);
  std::ostringstream os;
  os << "mb" << pick(rng, 1, 2) << "_g" << groups << "_ic" << groups * pick(rng, 1, 3) << "oc"
     << groups * pick(rng, 1, 3) << "_";
  const char *names[3] = {"d", "h", "w"};
  int64_t in[3], k[3], s[3], p[3], d[3];
  for (int i = 3 - rank; i < 3; ++i) {
    k[i] = pick(rng, 1, rank == 3 ? 2 : 3);
    s[i] = pick(rng, 1, 2);
    d[i] = pick(rng, 1, 2);
    const int64_t extent = (k[i] - 1) * d[i] + 1;
    // Transposed: pads below half the window keep gradOutput non-empty; otherwise the input covers the window.
    p[i] = transposed ? pick(rng, 0, (extent - 1) / 2) : pick(rng, 0, 1);
    in[i] = transposed ? pick(rng, 1, 5) : pick(rng, extent, extent + (rank == 3 ? 3 : 6));
  }
  for (int i = 3 - rank; i < 3; ++i) os << "i" << names[i] << in[i];
  os << "_";
  for (int i = 3 - rank; i < 3; ++i) os << "k" << names[i] << k[i];
  os << "_";
  for (int i = 3 - rank; i < 3; ++i) os << "s" << names[i] << s[i];
  os << "_";
  for (int i = 3 - rank; i < 3; ++i) os << "p" << names[i] << p[i];
  os << "_";
  for (int i = 3 - rank; i < 3; ++i) os << "d" << names[i] << d[i];
  if (transposed) {
    os << "_tr1_";
    for (int i = 3 - rank; i < 3; ++i) os << "op" << names[i] << 0;
  }
  const int dtype = static_cast<int>(pick(rng, 0, 3));
  os << (dtype <= 1 ? "_dtf32" : dtype == 2 ? "_dtf16" : "_dtbf16");
  int mask = 0;
  while (mask == 0) mask = static_cast<int>(pick(rng, 0, 7));
  os << "_mask" << (mask >> 2) << ((mask >> 1) & 1) << (mask & 1);
  // FP32: every cubeMathType, except USE_FP16 for a grouped 3-D gradWeight on A2/A3 (rule V13 refuses it).
  int64_t cmt = dtype <= 1 ? pick(rng, 0, 3) : pick(rng, 0, 2);
  if (dtype <= 1 && rank == 3 && groups > 1 && cmt == 2) cmt = 3;
  os << "_cmt" << cmt;
  return conformance::parse_case(os.str(), conformance::Data::kRandom, rng.next());
}

enum class Fault {
  kNone,
  kStrideZero,
  kNegativePadding,
  kDilationZero,
  kGroupsZero,
  kCubeMathType,
  kNullGradOutput,
  kSmallWorkspace,
  kLaunchedTwice,
  kHostWorkspace,
  kFreedInput,
  kOutOfMemory,
  kDestroyedStream,
  kCount
};

struct Tally {
  int valid = 0;
  int faults[static_cast<int>(Fault::kCount)] = {};
  std::string failures;
  void fail(const std::string &what) {
    if (failures.size() < 4000) failures += what + "\n";
  }
};

// One call whose failure is expected: returns what went wrong ("" when the fault was reported as documented
// and nothing was written).
std::string run_fault(Fault fault, const ConvCase &c, aclrtStream stream) {
  CaseTensors host(c);
  DeviceCall call(c, host);
  auto expect = [&](int got, int want, const char *step) -> std::string {
    if (got == want) return "";
    return std::string(step) + " returned " + std::to_string(got) + ", expected " + std::to_string(want) + " (" +
           call.error + ")";
  };
  std::string problem;
  switch (fault) {
    case Fault::kStrideZero:
      call.attrs.stride[0] = 0;
      return expect(call.prepare(), ACLNN_ERR_PARAM_INVALID, "stride 0");
    case Fault::kNegativePadding:
      call.attrs.padding[0] = -1;
      return expect(call.prepare(), ACLNN_ERR_PARAM_INVALID, "padding -1");
    case Fault::kDilationZero:
      call.attrs.dilation.back() = 0;
      return expect(call.prepare(), ACLNN_ERR_PARAM_INVALID, "dilation 0");
    case Fault::kGroupsZero:
      call.attrs.groups = 0;
      return expect(call.prepare(), ACLNN_ERR_PARAM_INVALID, "groups 0");
    case Fault::kCubeMathType:
      call.attrs.cube_math_type = 4;
      return expect(call.prepare(), ACLNN_ERR_PARAM_INVALID, "cubeMathType 4");
    case Fault::kNullGradOutput:
      return expect(call.prepare(conformance::kGradOutput), ACLNN_ERR_PARAM_NULLPTR, "gradOutput NULL");
    case Fault::kOutOfMemory: {
      void *p = nullptr;
      const aclError st = aclrtMalloc(&p, kMemLimit + 1, ACL_MEM_MALLOC_HUGE_FIRST);
      if (st == ACL_SUCCESS) aclrtFree(p);
      return expect(st, ACL_ERROR_RT_MEMORY_ALLOCATION, "aclrtMalloc past ACLNN_CPU_MEM_LIMIT");
    }
    case Fault::kDestroyedStream: {
      aclrtStream stale = nullptr;
      if (aclrtCreateStream(&stale) != ACL_SUCCESS || aclrtDestroyStream(stale) != ACL_SUCCESS) {
        return "cannot create and destroy a stream: " + recent_error();
      }
      problem = expect(aclrtSynchronizeStream(stale), ACL_ERROR_INVALID_PARAM, "aclrtSynchronizeStream (destroyed)");
      if (problem.empty() && call.prepare() == ACLNN_SUCCESS) {
        problem = expect(call.launch(stale), ACLNN_ERR_RUNTIME_ERROR, "launch on a destroyed stream");
      }
      break;
    }
    default: {
      if (call.prepare() != ACLNN_SUCCESS) return "a valid case was refused: " + call.error;
      if (fault == Fault::kSmallWorkspace && call.workspace_size > 0) {
        problem = expect(call.launch(stream, call.workspace_size - 1), ACLNN_ERR_PARAM_INVALID, "small workspace");
      } else if (fault == Fault::kHostWorkspace && call.workspace_size > 0) {
        std::vector<double> host_memory(call.workspace_size / sizeof(double) + 1);
        problem = expect(aclnnConvolutionBackward(host_memory.data(), call.workspace_size, call.executor, stream),
                         ACLNN_ERR_PARAM_INVALID, "host workspace");
        call.executor = nullptr;
      } else if (fault == Fault::kFreedInput) {
        call.free_data(conformance::kInput);
        problem = expect(call.launch(stream), ACLNN_ERR_PARAM_INVALID, "freed input");
      } else {  // launched twice (also the fallback of the workspace faults when none is needed)
        aclOpExecutor *executor = call.executor;
        if (call.launch(stream) != ACLNN_SUCCESS) return "first launch: " + call.error;
        if (aclrtSynchronizeStream(stream) != ACL_SUCCESS) return "aclrtSynchronizeStream: " + recent_error();
        // Poison again so that the refused second launch can be seen not to write.
        for (int s = conformance::kGradInput; s < kSlots; ++s) {
          const Slot slot = static_cast<Slot>(s);
          if (call.data(slot) == nullptr) continue;
          aclrtMemcpy(call.data(slot), call.bytes(slot), host.t[s].bytes().data(), call.bytes(slot),
                      ACL_MEMCPY_HOST_TO_DEVICE);
        }
        problem = expect(aclnnConvolutionBackward(call.workspace, call.workspace_size, executor, stream),
                         ACLNN_ERR_PARAM_INVALID, "second launch");
      }
      if (problem.empty() && aclrtSynchronizeStream(stream) != ACL_SUCCESS) {
        problem = "aclrtSynchronizeStream after a refused launch: " + recent_error();
      }
      break;
    }
  }
  if (problem.empty() && !outputs_untouched(call, host)) problem = "a refused call wrote its outputs";
  return problem;
}

void soak_thread(int index, int calls, aclrtStream *streams, Tally *tally) {
  Rng rng(1000 + static_cast<uint64_t>(index));
  int done = 0;
  while (done < calls) {
    struct Pending {
      ConvCase c;
      std::unique_ptr<CaseTensors> host;
      std::vector<unsigned char> before[kSlots];
      std::unique_ptr<DeviceCall> call;
    };
    std::vector<Pending> batch;
    for (int b = 0; b < kBatch && done < calls; ++b, ++done) {
      const ConvCase c = random_valid_case(rng);
      aclrtStream stream = streams[rng.next() % kStreams];
      const Fault fault = rng.next() % 3 == 0
                              ? static_cast<Fault>(1 + rng.next() % (static_cast<int>(Fault::kCount) - 1))
                              : Fault::kNone;
      if (fault != Fault::kNone) {
        const std::string problem = run_fault(fault, c, stream);
        ++tally->faults[static_cast<int>(fault)];
        if (!problem.empty())
          tally->fail("fault " + std::to_string(static_cast<int>(fault)) + " on " + conformance::case_text(c) + ": " +
                      problem);
        continue;
      }
      Pending p{c, std::make_unique<CaseTensors>(c), {}, nullptr};
      for (int s = 0; s < kSlots; ++s) p.before[s] = p.host->t[s].bytes();
      p.call = std::make_unique<DeviceCall>(c, *p.host);
      if (p.call->prepare() != ACLNN_SUCCESS || p.call->launch(stream) != ACLNN_SUCCESS) {
        tally->fail(conformance::case_text(c) + ": " + p.call->error);
        continue;
      }
      batch.push_back(std::move(p));
    }
    for (int s = 0; s < kStreams; ++s) {
      if (aclrtSynchronizeStream(streams[s]) != ACL_SUCCESS) tally->fail("aclrtSynchronizeStream: " + recent_error());
    }
    for (Pending &p : batch) {
      p.call->download(p.host.get());
      ::testing::AssertionResult r = check_outputs(p.c, *p.host, p.before);
      if (!r) tally->fail(r.message());
      ++tally->valid;
    }
  }
}

class Soak : public runtime_test::LifecycleTest {};

TEST_F(Soak, MixedValidAndInvalidCallsOnSeveralStreamsLeaveNothingBehind) {
  const aclnn_cpu::LiveObjects at_start = aclnn_cpu::live_objects();
  const uint64_t saved_limit = aclnn_cpu::settings().mem_limit;
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclnn_cpu::set_product(aclnn_cpu::Product::kAscend910B);
  aclnn_cpu::set_mem_limit(kMemLimit);
  aclrtStream streams[kStreams] = {};
  for (aclrtStream &s : streams) ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);

  const int calls = soak_calls();
  std::vector<Tally> tallies(kHostThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kHostThreads; ++t) {
    const int share = calls / kHostThreads + (t < calls % kHostThreads ? 1 : 0);
    threads.emplace_back(soak_thread, t, share, streams, &tallies[t]);
  }
  for (std::thread &th : threads) th.join();

  int valid = 0;
  int faults = 0;
  for (const Tally &t : tallies) {
    EXPECT_EQ(t.failures, "");
    valid += t.valid;
    for (int f : t.faults) faults += f;
  }
  EXPECT_EQ(valid + faults, calls);
  EXPECT_GT(valid, calls / 2);
  for (int f = 1; f < static_cast<int>(Fault::kCount) && calls >= 300; ++f) {
    int n = 0;
    for (const Tally &t : tallies) n += t.faults[f];
    EXPECT_GT(n, 0) << "fault kind " << f << " never drawn";
  }
  std::printf("[ soak     ] %d calls: %d valid (checked against the fp64 reference), %d faults\n", calls, valid,
              faults);

  // Everything the calls created is gone before the runtime is released, and after.
  for (aclrtStream s : streams) EXPECT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  const aclnn_cpu::LiveObjects before_reset = aclnn_cpu::live_objects();
  for (int k = 0; k < aclnn_cpu::kHandleKindCount; ++k) EXPECT_EQ(before_reset.handles[k], at_start.handles[k]) << k;
  EXPECT_EQ(before_reset.runtime.streams, 0u);
  EXPECT_EQ(before_reset.runtime.events, 0u);
  EXPECT_EQ(before_reset.runtime.blocks, at_start.runtime.blocks);
  EXPECT_EQ(before_reset.runtime.device_bytes, 0u);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  aclnn_cpu::set_mem_limit(saved_limit);
  const aclnn_cpu::LiveObjects at_end = aclnn_cpu::live_objects();
  EXPECT_EQ(at_end.describe(), at_start.describe());
  std::printf("[ soak     ] live objects at the end: %s (at the start: %s)\n", at_end.describe().c_str(),
              at_start.describe().c_str());
}

}  // namespace
}  // namespace concurrency

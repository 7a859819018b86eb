// Concurrency: many host threads, each with its own streams and executors, and several
// threads sharing one stream, all computing convolution backward at once. Every result must equal a serial run
// of the same call bit for bit (checked by value, never by timing).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "concurrency_support.hpp"
#include "runtime_fixture.hpp"

namespace concurrency {
namespace {

constexpr int kHostThreads = 8;
constexpr int kStreamsPerThread = 2;
constexpr int kRounds = 3;

class ConcurrencyStreams : public SerialReference {};

// What one host thread saw; reported by the main thread.
struct Outcome {
  std::string failures;
  int compared = 0;
};

void note(Outcome *o, const std::string &what) { o->failures += what + "\n"; }

TEST_F(ConcurrencyStreams, ManyHostThreadsWithTheirOwnStreamsMatchASerialRun) {
  std::vector<Outcome> outcomes(kHostThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kHostThreads; ++t) {
    threads.emplace_back([this, t, &outcomes] {
      Outcome &o = outcomes[t];
      aclrtStream streams[kStreamsPerThread] = {};
      for (aclrtStream &s : streams) {
        if (aclrtCreateStream(&s) != ACL_SUCCESS) note(&o, "aclrtCreateStream: " + recent_error());
      }
      std::vector<std::unique_ptr<DeviceCall>> calls;
      std::vector<size_t> which;
      std::vector<std::unique_ptr<CaseTensors>> hosts;
      for (int r = 0; r < kRounds; ++r) {
        for (size_t i = 0; i < cases_.size(); ++i) {
          hosts.push_back(std::make_unique<CaseTensors>(cases_[i]));
          calls.push_back(std::make_unique<DeviceCall>(cases_[i], *hosts.back()));
          which.push_back(i);
          DeviceCall &call = *calls.back();
          // Every thread uses its streams in a different order, so the streams interleave differently.
          aclrtStream stream = streams[(i + r + t) % kStreamsPerThread];
          if (call.prepare() != ACLNN_SUCCESS || call.launch(stream) != ACLNN_SUCCESS) note(&o, call.error);
        }
      }
      for (aclrtStream s : streams) {
        if (aclrtSynchronizeStream(s) != ACL_SUCCESS) note(&o, "aclrtSynchronizeStream: " + recent_error());
      }
      for (size_t k = 0; k < calls.size(); ++k) {
        ++o.compared;
        if (calls[k]->output_bytes() != expected_[which[k]]) {
          note(&o, "thread " + std::to_string(t) + ": outputs of " + conformance::case_text(cases_[which[k]]) +
                       " differ from the serial run");
        }
      }
      calls.clear();
      for (aclrtStream s : streams) {
        if (aclrtDestroyStream(s) != ACL_SUCCESS) note(&o, "aclrtDestroyStream: " + recent_error());
      }
    });
  }
  for (std::thread &th : threads) th.join();
  for (const Outcome &o : outcomes) {
    EXPECT_EQ(o.failures, "");
    EXPECT_EQ(o.compared, kRounds * static_cast<int>(cases_.size()));
  }
}

TEST_F(ConcurrencyStreams, ThreadsSharingOneStreamMatchASerialRun) {
  constexpr int kThreads = 4;
  aclrtStream shared = nullptr;
  ASSERT_EQ(aclrtCreateStream(&shared), ACL_SUCCESS);
  std::vector<Outcome> outcomes(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([this, t, shared, &outcomes] {
      Outcome &o = outcomes[t];
      std::vector<std::unique_ptr<CaseTensors>> hosts;
      std::vector<std::unique_ptr<DeviceCall>> calls;
      for (size_t i = 0; i < cases_.size(); ++i) {
        hosts.push_back(std::make_unique<CaseTensors>(cases_[i]));
        calls.push_back(std::make_unique<DeviceCall>(cases_[i], *hosts.back()));
        if (calls.back()->prepare() != ACLNN_SUCCESS || calls.back()->launch(shared) != ACLNN_SUCCESS) {
          note(&o, calls.back()->error);
        }
      }
      // Each thread waits for everything queued so far, its own launches included.
      if (aclrtSynchronizeStream(shared) != ACL_SUCCESS) note(&o, "aclrtSynchronizeStream: " + recent_error());
      for (size_t i = 0; i < calls.size(); ++i) {
        ++o.compared;
        if (calls[i]->output_bytes() != expected_[i]) {
          note(&o, "thread " + std::to_string(t) + ": " + conformance::case_text(cases_[i]) + " differs");
        }
      }
    });
  }
  for (std::thread &th : threads) th.join();
  EXPECT_EQ(aclrtDestroyStream(shared), ACL_SUCCESS);
  for (const Outcome &o : outcomes) {
    EXPECT_EQ(o.failures, "");
    EXPECT_EQ(o.compared, static_cast<int>(cases_.size()));
  }
}

// The default (NULL) stream is shared by every thread too.
TEST_F(ConcurrencyStreams, ThreadsOnTheDefaultStreamMatchASerialRun) {
  constexpr int kThreads = 3;
  std::vector<Outcome> outcomes(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([this, t, &outcomes] {
      Outcome &o = outcomes[t];
      const size_t i = static_cast<size_t>(t) % cases_.size();
      CaseTensors host(cases_[i]);
      DeviceCall call(cases_[i], host);
      if (call.prepare() != ACLNN_SUCCESS || call.launch(nullptr) != ACLNN_SUCCESS) note(&o, call.error);
      if (aclrtSynchronizeStream(nullptr) != ACL_SUCCESS) note(&o, "aclrtSynchronizeStream: " + recent_error());
      ++o.compared;
      if (call.output_bytes() != expected_[i]) note(&o, conformance::case_text(cases_[i]) + " differs");
    });
  }
  for (std::thread &th : threads) th.join();
  for (const Outcome &o : outcomes) {
    EXPECT_EQ(o.failures, "");
    EXPECT_EQ(o.compared, 1);
  }
}

}  // namespace
}  // namespace concurrency

// Fixtures and helpers shared by the runtime_*_test.cpp suites.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <future>
#include <string>

#include "acl/acl.h"
#include "core/config.hpp"
#include "core/error.hpp"
#include "runtime/runtime.hpp"
#include "runtime/state.hpp"

namespace runtime_test {

// Generous bound used only to turn a deadlock (a bug) into a failure; never a timing expectation.
constexpr std::chrono::seconds kDeadlockBound{10};

// Reads and clears this thread's recent error ("" when none).
inline std::string take_error() {
  const char *e = aclGetRecentErrMsg();
  return e != nullptr ? e : "";
}

// Puts back the settings aclInit re-reads from the environment.
class SettingsKeeper {
 public:
  SettingsKeeper() : saved_(aclnn_cpu::settings()) {}
  ~SettingsKeeper() {
    aclnn_cpu::set_product(saved_.product);
    aclnn_cpu::set_strict(saved_.strict);
    aclnn_cpu::set_num_threads(saved_.num_threads);
  }

 private:
  aclnn_cpu::Settings saved_;
};

// aclInit (holding one more reference if someone else initialised) and device 0, released afterwards.
class RuntimeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const aclError init = aclInit(nullptr);
    ASSERT_TRUE(init == ACL_SUCCESS || init == ACL_ERROR_REPEAT_INITIALIZE) << init;
    initialised_ = true;
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    device_set_ = true;
    take_error();
  }
  void TearDown() override {
    if (device_set_) {
      EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS) << take_error();
    }
    if (initialised_) {
      EXPECT_EQ(aclFinalizeReference(nullptr), ACL_SUCCESS) << take_error();
    }
  }

  SettingsKeeper settings_;
  bool initialised_ = false;
  bool device_set_ = false;
};

// Starts uninitialised (asserting nobody else holds the runtime) and leaves the runtime uninitialised.
class LifecycleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclnn_cpu::runtime::init_reference_count(), 0u) << "an earlier test left the runtime initialised";
    take_error();
  }
  void TearDown() override {
    if (aclnn_cpu::runtime::init_reference_count() > 0) aclFinalize();
    take_error();
  }

  SettingsKeeper settings_;
};

// Keeps a stream busy until open(): work queued behind it has provably not started.
class Gate {
 public:
  Gate() : opened_(promise_.get_future().share()) {}
  ~Gate() { open(); }
  aclError block(aclrtStream stream) {
    std::shared_future<void> opened = opened_;
    return aclnn_cpu::runtime::enqueue(stream, [opened]() -> aclError {
      return opened.wait_for(kDeadlockBound) == std::future_status::ready ? ACL_SUCCESS : ACL_ERROR_FAILURE;
    });
  }
  void open() {
    if (!is_open_) promise_.set_value();
    is_open_ = true;
  }

 private:
  std::promise<void> promise_;
  std::shared_future<void> opened_;
  bool is_open_ = false;
};

// Sets or unsets an environment variable for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char *name, const char *value) : name_(name) {
    const char *old = std::getenv(name);
    had_ = old != nullptr;
    if (had_) old_ = old;
    if (value != nullptr) {
      setenv(name, value, 1);
    } else {
      unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (had_) {
      setenv(name_.c_str(), old_.c_str(), 1);
    } else {
      unsetenv(name_.c_str());
    }
  }

 private:
  std::string name_;
  std::string old_;
  bool had_ = false;
};

}  // namespace runtime_test

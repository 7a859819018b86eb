// Small helpers for the numerics unit tests: hex formatting and bounded mismatch reporting over many inputs.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>

namespace numerics_test {

inline std::string hex(uint32_t v, int digits = 8) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%0*X", digits, v);
  return buf;
}

// Collects mismatches over a large loop, reporting only the first few so a broken conversion stays readable.
class MismatchLog {
 public:
  explicit MismatchLog(const char *what) : what_(what) {}
  // Returns false once enough failures were reported (callers may stop the loop).
  bool check(bool ok, uint32_t input, uint32_t got, uint32_t want) {
    ++checked_;
    if (ok) return true;
    ++failures_;
    if (failures_ <= 8) {
      ADD_FAILURE() << what_ << ": input " << hex(input) << " gave " << hex(got) << ", expected " << hex(want);
    }
    return failures_ < 1000;
  }
  bool equal(uint32_t input, uint32_t got, uint32_t want) { return check(got == want, input, got, want); }
  size_t checked() const { return checked_; }
  size_t failures() const { return failures_; }

 private:
  const char *what_;
  size_t checked_ = 0;
  size_t failures_ = 0;
};

}  // namespace numerics_test

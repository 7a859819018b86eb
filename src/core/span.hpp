// A read-only view of elements stored elsewhere (C++17 has no std::span), so that a layer can describe data it
// does not own without copying it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace aclnn_cpu {

template <typename T>
class Span {
 public:
  Span() = default;
  Span(const T *data, size_t size) : data_(data), size_(size) {}
  // Implicit, so that a vector can be passed wherever a Span is read.
  Span(const std::vector<T> &values) : data_(values.data()), size_(values.size()) {}  // NOLINT

  const T *begin() const { return data_; }
  const T *end() const { return data_ + size_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T &operator[](size_t i) const { return data_[i]; }
  std::vector<T> to_vector() const { return std::vector<T>(begin(), end()); }

  friend bool operator==(Span a, Span b) { return std::equal(a.begin(), a.end(), b.begin(), b.end()); }
  friend bool operator!=(Span a, Span b) { return !(a == b); }

 private:
  const T *data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace aclnn_cpu

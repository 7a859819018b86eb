// A non-owning reference to a callable, for callbacks that only run during the call that receives them: unlike
// std::function it never allocates (a capturing lambda bigger than std::function's small buffer would), which
// keeps operator execution free of heap allocations.
#pragma once

#include <type_traits>
#include <utility>

namespace aclnn_cpu {

template <typename Signature>
class FunctionRef;

template <typename R, typename... Args>
class FunctionRef<R(Args...)> {
 public:
  template <typename F, typename = std::enable_if_t<!std::is_same<std::decay_t<F>, FunctionRef>::value>>
  FunctionRef(F &&f)  // NOLINT(google-explicit-constructor): used like std::function
      : object_(const_cast<void *>(static_cast<const void *>(&f))), call_([](void *object, Args... args) -> R {
          return (*static_cast<std::remove_reference_t<F> *>(object))(std::forward<Args>(args)...);
        }) {}

  R operator()(Args... args) const { return call_(object_, std::forward<Args>(args)...); }

 private:
  void *object_;
  R (*call_)(void *, Args...);
};

}  // namespace aclnn_cpu

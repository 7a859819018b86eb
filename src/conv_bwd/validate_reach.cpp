// Ours, on the normalised compute-path problem: the reduced relation of every dim (reach.hpp) must be indexable.
// Only sizes far beyond any tensor in memory along one dim, with strides and dilations that pair each position with
// a single tap, reach past kMaxReach; such a call is refused here rather than at launch.
#include <string>

#include "aclnn/opdev/op_errno.h"
#include "conv_bwd/canonical.hpp"
#include "conv_bwd/check_stages.hpp"

namespace aclnn_cpu {
namespace conv_bwd {

int check_reach(const Problem &problem) {
  if (problem.empty_path) return ACLNN_SUCCESS;
  Canonical c;
  std::string why;
  if (make_canonical(problem, &c, &why)) return ACLNN_SUCCESS;
  return fail_invalid(why + "; aclnn-cpu indexes at most 2^60 elements along a dim (problem " + describe(problem) +
                      ").");
}

}  // namespace conv_bwd
}  // namespace aclnn_cpu

// The problems aclnn_cpu_demo runs when given none: CANN's documentation sample on all-ones data (with its
// known answer), then small ResNet-like layers that between them cover every precision mode and product class.
#pragma once

#include <string>
#include <vector>

#include "options.hpp"

namespace aclnn_cpu {
namespace demo {

struct DemoCase {
  std::string label;
  std::string problem;        // problem string (src/conv_bwd/descriptor.hpp)
  bool all_ones = false;      // the data is all ones whatever --data says
  bool has_expected = false;  // every element of gradInput/gradWeight/gradBias must equal expected[]
  double expected[3] = {0, 0, 0};
};

std::vector<DemoCase> default_set();

}  // namespace demo
}  // namespace aclnn_cpu

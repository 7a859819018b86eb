// One demo case from problem string to verdict: parse and apply the command line's overrides, select the
// emulated product, run through the API, check against the reference, print a report with its repro line.
#pragma once

#include "acl/acl.h"
#include "default_set.hpp"
#include "options.hpp"

namespace aclnn_cpu {
namespace demo {

// Prints the case's report; returns true when it passed.
bool run_case(const DemoCase &demo, int index, int total, const Options &options, aclrtStream stream);

}  // namespace demo
}  // namespace aclnn_cpu

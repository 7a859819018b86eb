// Many cores without them (docs/performance.md, "Many cores"): --simulate-threads plans a problem for each thread
// count and prints the parallel efficiency each plan predicts from its own work items and cost model (work.hpp),
// computing nothing; --check-cost-model also runs each plan once, item by item on one thread, and compares.
#pragma once

#include "acl/acl.h"
#include "conv_bwd/descriptor.hpp"
#include "host_data.hpp"
#include "options.hpp"

namespace aclnn_cpu {
namespace demo {

// Prints the case's lines; false when a plan could not be made or (checking) the run's jobs are not the plan's.
bool simulate_case(const conv_bwd::ConvDesc &desc, const HostData &host, const Options &o, aclrtStream stream);

}  // namespace demo
}  // namespace aclnn_cpu

#pragma once
// What CANN keeps between calls of an NPU op, per process: the op types it has selected kernels
// for, and the (op, input shapes, dtypes, attribute count) it has tiled and built an executor for
// (the aclnn cache; GE's compiled-op cache on the aclop path). Never evicted: CANN's caches hold
// thousands of entries, more than any workload here has distinct ops. Pure state.
#include <set>
#include <string>

#include "sim/host/framework_op.h"
#include "sim/host/host_call_costs.h"

namespace ascendsim {

class OpPreparationCache {
  public:
    // What a call of `op` finds in the cache; the op is cached afterwards.
    OpPreparation prepare(const FrameworkOp& op);

  private:
    std::set<std::string> opTypes_;
    std::set<std::string> shapeKeys_;
};

}  // namespace ascendsim

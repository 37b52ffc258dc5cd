#pragma once
// What the host keeps between calls of an NPU op, per process: the op types CANN has selected
// kernels for and the (op, input shapes, dtypes, attribute count) it has tiled (the aclnn cache;
// GE's compiled-op cache on the aclop path), never evicted (CANN's caches hold thousands of
// entries, more than any workload here has distinct ops); and the op types called since the last
// device synchronize, whose code paths are warm. Pure state.
#include <set>
#include <string>

#include "sim/host/framework_op.h"
#include "sim/host/host_call_costs.h"

namespace ascendsim {

class OpPreparationCache {
  public:
    // What a call of `op` finds; the op is cached and warm afterwards.
    OpCallState call(const FrameworkOp& op);
    // The host blocked on a device synchronize: every op type is cold again.
    void coolDown() { warmTypes_.clear(); }

  private:
    std::set<std::string> opTypes_;
    std::set<std::string> shapeKeys_;
    std::set<std::string> warmTypes_;
};

}  // namespace ascendsim

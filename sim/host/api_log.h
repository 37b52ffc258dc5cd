#pragma once
// CANN host API records (msprof "CANN" process: AscendCL@, Node@, Runtime@) with their
// connection ids. Which levels are collected follows the profiler level (formats.md §1.6):
// Level0 = TASK_TIME_L0|ACL_API and Level1 add no host API level beyond AscendCL and Node (the
// real Level0/Level1 traces show AscendCL@ and Node@launch, no Runtime@); Level2 adds
// RUNTIME_API; Level_none collects nothing.
#include <cstdint>
#include <string>
#include <vector>

#include "profiler/config/profiler_config.h"
#include "profiler/record/run_record.h"

namespace ascendsim {

class ApiLog {
public:
    // Records nothing until setCollection is called.
    void setCollection(bool npuActivity, ProfilerLevel level);
    void stopCollection() { aclAndNode_ = runtime_ = false; }

    // Every call gets the next connection id, recorded or not, so the ids a kernel gets do not
    // depend on the level. Returns the id.
    std::uint64_t add(ApiLevel level, const std::string& name, std::uint64_t startNs,
                      std::uint64_t endNs, std::uint32_t threadId);

    bool collects(ApiLevel level) const;
    std::vector<ApiRecord>& records() { return records_; }

private:
    bool aclAndNode_ = false;
    bool runtime_ = false;
    std::uint64_t nextConnectionId_ = 1;
    std::vector<ApiRecord> records_;
};

}  // namespace ascendsim

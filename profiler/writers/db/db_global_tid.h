#pragma once
// The globalTid column of the DB tables (CANN_API, PYTORCH_API, NPU_OP_MEM): msprof's
// Utils::Contact(pid, tid), the process id in the upper and the thread id in the lower 32 bits.
#include <cstdint>

#include "profiler/record/run_record.h"

namespace ascendsim {

inline std::int64_t dbGlobalTid(const RunRecord& run, std::uint32_t threadId) {
    return (static_cast<std::int64_t>(run.processId) << 32) | threadId;
}

}  // namespace ascendsim

#pragma once
// A RunRecord restricted to one profiling cycle: the recorded steps, and the host ops, APIs, task
// queue entries, memory events and Python calls that start inside their time window, plus the
// kernels those ops launched (kernels without a host op: those starting in the window). Indexes
// (hostOpIndex, parent) are renumbered; everything else is copied unchanged.
#include <cstdint>
#include <vector>

#include "profiler/assembly/profiling_schedule.h"
#include "profiler/record/run_record.h"

namespace ascendsim {

struct TimeWindow {
    std::uint64_t startNs = 0;
    std::uint64_t endNs = 0;  // inclusive
};

// [first recorded step start, last recorded step end]; the whole run for a wholeRun cycle.
TimeWindow cycleWindow(const RunRecord& run, const ProfilingCycle& cycle);

RunRecord sliceRunRecord(const RunRecord& run, const ProfilingCycle& cycle);
// The same taking the record's elements (a caller with one cycle gives the record up).
RunRecord sliceRunRecord(RunRecord&& run, const ProfilingCycle& cycle);

}  // namespace ascendsim

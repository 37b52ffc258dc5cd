#pragma once
// torch.profiler.schedule semantics (skip_first, wait, warmup, active, repeat): which steps are
// recorded and how they group into cycles. Every cycle becomes one *_ascend_pt directory.
//
// For step number n (torch's step counter, 0-based): steps below skip_first are not profiled;
// then with period = wait + warmup + active, cycle c = (n - skip_first) / period and position
// p = (n - skip_first) % period; p < wait is waiting, p < wait + warmup warming up, otherwise the
// step is recorded. With repeat > 0 only cycles c < repeat exist. A cycle cut short by the end of
// the run is still written (torch saves the trace when the profiler stops mid-cycle).
#include <cstdint>
#include <optional>
#include <vector>

#include "profiler/config/profiler_config.h"
#include "profiler/record/run_record.h"

namespace ascendsim {

enum class StepAction : std::uint8_t { None, Warmup, Record };

StepAction scheduleAction(const ProfilerSchedule& schedule, std::uint32_t stepNumber);

struct ProfilingCycle {
    std::uint32_t index = 0;                  // 0, 1, ... in output order
    std::vector<std::uint32_t> recordedSteps; // StepRecord::stepNumber values, ascending
    bool wholeRun = false;                    // no schedule and no steps: everything is one cycle
};

// The cycles of a run. Without a schedule: one cycle holding every step (wholeRun when the run
// has no steps at all). With a schedule: one cycle per group of recorded steps that exists.
std::vector<ProfilingCycle> profilingCycles(const std::optional<ProfilerSchedule>& schedule,
                                            const std::vector<StepRecord>& steps);

}  // namespace ascendsim

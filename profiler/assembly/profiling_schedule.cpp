#include "profiler/assembly/profiling_schedule.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace ascendsim {

namespace {

std::uint32_t period(const ProfilerSchedule& s) { return s.wait + s.warmup + s.active; }

}  // namespace

StepAction scheduleAction(const ProfilerSchedule& schedule, std::uint32_t stepNumber) {
    if (schedule.active == 0) throw std::invalid_argument("profiler schedule: active must be at least 1");
    if (stepNumber < schedule.skipFirst) return StepAction::None;
    const std::uint32_t n = stepNumber - schedule.skipFirst;
    const std::uint32_t cycle = n / period(schedule);
    if (schedule.repeat > 0 && cycle >= schedule.repeat) return StepAction::None;
    const std::uint32_t position = n % period(schedule);
    if (position < schedule.wait) return StepAction::None;
    if (position < schedule.wait + schedule.warmup) return StepAction::Warmup;
    return StepAction::Record;
}

std::vector<ProfilingCycle> profilingCycles(const std::optional<ProfilerSchedule>& schedule,
                                            const std::vector<StepRecord>& steps) {
    std::vector<ProfilingCycle> cycles;
    if (!schedule) {
        ProfilingCycle all;
        for (const auto& s : steps) all.recordedSteps.push_back(s.stepNumber);
        std::sort(all.recordedSteps.begin(), all.recordedSteps.end());
        all.wholeRun = steps.empty();
        cycles.push_back(std::move(all));
        return cycles;
    }
    std::map<std::uint32_t, std::vector<std::uint32_t>> byCycle;
    for (const auto& s : steps) {
        if (scheduleAction(*schedule, s.stepNumber) != StepAction::Record) continue;
        byCycle[(s.stepNumber - schedule->skipFirst) / period(*schedule)].push_back(s.stepNumber);
    }
    for (auto& [cycle, recorded] : byCycle) {
        std::sort(recorded.begin(), recorded.end());
        cycles.push_back({static_cast<std::uint32_t>(cycles.size()), std::move(recorded), false});
    }
    return cycles;
}

}  // namespace ascendsim

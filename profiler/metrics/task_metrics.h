#pragma once
// Evaluates the metric catalog on one task's counters (hardware.md §3.2). Every value comes from
// the task's PMU counters and the chip's platform frequencies and core counts; nothing else.
#include <cstdint>
#include <vector>

#include "models/chip/chip_config.h"
#include "models/task/task_result.h"
#include "profiler/metrics/metric_catalog.h"

namespace ascendsim {

// One core side of a task: its summed counters and what the time formulas need.
struct SideCounters {
    PmuCounters counters;         // summed over the side's blocks
    std::uint32_t blockCount = 0; // blocks that ran on this side
    double freqMhz = 0.0;         // platform (not measured) frequency of the side's cores
    std::uint32_t coreCount = 0;  // cores of that kind on the chip
};

// Whether a block ran on `side`'s cores (Aic and Coupled: cube and coupled cores; Aiv: vector).
bool blockOnSide(const BlockResult& block, CoreSide side);

// The chip's core sides: {Aic, Aiv} for split chips, {Coupled} for 910A/310P.
std::vector<CoreSide> chipCoreSides(const ChipConfig& chip);

// Aic/Coupled read TaskResult::cubeSum and the Cube/Coupled blocks at aiCoreFreqMhz; Aiv reads
// vectorSum and the Vector blocks at vectorCoreFreqMhz (aiCoreFreqMhz when that is 0).
SideCounters sideCounters(const TaskResult& task, const ChipConfig& chip, CoreSide side);

// total_cycles / freq / blocks × ceil(blocks / cores), in µs; 0 when the side did not run.
double coreTimeUs(const SideCounters& side);

// One catalog column evaluated on one side. Ratios and times are 0 when total_cycles is 0.
double evaluateMetric(const MetricColumn& column, const SideCounters& side, const ChipConfig& chip);

// All columns of `group` on `side`, in catalog order.
std::vector<double> evaluateGroup(AicMetrics group, CoreSide side, const SideCounters& counters,
                                  const ChipConfig& chip);

// cube_utilization(%) = aic total_cycles / (aic freq × AI core count) × 100 / Duration(µs)
// (msprof AddCubeUsage); 0 when it cannot be computed.
double cubeUtilizationPercent(const TaskResult& task, const ChipConfig& chip, double durationUs);

// 2^30: the tools print GiB/s under the label "GB/s" (hardware.md §3.2).
inline constexpr double kBytesPerGiB = 1073741824.0;
inline constexpr double kBytesPerKiB = 1024.0;

}  // namespace ascendsim

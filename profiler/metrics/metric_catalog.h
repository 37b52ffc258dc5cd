#pragma once
// The declarative table of every PMU metric an aic_metrics group shows (hardware.md §3.2–3.4,
// formats.md §3.1): for each group and core side, the ordered columns with the formula that turns
// a task's counters into the value. Writers only look up and format; no arithmetic lives there.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "models/pmu/pmu_event.h"
#include "profiler/config/profiler_config.h"

namespace ascendsim {

// Which cores' counters a column reads. Coupled: 910A/310P single core type (no name prefix).
enum class CoreSide : std::uint8_t { Aic, Aiv, Coupled };

enum class MetricFormula : std::uint8_t {
    TotalTime,       // core time (µs) = total_cycles / freq / blocks × ceil(blocks / cores)
    TotalCycles,     // total_cycles, summed over the side's blocks
    PipeTime,        // core time × (Σ events / total_cycles)
    Ratio,           // Σ events / total_cycles
    MissRate,        // events[0] / events[1] (icache_miss / icache_req)
    BandwidthGiBps,  // Σ events × bytes per count / (total_cycles / freq) / 2^30
    DataKiB,         // Σ events × bytes per count / 1024
    Count,           // Σ events, raw
    CubeFops,        // mac_fp16 × 2·M·K·N + mac_int8 × 2·M·K_int8·N (fractal shape from the chip)
    MemoryBound,     // mte2_ratio / max(mac_ratio, vec_ratio)  (older Python msprof, 910A)
};

struct MetricColumn {
    std::string_view name;  // base name as msprof spells it before prefix/suffix: "mac_time"
    MetricFormula formula;
    std::vector<PmuEvent> events;  // summed, except MissRate (numerator, denominator)
};

// Ordered columns of one group on one core side, starting with total_time, total_cycles.
// Empty for AicMetrics::None.
const std::vector<MetricColumn>& metricColumns(AicMetrics group, CoreSide side);

// Whose column lists. Current: msprof's metric.cpp / ai_core_metrics_manager.py, which every
// shipped era and real sample follows (the 2023-09 910B MemoryL0 sample, e5a31957 test_rank_0
// kernel_details.csv, has no scalar columns). Cann6: the CANN 6/7 (2023) E2E profiling page and
// torch_npu's AiCMetrics page, whose MemoryL0 (aiCoreMetricsType 3, ACL_AICORE_L0B_AND_WIDTH)
// starts with scalar_ld_ratio, scalar_st_ratio; msprof's formulas for them are 1.0*r3a/task_cyc
// and 1.0*r3b/task_cyc (msprof analysis/msconfig/ai_core_config.py), the PMU's scalar load/store
// instruction counts (events 0x3a/0x3b, hardware.md §3.4) over total cycles. For the 2023 era.
enum class MetricEdition : std::uint8_t { Current, Cann6 };
const std::vector<MetricColumn>& metricColumns(AicMetrics group, CoreSide side, MetricEdition edition);

// The PMU events a group programs on one core side, in the order sample.json lists them
// (ai_core_profiling_events / aiv_profiling_events) and the raw PMU records carry their counts:
// catalog column order, ascending hardware id within a column ("…,0x54,0x55"), each id once.
// Simulator-side counters (hardware id 0) are not programmable and are left out.
std::vector<PmuEvent> profiledEvents(AicMetrics group, CoreSide side);

// Header text as kernel_details/op_summary print it (formats.md §3.1 ModifySummaryHeaders):
// prefix "aic_"/"aiv_" (none for Coupled), "aic_total_time" → "aicore_time(us)",
// "aiv_total_time" → "aiv_time(us)", "total_time" → "aicore_time(us)", other *time* + "(us)",
// *bw* + "(GB/s)", *datas* + "(KB)".
std::string metricHeaderName(const MetricColumn& column, CoreSide side);

}  // namespace ascendsim

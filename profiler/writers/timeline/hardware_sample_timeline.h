#pragma once
// The sampled memory-side hardware counters in the msprof timeline (and so trace_view.json), as
// the real samples (e5a31957, c1e639ee: Python msprof) and msprof's C++ hbm/llc assemblers
// (CANN 8.3) write them, with profile_memory on:
//  - process "HBM": per sample, series "HBM <n>/Read" {"Read(MB/s)": v} and "HBM <n>/Write"
//    {"Write(MB/s)": v} for each stack, full float values;
//  - process "LLC": per sample, "LLC <n> Read/Throughput" {"Throughput(MB/s)": v} and
//    "LLC <n> Read/Hit Rate" {"Hit Rate(%)": v} for each LLC, 3 decimals; the hit rate is the
//    ratio in [0, 1] although the key says %, as in every sample (0.875, 0.831, ...).
// The order of the series within a sample differs between the two writers (see the .cpp). pid,
// labels and metadata follow the other NPU processes; the sort index differs by era (HBM 17 /
// LLC 18 in the 2025 Python layout, 17 / 19 in the 2024 one, 24 / 27 in CANN 8.3).
#include <cstdint>
#include <string>
#include <vector>

#include "profiler/config/profiler_config.h"
#include "profiler/record/run_record.h"

namespace ascendsim {

struct CounterPoint {
    std::string series;
    std::uint64_t timeNs = 0;
    const char* argKey = "";  // the point's one arg ("Read(MB/s)": v), a string literal
    double argValue = 0.0;
};

struct CounterProcess {
    std::string name;
    std::uint32_t sortIndex = 0;
    std::vector<CounterPoint> points;  // in time order, series by series within a time
};

// The HBM and LLC processes; none without profile_memory or without samples.
std::vector<CounterProcess> hardwareSampleCounterProcesses(const RunRecord& run,
                                                           const ProfilerConfig& config);

}  // namespace ascendsim

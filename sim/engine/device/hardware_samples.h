#pragma once
// The sampled memory-side hardware counters of a run (trace HBM/LLC counters, DB tables HBM and
// LLC): CANN samples them at 50 Hz while it collects with profile_memory (formats.md §1.6:
// profile_memory -> TASK_MEMORY + sys hardware mem freq 50). Real samples are 20 ms apart from the
// start of collection, the last one at its end (a shorter interval), and the first one is zero.
//
// The values are sums of the device memory model's traffic buckets over each interval; nothing is
// estimated here except two splits: HBM traffic over the stacks (see kHbmStackCount) and the L2
// read bytes over the read ports, by the lines each port looked up.
#include <cstdint>

#include "models/memory/traffic_sampler.h"
#include "profiler/config/profiler_config.h"
#include "profiler/record/run_record.h"

namespace ascendsim {

struct HardwareSampling {
    // 50 Hz: the real HBM samples are 20.000 ms apart (e5a31957, c1e639ee trace_view).
    static constexpr std::uint64_t kPeriodNs = 20'000'000;
    // The chip's hbm.stacks (4 on every 910A/910B: the real samples report HBM 0..3); this
    // value only when a record has no chip. The model has one HBM server behind the L2;
    // addresses are taken as interleaved finely across the stacks, so each carries an equal
    // share of every interval's traffic.
    static constexpr std::uint32_t kHbmStackCount = 4;
};

// Whether the profiler collects them: NPU activity, a level, and profile_memory.
bool collectsHardwareSamples(const ProfilerConfig& config);

// Appends record.hardwareSamples for the collection windows (the profiled steps in record.steps,
// adjacent ones merged). Each bucket of `traffic` is counted once, in the interval holding its
// start, or, for the bucket a window starts in, in the window's first interval.
void appendHardwareSamples(const TrafficSampler& traffic, RunRecord& record);

}  // namespace ascendsim

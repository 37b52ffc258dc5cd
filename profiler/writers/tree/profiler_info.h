#pragma once
// profiler_info.json / profiler_info_{rank}.json (formats.md §1.2): json.dumps(indent=4), keys in
// the order torch_npu writes them for the era, "rank_id" only in the rank case.
//
// start_info: the simulator records framework times as monotonic nanoseconds, so syscnt_enable is
// false (freq/start_cnt keep their defaults and are unused); start_monotonic is the monotonic
// clock at collection start and end_info ties the monotonic clock to the wall clock:
//   collectionTimeEnd - MonotonicTimeEnd = epochNs - monotonicAtStartNs.
// A parser therefore maps a FRAMEWORK time t to wall time t + (epochNs - monotonicAtStartNs).
#include <cstdint>
#include <string>

#include "profiler/config/profiler_config.h"
#include "profiler/record/run_record.h"

namespace ascendsim {

// The simulated CLOCK_MONOTONIC at simulated time 0 (an arbitrary, fixed uptime of 1000 s, so
// output is deterministic and the values look like real uptimes).
inline constexpr std::uint64_t kMonotonicAtStartNs = 1'000'000'000'000ULL;

// Monotonic ns of a simulated time, as FRAMEWORK records carry it.
inline std::uint64_t monotonicNs(std::uint64_t simNs) { return kMonotonicAtStartNs + simNs; }

// "profiler_info.json" or "profiler_info_{rank}.json".
std::string profilerInfoFileName(const RunRecord& run);

// The file text (no trailing newline). `collectionStartNs`/`collectionEndNs` are simulated times.
std::string renderProfilerInfo(const RunRecord& run, const ProfilerConfig& config, std::uint64_t collectionStartNs,
                               std::uint64_t collectionEndNs);

}  // namespace ascendsim

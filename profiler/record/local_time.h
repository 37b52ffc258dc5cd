#pragma once
// The run's simulated time as the local wall-clock time the profiler's file names and logs print
// (the run's epoch plus its UTC offset), so the same run under --deterministic gives the same text.
#include <cstdint>
#include <string>

#include "profiler/record/run_record.h"

namespace ascendsim {

// The 17-digit local-time stamp (YYYYmmddHHMMSS + milliseconds) of simulated time `simNs`.
std::string localTimestamp17(const RunRecord& run, std::uint64_t simNs);

}  // namespace ascendsim

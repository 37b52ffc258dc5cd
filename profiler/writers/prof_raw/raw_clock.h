#pragma once
// The system counter raw records are stamped with. host_start.log and dev_start.log.{id} pair
// clock_monotonic_raw with cntvct at collection start, and info.json gives the counter's rate
// (CPU[0].Frequency for the host, DeviceInfo hwts_frequency for the device: both the chip's
// hwtsFreqMhz, profiler/writers/tree/prof_tree_info.cpp). msprof turns a count back into time
// with exactly that pair and rate (Ascend/msprof common_func/info_conf_reader.py,
// time_from_syscnt / time_from_host_syscnt), so a count is the monotonic time × MHz / 1000.
#include <cstdint>

#include "profiler/record/run_record.h"
#include "profiler/writers/tree/profiler_info.h"

namespace ascendsim {

inline std::uint64_t rawSysCount(const RunRecord& run, std::uint64_t simNs) {
    return static_cast<std::uint64_t>(static_cast<double>(monotonicNs(simNs)) * run.chip->hwtsFreqMhz / 1000.0);
}

}  // namespace ascendsim

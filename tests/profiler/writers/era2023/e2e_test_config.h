#pragma once
// The ProfilerConfig of a 2023-era E2E collection with the given profileConfig flags, Level1, raw
// data kept (shared by the era2023 and prof_raw writer tests).
#include "profiler/config/profiler_config.h"

namespace ascendsim::testing_support {

inline ProfilerConfig e2eConfig(const AclProfFlags& flags = {}) {
    ProfilerConfig config;
    config.formatVersion = FormatVersion::Era2023;
    config.level = ProfilerLevel::Level1;
    config.dataSimplification = false;
    E2eProfile e2e;
    e2e.flags = flags;
    config.e2e = e2e;
    config.l2Cache = flags.l2cache;
    config.aicMetrics = flags.aicoreMetrics ? AicMetrics::PipeUtilization : AicMetrics::None;
    return config;
}

}  // namespace ascendsim::testing_support

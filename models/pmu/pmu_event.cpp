#include "models/pmu/pmu_event.h"

namespace ascendsim {

namespace {
constexpr std::array<PmuEventInfo, kPmuEventCount> kEventInfo = {{
#define ASCENDSIM_PMU_INFO(e, id, name, bytes, desc) {id, name, bytes, desc},
    ASCENDSIM_PMU_EVENTS(ASCENDSIM_PMU_INFO)
#undef ASCENDSIM_PMU_INFO
}};
}  // namespace

const PmuEventInfo& pmuEventInfo(PmuEvent e) { return kEventInfo[static_cast<std::size_t>(e)]; }

PmuCounters& PmuCounters::operator+=(const PmuCounters& other) {
    totalCycles += other.totalCycles;
    for (std::size_t i = 0; i < kPmuEventCount; ++i) counts[i] += other.counts[i];
    return *this;
}

}  // namespace ascendsim

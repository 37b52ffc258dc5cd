#include "sim/engine/device/collective_hbm_traffic.h"

namespace ascendsim {

namespace {
constexpr double kCollectivePsPerNs = 1000.0;
}  // namespace

std::vector<ConcurrentHbmWindow> collectiveHbmWindows(const CollectiveSchedule& schedule, std::uint64_t opStartNs) {
    std::vector<ConcurrentHbmWindow> windows;
    for (const HcclTask& task : schedule.tasks) {
        const bool memcpy = task.kind == HcclTaskKind::Memcpy;
        const bool reduces = task.kind == HcclTaskKind::ReduceInline;
        if ((!memcpy && !reduces) || task.sizeBytes == 0 || task.durationNs == 0) continue;
        const double startPs = static_cast<double>(opStartNs + task.startNs) * kCollectivePsPerNs;
        const double durationPs = static_cast<double>(task.durationNs) * kCollectivePsPerNs;
        windows.push_back(ConcurrentHbmWindow{
            startPs, startPs + durationPs,
            static_cast<double>(task.sizeBytes) * hcclTransferHbmBytesPerByte(reduces) / durationPs});
    }
    return windows;
}

}  // namespace ascendsim

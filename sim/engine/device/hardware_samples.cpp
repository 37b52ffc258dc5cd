#include "sim/engine/device/hardware_samples.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "profiler/record/collection_windows.h"

namespace ascendsim {

namespace {

constexpr std::uint64_t kPsPerNs = 1000;

// Each stack's share of `bytes`: equal parts, the remainder to the lowest stacks.
// None for a chip without HBM stacks.
std::vector<std::uint64_t> splitOverStacks(std::uint64_t bytes, std::uint32_t stacks) {
    if (stacks == 0) return {};
    std::vector<std::uint64_t> shares(stacks, bytes / stacks);
    for (std::uint64_t i = 0; i < bytes % stacks; ++i) ++shares[i];
    return shares;
}

// The interval's L2 read bytes over the read ports in proportion to the lines each port looked up
// (the model counts bytes per access, lines per port); the rounding remainder goes to port 0.
std::vector<std::uint64_t> splitOverPorts(const TrafficBucket& traffic) {
    std::vector<std::uint64_t> shares(kL2ReadPortCount, 0);
    std::uint64_t totalLines = 0;
    for (std::uint32_t port = 0; port < kL2ReadPortCount; ++port)
        totalLines += traffic.l2ReadHits[port] + traffic.l2ReadMisses[port];
    if (totalLines == 0) return shares;
    std::uint64_t assigned = 0;
    for (std::uint32_t port = 1; port < kL2ReadPortCount; ++port) {
        const double lines =
            static_cast<double>(traffic.l2ReadHits[port] + traffic.l2ReadMisses[port]);
        shares[port] = static_cast<std::uint64_t>(static_cast<double>(traffic.l2ReadBytes) * lines /
                                                  static_cast<double>(totalLines));
        assigned += shares[port];
    }
    shares[0] = traffic.l2ReadBytes - assigned;
    return shares;
}

HardwareTrafficSample sampleOf(std::uint64_t timeNs, std::uint64_t intervalNs,
                               const TrafficBucket& traffic, std::uint32_t hbmStacks) {
    HardwareTrafficSample sample;
    sample.timeNs = timeNs;
    sample.intervalNs = intervalNs;
    sample.hbmReadBytes = splitOverStacks(traffic.hbmReadBytes, hbmStacks);
    sample.hbmWriteBytes = splitOverStacks(traffic.hbmWriteBytes, hbmStacks);
    for (std::uint32_t port = 0; port < kL2ReadPortCount; ++port) {
        sample.llcReadHits.push_back(traffic.l2ReadHits[port]);
        sample.llcReadMisses.push_back(traffic.l2ReadMisses[port]);
    }
    sample.llcReadBytes = splitOverPorts(traffic);
    return sample;
}

std::vector<CollectionWindow> collectionWindows(const std::vector<StepRecord>& steps) {
    std::vector<CollectionWindow> windows;
    for (const StepRecord& step : steps) addCollectionWindow(windows, step.startNs, step.endNs);
    return windows;
}

}  // namespace

bool collectsHardwareSamples(const ProfilerConfig& config) {
    return config.activityNpu && config.level != ProfilerLevel::LevelNone && config.profileMemory;
}

void appendHardwareSamples(const TrafficSampler& traffic, RunRecord& record) {
    const std::uint64_t bucketPs = traffic.bucketPs();
    std::uint64_t countedUntilPs = 0;  // buckets starting before this are in an earlier window
    const std::uint32_t stacks =
        record.chip != nullptr ? record.chip->hbm.stacks : HardwareSampling::kHbmStackCount;
    for (const auto& [startNs, endNs] : collectionWindows(record.steps)) {
        record.hardwareSamples.push_back(sampleOf(startNs, 0, TrafficBucket{}, stacks));
        // The bucket the window starts in belongs to its first interval.
        std::uint64_t fromPs = std::max(countedUntilPs, startNs * kPsPerNs / bucketPs * bucketPs);
        std::uint64_t previousNs = startNs;
        while (previousNs < endNs) {
            const std::uint64_t timeNs = std::min(previousNs + HardwareSampling::kPeriodNs, endNs);
            const std::uint64_t toPs = timeNs * kPsPerNs;
            record.hardwareSamples.push_back(
                sampleOf(timeNs, timeNs - previousNs, traffic.sum(fromPs, toPs), stacks));
            fromPs = std::max(fromPs, toPs);
            previousNs = timeNs;
        }
        countedUntilPs =
            std::max(countedUntilPs, (endNs * kPsPerNs + bucketPs - 1) / bucketPs * bucketPs);
    }
}

}  // namespace ascendsim

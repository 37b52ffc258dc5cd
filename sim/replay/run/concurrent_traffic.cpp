#include "sim/replay/run/concurrent_traffic.h"

#include <algorithm>
#include <cstdio>
#include <utility>

namespace ascendsim {

namespace {

constexpr double kPsPerNs = 1000.0;

// The kernel's real span in ns, or nothing without a start time.
bool spanOf(const RealKernel& kernel, std::int64_t& startNs, std::int64_t& endNs) {
    if (kernel.startNs < 0 || !(kernel.durationUs > 0.0)) return false;
    startNs = kernel.startNs;
    endNs = kernel.startNs + static_cast<std::int64_t>(kernel.durationUs * 1000.0 + 0.5);
    return true;
}

}  // namespace

double hbmBytesPerTransferredByte(const HcclTransfer& transfer) {
    return hcclTransferHbmBytesPerByte(transfer.reduces);
}

std::vector<ConcurrentHbmWindow> concurrentHbmWindows(const RealKernel& kernel, const std::vector<HcclTransfer>& transfers) {
    std::vector<ConcurrentHbmWindow> windows;
    std::int64_t startNs = 0, endNs = 0;
    if (!spanOf(kernel, startNs, endNs)) return windows;
    for (const HcclTransfer& transfer : transfers) {
        if (transfer.bytes == 0 || transfer.endNs <= transfer.startNs) continue;
        if (transfer.endNs <= startNs || transfer.startNs >= endNs) continue;
        const double durationPs = static_cast<double>(transfer.endNs - transfer.startNs) * kPsPerNs;
        windows.push_back(ConcurrentHbmWindow{static_cast<double>(transfer.startNs - startNs) * kPsPerNs,
                                              static_cast<double>(transfer.endNs - startNs) * kPsPerNs,
                                              static_cast<double>(transfer.bytes) * hbmBytesPerTransferredByte(transfer) /
                                                  durationPs});
    }
    return windows;
}

double transferOverlapShare(const RealKernel& kernel, const std::vector<HcclTransfer>& transfers) {
    std::int64_t startNs = 0, endNs = 0;
    if (!spanOf(kernel, startNs, endNs)) return 0.0;
    std::vector<std::pair<std::int64_t, std::int64_t>> clipped;
    for (const HcclTransfer& transfer : transfers) {
        const std::int64_t a = std::max(transfer.startNs, startNs), b = std::min(transfer.endNs, endNs);
        if (b > a) clipped.emplace_back(a, b);
    }
    std::sort(clipped.begin(), clipped.end());
    std::int64_t covered = 0, reached = startNs;
    for (const auto& [a, b] : clipped) {
        if (b <= reached) continue;
        covered += b - std::max(a, reached);
        reached = b;
    }
    return static_cast<double>(covered) / static_cast<double>(endNs - startNs);
}

std::string concurrentTrafficText(const std::vector<ConcurrentHbmWindow>& windows) {
    std::string text;
    for (const ConcurrentHbmWindow& window : windows) {
        char buffer[96];
        std::snprintf(buffer, sizeof buffer, "|hbm %.0f..%.0f ns %.1f GB/s", window.startPs / kPsPerNs,
                      window.endPs / kPsPerNs, window.hbmBytesPerPs * 1000.0);
        text += buffer;
    }
    return text;
}

}  // namespace ascendsim

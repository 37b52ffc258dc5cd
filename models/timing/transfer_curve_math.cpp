#include "models/timing/transfer_curve_math.h"

#include <algorithm>
#include <stdexcept>

namespace ascendsim {

double interpolateTransferCycles(const TransferCurve& curve, double peakBytesPerCycle,
                                 std::uint64_t bytes) {
    const auto& xs = curve.bytes;
    const auto& ys = curve.cycles;
    if (xs.empty() || xs.size() != ys.size()) {
        throw std::invalid_argument("transfer curve has no points or mismatched columns");
    }
    const double b = static_cast<double>(bytes);
    const double streamingFloor = peakBytesPerCycle > 0.0 ? b / peakBytesPerCycle : 0.0;

    if (b <= xs.front()) {
        double cycles = ys.front() * b / xs.front();
        if (xs.size() >= 2) {
            const double slope = (ys[1] - ys[0]) / (static_cast<double>(xs[1]) - xs[0]);
            const double intercept = ys[0] - slope * xs[0];
            if (intercept > 0.0) cycles = intercept + slope * b;
        }
        return std::max({cycles, streamingFloor, 1.0});
    }
    if (b >= xs.back()) {
        const double extra = b - xs.back();
        if (peakBytesPerCycle > 0.0) return ys.back() + extra / peakBytesPerCycle;
        return ys.back() * b / xs.back();
    }
    const auto upper = std::upper_bound(xs.begin(), xs.end(), bytes);
    const std::size_t hi = static_cast<std::size_t>(upper - xs.begin());
    const std::size_t lo = hi - 1;
    const double fraction = (b - xs[lo]) / (static_cast<double>(xs[hi]) - xs[lo]);
    return ys[lo] + fraction * (ys[hi] - ys[lo]);
}

}  // namespace ascendsim

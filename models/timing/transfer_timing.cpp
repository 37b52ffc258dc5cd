#include "models/timing/transfer_timing.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "models/timing/transfer_curve_math.h"

namespace ascendsim {

namespace {

std::uint64_t roundUpCycles(double cycles) {
    return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::ceil(cycles - 1e-9)));
}

const PathTiming& requirePath(const ChipConfig& chip, MemSpace src, MemSpace dst) {
    const PathTiming* path = chip.findPath(src, dst);
    if (path == nullptr) {
        throw std::invalid_argument(chip.name + " has no transfer path " + pathName(src, dst));
    }
    return *path;
}

}  // namespace

TransferTiming::TransferTiming(const ChipConfig& chip) : chip_(chip) {}

// The curves were measured with 1 KiB bursts and give the cost of the whole transfer, so the
// burst structure only matters through the total byte count.
std::uint64_t TransferTiming::layoutCycles(const PathTiming& path, const DataMove& move) const {
    const std::uint64_t bytes = move.totalBytes();
    const bool converts = move.conversion != LayoutConversion::None;
    if (converts && !path.convertingCurve.bytes.empty()) {
        return roundUpCycles(
            interpolateTransferCycles(path.convertingCurve, path.peakBytesPerCycle, bytes));
    }
    const double plain = interpolateTransferCycles(path.curve, path.peakBytesPerCycle, bytes);
    return roundUpCycles(converts ? plain * path.conversionSlowdown : plain);
}

std::uint64_t TransferTiming::cycles(const DataMove& move) const {
    const PathTiming& path = requirePath(chip_, move.src, move.dst);
    const std::uint64_t layout = layoutCycles(path, move);
    if (move.srcType == move.dstType || path.dtypeConversionBytesPerCycle <= 0.0) return layout;
    // The element-type conversion runs at its own rate, under the move's fixed cost.
    return std::max(layout, roundUpCycles(static_cast<double>(move.totalBytes()) /
                                          path.dtypeConversionBytesPerCycle));
}

// Img2col expands the L1 slab into the m×k matrix while writing L0A; the write side (m·k
// elements) at the L1→L0A rate bounds it.
std::uint64_t TransferTiming::cycles(const Img2ColLoad& load) const {
    const PathTiming& path = requirePath(chip_, MemSpace::L1, MemSpace::L0A);
    return roundUpCycles(
        interpolateTransferCycles(path.curve, path.peakBytesPerCycle, load.totalBytes()));
}

}  // namespace ascendsim

#include "models/timing/transfer_timing.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "models/timing/shared_line_requests.h"
#include "models/timing/transfer_curve_math.h"

namespace ascendsim {

namespace {

constexpr double kC0VectorBytes = 32.0;  // one C0 vector of an NC1HWC0 row (hardware.md §2.3)
constexpr std::uint32_t kBurstBlockBytes = 32;  // a DMA burst's length unit, one UB block (hardware.md §2.3)

std::uint64_t roundUpCycles(double cycles) {
    return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::ceil(cycles - 1e-9)));
}

// C0 vectors one line of the L1 read port delivers a cycle (its Load3D path's peak over 32 B).
double c0VectorsPerL1Line(const PathTiming& load3dPath) {
    return std::max(1.0, load3dPath.peakBytesPerCycle / kC0VectorBytes);
}

std::uint64_t roundBurstCycles(double cycles) {
    return cycles > 0.0 ? static_cast<std::uint64_t>(std::ceil(cycles - 1e-9)) : 0;
}

// FixPipe's channel split (DataMove::fixpipeChannelSplit) writes an fp32 L0C tile as 32 B C0
// vectors, one a cycle, whatever the path's curve allows: CANN's 220x convolution kernels set it for
// float output (ops-nn conv3d_backprop_input_v2 `CopyData2Gm` enableChannelSplit, asc-devkit
// conv3d_bp_filter_sub_func.h `LoadL0c2Gm` isChannelSplit), and the AlexNet 910B2 conv rows'
// FixPipe busy over their output bytes is 26.7-32.8 B a cycle a core on the forward and 20.4-26.6
// on the input-gradient rows, where the export's plain fp32 ND stores run 61-92 (docs/fidelity.md
// §122d, §126).
std::uint64_t channelSplitCycles(const DataMove& move) {
    if (!move.fixpipeChannelSplit) return 0;
    if (move.src != MemSpace::L0C) throw std::invalid_argument("only an L0C store splits C0 channels");
    return roundUpCycles(static_cast<double>(move.totalBytes()) / kC0VectorBytes);
}

}  // namespace

std::uint64_t paddedBursts(const DataMove& move) {
    const bool oneRun = move.srcGapBytes == 0 && move.dstGapBytes == 0;
    if (move.burstCount <= 1 || oneRun || move.burstBytes % kBurstBlockBytes == 0) return 0;
    return move.burstCount - 1;
}

TransferTiming::TransferTiming(const ChipConfig& chip) : chip_(chip) {
    pathIndex_.fill(-1);
    if (chip.paths.size() > static_cast<std::size_t>(std::numeric_limits<std::int8_t>::max()))
        throw std::invalid_argument(chip.name + " has more transfer paths than a core has memory pairs");
    // Back to front, so that the first of duplicate entries wins, as ChipConfig::findPath's scan.
    for (std::size_t i = chip.paths.size(); i-- > 0;) {
        const PathTiming& p = chip.paths[i];
        pathIndex_[static_cast<std::size_t>(p.src) * kMemSpaceCount + static_cast<std::size_t>(p.dst)] =
            static_cast<std::int8_t>(i);
    }
}

const PathTiming& TransferTiming::timingOf(MemSpace src, MemSpace dst) const {
    const std::int8_t index = pathIndex_[static_cast<std::size_t>(src) * kMemSpaceCount + static_cast<std::size_t>(dst)];
    if (index < 0) throw std::invalid_argument(chip_.name + " has no transfer path " + pathName(src, dst));
    return chip_.paths[static_cast<std::size_t>(index)];
}

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
    const PathTiming& path = timingOf(move.src, move.dst);
    if (move.gathersC0Vectors) {
        // A Load3Dv2 that gathers each 32 B C0 vector from its own L1 line (instruction.h): its bytes
        // at one vector per line (the Load3D path's streamed part at its widest stride), and the
        // path's fixed start (its curve above the streamed bytes) once a move, as every move pays it
        // (docs/fidelity.md §143: CANN's fp32 input gradient moves a step one kernel row's C0 deep).
        if (move.src != MemSpace::L1) throw std::invalid_argument("only an L1 load gathers C0 vectors");
        const PathTiming& load3d = timingOf(MemSpace::L1, MemSpace::L0A);
        const double curve = interpolateTransferCycles(load3d.curve, load3d.peakBytesPerCycle, move.totalBytes());
        const double streamed = static_cast<double>(move.totalBytes()) / load3d.peakBytesPerCycle;
        return roundUpCycles(std::max(0.0, curve - streamed) + c0VectorsPerL1Line(load3d) * streamed);
    }
    // A path with a per-burst cost (paths[].burst_cycles) pays it for every burst beyond the 1 KiB
    // pieces its curve was measured with: a move of many short bursts restarts the copy at a new
    // address pair more often than the measured moves did. A move of 1 KiB bursts or longer, or of
    // one burst, pays the curve alone. (MSKPP's UB -> UB points give < 3.9 cycles per 1 KiB burst,
    // restart included, so the cost is that of bursts shorter than the measured ones.)
    const std::uint64_t measuredBursts =
        std::max<std::uint64_t>(1, (move.totalBytes() + kMeasuredBurstBytes - 1) / kMeasuredBurstBytes);
    const double restarts = move.burstCount > measuredBursts
                                ? static_cast<double>(move.burstCount - measuredBursts)
                                : 0.0;
    // A read whose lines other cores read at the same time waits for their turns on top.
    const std::uint64_t layout = layoutCycles(path, move) + roundBurstCycles(path.burstCycles * restarts) +
                                 roundBurstCycles(path.paddedBurstCycles * static_cast<double>(paddedBursts(move))) +
                                 sharedLineWaitCycles(chip_, move);
    // A read every block makes of the same lines at once moves no faster than the chip's shared-line
    // rate.
    const std::uint64_t stored = std::max({layout, channelSplitCycles(move), sharedLineReadCycles(chip_, move)});
    if (move.srcType == move.dstType || path.dtypeConversionBytesPerCycle <= 0.0) return stored;
    // The element-type conversion runs at its own rate, under the move's fixed cost.
    return std::max(stored, roundUpCycles(static_cast<double>(move.totalBytes()) /
                                          path.dtypeConversionBytesPerCycle));
}

// The UB -> GM store is the path whose acknowledgement the 910B's lone small stores show: MTE3 busy
// 165-270 cycles for one store of 4 B-4 KiB at the block's end against the curve's 140-182 (Qwen3 and
// AlexNet one-block rows, docs/fidelity.md §84c, §91). L0C -> GM (FIXPIPE) and the UB -> L1 moves are
// not measured and keep none.
std::uint64_t TransferTiming::writeAckCycles(const DataMove& move) const {
    return move.src == MemSpace::UB && move.dst == MemSpace::GM ? chip_.mte3StoreAckCycles : 0;
}

// Img2col expands the L1 slab into the m×k matrix while writing an L0 buffer; the write side (m·k
// elements) at that buffer's rate bounds it (below). Load3D gathers one C0 vector (32 B, hardware.md §2.3)
// per output position and tap, and the L1 read port delivers a contiguous line per cycle (the
// path's peak, ~256 B): consecutive output positions strideW vectors apart use 1/strideW of each
// line, up to one vector per line. The 11×11 stride-4 stems of the AlexNet 910B2 and 910A samples
// spend 3.0–3.8× the stride-1 rate in MTE1 (docs/fidelity.md "Mechanisms" §6e).
std::uint64_t TransferTiming::cycles(const Img2ColLoad& load) const {
    const PathTiming& path = timingOf(MemSpace::L1, MemSpace::L0A);
    const double vectorsPerLine = c0VectorsPerL1Line(path);
    const double strideCost = std::min<double>(std::max<std::uint16_t>(load.strideW, 1), vectorsPerLine);
    const double read = strideCost * interpolateTransferCycles(path.curve, path.peakBytesPerCycle, load.totalBytes());
    // The write side: the m·k elements at the rate of the L0 buffer the chip's Load3D writes
    // (Img2ColLoad::chipDst); L0B's port takes half L0A's (the L1 -> L0B curve), which the filter
    // gradient's x load meets: its steps' MTE1 comes to the real on the AlexNet 910B2 rows
    // (docs/fidelity.md §115).
    const PathTiming& write = timingOf(MemSpace::L1, load.chipDst);
    const double written = interpolateTransferCycles(write.curve, write.peakBytesPerCycle, load.totalBytes());
    // The chip's Load3D start (pipes.mte1_load3d_start_cycles, CANN's k1971Mte1Load3dCost), paid by
    // the Load3Ds the model issues as the chip does (dst = chipDst): the filter gradient's x into L0B,
    // whose MTE1 the AlexNet 910B2 dw rows show 0.59-0.68 of their time against 0.42-0.54 without it,
    // and its fp32 dy into L0A (§161). CANN's cost model charges every Load3D the same; the forward and
    // input-gradient convolutions' img2cols, which the model holds transposed (in L0B, the chip's in
    // L0A), measured worse with it (AlexNet aic_mte1 0.066 -> 0.075, aic_mac 0.070 -> 0.075): their
    // bytes' cost already holds what the chip spends there (docs/fidelity.md §151g).
    const std::uint64_t start = load.dst == load.chipDst ? chip_.mte1Load3dStartCycles : 0;
    return start + roundUpCycles(std::max(read, written));
}

}  // namespace ascendsim

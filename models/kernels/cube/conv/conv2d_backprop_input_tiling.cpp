#include "models/kernels/cube/conv/conv2d_backprop_input_tiling.h"

#include <algorithm>

namespace ascendsim {

namespace {
// The figures of CANN's arch22 dx tiling (conv3d_backprop_input_v2_base_tiling.cpp), fp32 only.
constexpr std::uint64_t kFp32Bytes = 4;
constexpr std::uint64_t kFp32C0 = 8;            // blockSize_: 32 B of fp32
constexpr std::uint64_t kFp32C0out = 16;        // BLOCK_CUBE: the fp32 FRACTAL_Z's 16 × 8 fractal rows
constexpr std::uint64_t kL1Reserved = 128;      // L1_SIZE = 512 KiB - 128
constexpr std::uint64_t kL1Quarters = 4;        // BUFFER_NUM_L1
constexpr std::uint64_t kFmapExtraRows = 2;     // FMAP_H_NUM

std::uint64_t divUp(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

// CalFmapH: the dy rows a tile of `positions` dx positions reads through the kernel.
std::uint64_t dyRowsOfTile(const ConvWindow& w, std::uint64_t positions) {
    std::uint64_t rows = kFmapExtraRows;
    if (positions % w.outW == 0 || w.outW % positions == 0) rows = divUp(positions, w.outW);
    else if (positions > w.outW) rows = positions / w.outW + kFmapExtraRows;
    const std::uint64_t kernelExtent = std::uint64_t{w.kernelH - 1} * w.dilationH + 1;
    const std::uint64_t expanded = (w.inH - 1) * w.inputDilationH + 1;
    return std::min(rows - 1 + kernelExtent, expanded);
}

// GetMaxDivisor: the largest divisor of `a` that is at most `b`, in steps of `step` down from b; 0 if none.
std::uint64_t largestDivisorAtMost(std::uint64_t a, std::uint64_t b, std::uint64_t step) {
    for (; b >= step; b -= step)
        if (a % b == 0) return b;
    return 0;
}

// AlignCout1 with fp32's adaptation (kernels larger than 1 × 1): dy's C1 a multiple of the
// weights' C1, or the weights' a divisor of dy's in whole C0out, whichever keeps more in L1.
void alignCout1(std::uint64_t& dyC1, std::uint64_t& weightC1, bool wholeC0out) {
    if (dyC1 == weightC1) return;
    if (weightC1 > dyC1) {
        dyC1 = largestDivisorAtMost(weightC1, dyC1, 1);
        return;
    }
    if (!wholeC0out) {
        weightC1 = largestDivisorAtMost(dyC1, weightC1, 1);
        return;
    }
    std::uint64_t dyMultiple = dyC1;
    while (dyMultiple % weightC1 > 0) --dyMultiple;
    const std::uint64_t weightDivisor = largestDivisorAtMost(dyC1, weightC1, kFp32C0out / kFp32C0);
    if (weightDivisor != 0 && weightDivisor * dyC1 > dyMultiple * weightC1) weightC1 = weightDivisor;
    else dyC1 = dyMultiple;
}
}  // namespace

Fp32InputGradLoads fp32InputGradLoads(const ConvWindow& w, std::uint64_t dyChannels, std::uint64_t positions,
                                      std::uint64_t channels, std::uint64_t l1Bytes, std::uint64_t l0HalfBytes) {
    Fp32InputGradLoads loads;
    const std::uint64_t taps = w.taps(), tapsC0 = taps * kFp32C0;  // lenHkWkC0
    const std::uint64_t dyC1 = divUp(dyChannels, kFp32C0);

    // The step: one C0 of every tap, else of one kernel row (CalTbeBlockTiling's order), when both
    // operands' step fits an L0 half.
    auto fits = [&](std::uint64_t depth) { return std::max(positions, channels) * depth * kFp32Bytes <= l0HalfBytes; };
    if (fits(tapsC0)) loads.stepDepth = static_cast<std::uint32_t>(tapsC0);
    else if (fits(std::uint64_t{w.kernelW} * kFp32C0)) loads.stepDepth = w.kernelW * static_cast<std::uint32_t>(kFp32C0);

    // UpdateBaseStep: each operand's load sized by a quarter of L1; the weights' C1 in pairs (whole
    // C0out), a pair that overflows its quarter taking the excess from dy's.
    const std::uint64_t quarter = (l1Bytes - kL1Reserved) / kL1Quarters;
    const std::uint64_t weightC1Bytes = tapsC0 * channels * kFp32Bytes;
    const bool wholeC0out = taps > 1;
    std::uint64_t dyQuarter = quarter;
    std::uint64_t weightC1 = std::max<std::uint64_t>(1, quarter / weightC1Bytes);
    const std::uint64_t pair = kFp32C0out / kFp32C0;
    if (wholeC0out && weightC1 == 1) {
        weightC1 = pair;
        dyQuarter = 2 * quarter > weightC1Bytes * pair ? 2 * quarter - weightC1Bytes * pair : 0;
    } else if (wholeC0out) {
        weightC1 = weightC1 / pair * pair;
    }
    const std::uint64_t dyC1Bytes = kFp32Bytes * dyRowsOfTile(w, positions) * w.inW * w.inputDilationW * kFp32C0;
    std::uint64_t dyLoadC1 = std::max<std::uint64_t>(1, dyQuarter / dyC1Bytes);
    dyLoadC1 = std::min(dyLoadC1, dyC1);
    weightC1 = std::min(weightC1, dyC1);
    alignCout1(dyLoadC1, weightC1, wholeC0out);
    loads.weightChunkChannels = static_cast<std::uint32_t>(weightC1 * kFp32C0);
    loads.dyBandChunks = static_cast<std::uint32_t>(std::max<std::uint64_t>(1, dyLoadC1 / weightC1));
    return loads;
}

}  // namespace ascendsim

#include "models/kernels/cube/matmul/matmul_cann_base_block.h"

#include <algorithm>

namespace ascendsim {

namespace {
constexpr std::uint64_t kLargeEdge = 256;        // below it on M or N: CANN's small-shape path
constexpr std::uint64_t kL0cBytes = 128 * 1024;  // the 910B L0C the 128×256 / 256×128 fp32 tile fills
constexpr std::pair<std::uint32_t, std::uint32_t> kWideN{128, 256}, kWideM{256, 128};
constexpr std::uint64_t kRpcL1Bytes = 256;         // CalL1Tiling: L1 size + 256 B "reserved for RPC"
constexpr std::uint64_t kBiasTableBytes = 256 * 4;  // BIAS_TABLE_NUM × fp32, kept free when there is a bias
constexpr std::uint64_t kSlots = 2;                 // DB_SIZE: two L1 slots per operand

// UpdateL1TilingStepK: a step row longer than 512 B (else 256 B) is trimmed to a whole number of
// them when a baseK row divides it; a step that already covers K stays.
std::uint64_t alignedStepK(std::uint64_t stepK, std::uint64_t baseKBytes, std::uint64_t kBytes) {
    if (stepK * baseKBytes >= kBytes) return stepK;
    for (const std::uint64_t unit : {std::uint64_t{512}, std::uint64_t{256}}) {
        if (stepK * baseKBytes <= unit) continue;
        if (unit % baseKBytes == 0)
            while (stepK > 1 && (stepK * baseKBytes) % unit != 0) --stepK;
        break;
    }
    return stepK;
}
}  // namespace

std::optional<std::pair<std::uint32_t, std::uint32_t>> cannBaseBlock(const ChipConfig& chip, const MatmulProblem& p) {
    if (chip.organisation == CoreOrganisation::Coupled || chip.bufferCapacity(MemSpace::L0C) != kL0cBytes ||
        p.batchCount() != 1 || p.m < kLargeEdge || p.n < kLargeEdge || chip.aiCoreCount == 0)
        return std::nullopt;
    if (ceilDiv(p.m, kWideN.first) * ceilDiv(p.n, kWideN.second) < chip.aiCoreCount) return std::nullopt;
    if (p.transposeA == p.transposeB) return p.transposeA ? kWideM : kWideN;
    if (p.bFractal) return kWideN;
    const std::uint64_t large = (chip.aiCoreCount / 2) * kLargeEdge;
    const bool mLarge = p.m >= large, nLarge = p.n >= large;
    if (mLarge && nLarge) {
        // Operand rows each block shape loads: every m-block reads all of B, every n-block all of A.
        const std::uint64_t rowsWideM = ceilDiv(p.m, kWideM.first) * p.n + ceilDiv(p.n, kWideM.second) * p.m;
        const std::uint64_t rowsWideN = ceilDiv(p.m, kWideN.first) * p.n + ceilDiv(p.n, kWideN.second) * p.m;
        return rowsWideM < rowsWideN ? kWideM : kWideN;
    }
    if (mLarge || (!nLarge && p.m > p.n)) return kWideM;
    return kWideN;
}

CannChunkDepths cannChunkDepths(const ChipConfig& chip, const MatmulProblem& p, const MatmulTiling& tiling) {
    const std::uint64_t eb = bytesOf(p.inputType), baseK = tiling.baseK;
    const std::uint64_t l1 = chip.bufferCapacity(MemSpace::L1) + kRpcL1Bytes;
    std::uint64_t depthA = l1 / 2 / (tiling.baseM * baseK * eb);
    std::uint64_t depthB = l1 / 2 / (tiling.baseN * baseK * eb);
    const std::uint64_t reserve = p.hasBias ? kBiasTableBytes : 0;
    if ((depthA * tiling.baseM + depthB * tiling.baseN) * baseK * eb > l1 - reserve) {
        if (tiling.baseM <= tiling.baseN)
            depthA /= 2;
        else
            depthB /= 2;
    }
    std::uint64_t stepA = alignedStepK(std::max<std::uint64_t>(1, depthA / kSlots), baseK * eb, p.k * eb);
    std::uint64_t stepB = alignedStepK(std::max<std::uint64_t>(1, depthB / kSlots), baseK * eb, p.k * eb);
    if (stepA >= stepB)
        stepA = stepA / stepB * stepB;
    else
        stepB = stepB / stepA * stepA;
    const std::uint64_t kCap = roundUp(p.k, baseK);
    return {std::min(stepA * baseK, kCap), std::min(stepB * baseK, kCap)};
}

}  // namespace ascendsim

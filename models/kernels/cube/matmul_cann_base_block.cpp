#include "models/kernels/cube/matmul_cann_base_block.h"

namespace ascendsim {

namespace {
constexpr std::uint64_t kLargeEdge = 256;        // below it on M or N: CANN's small-shape path
constexpr std::uint64_t kL0cBytes = 128 * 1024;  // the 910B L0C the 128×256 / 256×128 fp32 tile fills
constexpr std::pair<std::uint32_t, std::uint32_t> kWideN{128, 256}, kWideM{256, 128};
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

}  // namespace ascendsim

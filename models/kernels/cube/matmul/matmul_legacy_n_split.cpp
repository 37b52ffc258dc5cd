#include "models/kernels/cube/matmul/matmul_legacy_n_split.h"

namespace ascendsim {

namespace {
constexpr std::uint64_t kLegacyFractalColumns = 16;  // cube fractal edge (hardware.md §2.5)
}  // namespace

std::optional<std::uint64_t> legacyBlockShareN(const OpInstance& op, const ChipConfig& chip,
                                               const MatmulProblem& p, std::uint64_t baseM) {
    if (p.batchCount() != 1 || p.m > baseM) return std::nullopt;
    const std::uint64_t cores = op.blockDim ? *op.blockDim : chip.aiCoreCount;
    const std::uint64_t fractals = ceilDiv(p.n, kLegacyFractalColumns);
    std::uint64_t nDim = 1;
    for (std::uint64_t d = 2; d <= std::min(cores, fractals); ++d)
        if (fractals % d == 0) nDim = d;
    if (nDim == 1 && fractals > 1) return std::nullopt;
    return fractals / nDim * kLegacyFractalColumns;
}

}  // namespace ascendsim

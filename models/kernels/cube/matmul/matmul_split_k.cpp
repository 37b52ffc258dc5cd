#include "models/kernels/cube/matmul/matmul_split_k.h"

#include <algorithm>

namespace ascendsim {

namespace {
std::uint64_t ceilDivSlices(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }
}  // namespace

KSlices leastWorkKSlices(std::uint64_t outputTiles, std::uint64_t blocks, std::uint64_t k, std::uint64_t stepK) {
    KSlices best;
    best.sliceK = k;
    if (outputTiles == 0 || blocks == 0 || stepK == 0 || k == 0) return best;
    const std::uint64_t steps = ceilDivSlices(k, stepK);
    std::uint64_t bestWork = ceilDivSlices(outputTiles, blocks) * steps;
    // From the deepest slice down: a shallower one must leave strictly less work to win.
    for (std::uint64_t sliceSteps = steps - 1; sliceSteps >= 1; --sliceSteps) {
        const std::uint64_t splits = ceilDivSlices(steps, sliceSteps);
        const std::uint64_t work = ceilDivSlices(outputTiles * splits, blocks) * sliceSteps;
        if (work < bestWork) {
            bestWork = work;
            best.splits = splits;
            best.sliceK = std::min(k, sliceSteps * stepK);
        }
    }
    return best;
}

}  // namespace ascendsim

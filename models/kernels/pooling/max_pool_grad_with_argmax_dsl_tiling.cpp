#include "models/kernels/pooling/max_pool_grad_with_argmax_dsl_tiling.h"

#include <algorithm>

namespace ascendsim {

namespace {

// pooling_grad_with_arg_schedule.py, PGSchConstant: UB kept back from the nodes, and how many fp32
// nodes of the budget coexist (3.5: the schedule's estimate for float32 outputs).
constexpr std::uint64_t kDslPoolGradReservedUbBytes = 1024;
constexpr std::uint64_t kDslPoolGradCoexistNodesTimesTwo = 7;

}  // namespace

DslArgmaxGradTiling dslArgmaxGradTiling(const ArgmaxPoolGeometry& g, std::uint64_t ubBytes, std::uint64_t blockDim) {
    DslArgmaxGradTiling t;
    const std::uint64_t usable = ubBytes > kDslPoolGradReservedUbBytes ? ubBytes - kDslPoolGradReservedUbBytes : 0;
    t.bufferElements = usable / 4 * 2 / kDslPoolGradCoexistNodesTimesTwo;
    const std::uint64_t rowElements = g.w * kArgmaxPoolC0;
    // More blocks than planes: the block axis is H, each block a run of dx rows of one plane.
    if (blockDim > g.planes) {
        t.hBlockRows = ceilDiv(g.h, std::min(g.h, ceilDiv(blockDim, g.planes)));
        t.hBlocks = ceilDiv(g.h, t.hBlockRows);
    } else {
        t.hBlockRows = g.h;
    }
    if (t.hBlocks == 1 && g.h * rowElements <= t.bufferElements) {
        t.tileRows = g.h;
    } else {
        t.tileRows = std::clamp<std::uint64_t>(t.bufferElements / rowElements, 1, t.hBlockRows);
        t.tilesPerHBlock = ceilDiv(t.hBlockRows, t.tileRows);
    }
    // A tap's share of the chunk budget: the Ho·Wo·C0 fp32 its split rows (`grad_split_hwo`
    // [window, ho, wo, c0], what the col2img reduce reads) hold for the whole plane — not the
    // schedule's smaller buffer_tile bound of an H tile, which the tiling does not see.
    const std::uint64_t perTap = g.outH * g.outW * kArgmaxPoolC0;
    t.tapsPerChunk = g.taps() * perTap <= t.bufferElements ? g.taps() : std::max<std::uint64_t>(1, t.bufferElements / perTap);
    return t;
}

}  // namespace ascendsim

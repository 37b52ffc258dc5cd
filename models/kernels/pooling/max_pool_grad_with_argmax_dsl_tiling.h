#pragma once
// The UB tiling of CANN's DSL MaxPoolGradWithArgmaxV1 (fp32 NC1HWC0; dynamic/max_pool_grad_with_argmaxv1.py
// → tbe.dsl PoolingGradWithArg, CANN 8.1.RC1 tbe/dsl/unify_schedule/vector/pooling_grad_with_arg/).
//
// What the schedule fixes (pooling_grad_with_arg_schedule.py, read in session 34):
//   - every UB node gets the same budget, `_calc_buffer_size`: (UB − RESERVE_SPACE 1024 B) / 4 B /
//     MAX_COEXIST_NODE_NUM_FP32 3.5 fp32 elements; the static-shape tiling cases are built without
//     double buffering (`_add_const_tiling_case`, and `check_consistency` rejects a tiling that
//     switches it on), so one buffer per node;
//   - the output dx is split by the block axis and the UB axis (`_do_block_tiling`, `_do_ub_tiling`);
//     every node is computed at the UB tile (COMMON), or, in WINDOW_SPLIT, the nodes before the
//     col2img reduce (the dy rows `grad_ub`, the argmax, `grad_sel`, `grad_split_hwo`) at the
//     window-chunk axis of the reduce (`_calc_compute_at`): per chunk of taps they are loaded and
//     selected again;
//   - in an H-split tile `grad_sel` holds min(rows, rows / sh + 2) window rows (`_set_buffer_tile`).
// What the closed AutoTiling (op_tiling "AutoTiling", in no readable source) decides is inferred
// from those bounds: the largest tile that fits the budget — a whole plane when its dx does, else
// as many dx rows as do — and COMMON when every tap's Ho·Wo·C0 split rows fit too, else WINDOW_SPLIT
// with as many taps a chunk as fit. On the AlexNet 910B2 rows: COMMON for 13 × 13 planes, two
// chunks (5 + 4 taps) for 27 × 27 planes, 15-row tiles of one tap a chunk for 55 × 55. Sizing a
// tap by the whole plane even in an H tile (the tiling does not see the schedule's buffer_tile)
// is what the 55 × 55 row's MTE2 (0.44 of its time, dy reloaded for every tap) supports; sizing
// it by the argmax's ⌈Ho·Wo/16⌉·16 rows would give 27 × 27 three chunks and 1.2× its MTE2
// (docs/fidelity.md §174).
// The block split (blocks over N, C1 or H) is the launch's block dim when the op carries one (the
// replay: 32 / 32 / 256 on those rows, i.e. N, N and two H halves a plane).
#include <cstdint>

#include "models/kernels/pooling/max_pool_argmax_geometry.h"

namespace ascendsim {

struct DslArgmaxGradTiling {
    std::uint64_t bufferElements = 0;  // fp32 elements of one UB node
    std::uint64_t hBlocks = 1;         // H blocks a plane (block axis H when > 1)
    std::uint64_t hBlockRows = 0;      // dx rows of one H block
    std::uint64_t tileRows = 0;        // dx rows of one UB tile (H when a whole plane fits)
    std::uint64_t tilesPerHBlock = 1;
    std::uint64_t tapsPerChunk = 0;    // = taps for COMMON
    bool wholePlane() const { return hBlocks == 1 && tilesPerHBlock == 1; }
    std::uint64_t tilesPerPlane() const { return hBlocks * tilesPerHBlock; }
    std::uint64_t chunks(std::uint64_t taps) const { return (taps + tapsPerChunk - 1) / tapsPerChunk; }
};

// `ubBytes`: the AIV's UB; `blockDim`: the launch's block dim (0: none given — the blocks split
// planes only).
DslArgmaxGradTiling dslArgmaxGradTiling(const ArgmaxPoolGeometry& g, std::uint64_t ubBytes, std::uint64_t blockDim);

}  // namespace ascendsim

#pragma once
// The block split and L0 block CANN's cube cache tiling picks for a filter gradient on the split
// (220x) cube. ops-nn conv3d_backprop_filter_v2 arch22 takes its fp32 rows' tiling from the TBE
// cube cache tiling (conv3d_backprop_filter_v2_base_tiling.cpp InitTilingValue: the basic-block
// core split runs for bf16 on the 910B3's core count only), whose cycle-model search
// (ops-nn cube/algorithm/calculator/cycle_calculator.cc, cube/util/cube_util.cc, math_util.cc;
// read, not copied) tries every block split batch × m × k × n of the core count that uses at least
// 80 % of the cores, gives each an L0 block by GetMN0 and L1 depths by CalcKbl1 / CalcKal1, and
// keeps the cheapest by its MTE2 / MTE1 / mad / fixpipe cycle estimate. Block b then takes the k
// share b % kDim, the n (input-channel) share (b / kDim) % nDim, the m (output-channel) share
// (b / (kDim · nDim)) % mDim and the batch share b / (kDim · nDim · mDim) (arch22
// conv3d_backprop_filter_v2.h CalSingleCoreShape's order), and runs its images one by one, each
// through its column tiles (baseN) with the co tiles (baseM) innermost (ORDER_N). The k share is a
// run of the flattened output positions, not of whole output rows: these rows run the TBE binary
// dw kernel (the profile's Conv2DBackpropFilter on NC1HWC0 → FRACTAL_Z with its MemSet, one store a
// tile after all the block's images, §151a), whose schedule splits the reduce axis hw (split_axis_mode
// 0, "split hw (default)") into k_dim parts of k_expr_single_core positions (TBE
// conv2d_backprop_filter_schedule.py _atomic_add: hw_single_core_factor from the cache tiling's
// kal1_factor · kal0_factor · k_l0, i.e. its single-core k, ⌈align(Ho·Wo, 16) / k0 / kDim⌉ · k0).
#include <cstdint>

#include "models/kernels/cube/conv/conv2d_geometry.h"

namespace ascendsim {

struct FilterGradBlockSplit {
    std::uint32_t batchDim = 0, mDim = 0, kDim = 0, nDim = 0;  // 0: no split found
    // Per block: images, output channels, input channels, flattened output positions of an image (the
    // last share of each may be shorter).
    std::uint64_t imagesPerBlock = 0, coutPerBlock = 0, cinPerBlock = 0, positionsPerBlock = 0;
    // The L0 block: output channels × reduction columns, and the step's output positions.
    std::uint32_t baseM = 0, baseN = 0, baseK = 0;
    // The L1 block: output positions of dy and x a load holds (CalcKal1 / CalcKbl1, the shallower of
    // the two), and its buffers (SetDoubleBuffer: 2 when a second AL1 and BL1 fit beside the first).
    std::uint32_t l1Positions = 0, l1Buffers = 0;
    std::uint32_t blocks() const { return batchDim * mDim * kDim * nDim; }
};

// CANN's choice for a filter gradient of `batch` images of `inChannels` → `outChannels` over `window`
// with `elementBytes` inputs (hf32: the mad at one fractal a cycle), on `cores` cube cores with an
// L1 of `l1Bytes`. Returns a split with batchDim 0 when no split of at least 80 % of the cores
// exists for the shape.
FilterGradBlockSplit cannFilterGradBlockSplit(const ConvWindow& window, std::uint64_t batch, std::uint64_t inChannels,
                                              std::uint64_t outChannels, std::uint64_t elementBytes, bool hf32,
                                              std::uint32_t cores, std::uint64_t l1Bytes);

}  // namespace ascendsim

#pragma once
// How CANN's fp32 input gradient on the 220x fills L1 and L0 for a base block (ops-nn
// conv3d_backprop_input_v2, op_host/op_tiling/arch22/conv3d_backprop_input_v2_base_tiling.cpp:
// `UpdateBaseBlock` and `CalTbeBlockTiling` for the L0 step, `UpdateBaseStep` / `AlignCout1` for the
// L1 loads; docs/fidelity.md §143): the weights (CANN's B1, stepKb) and dy (A1, stepKa) each sized
// by a quarter of L1, the weights in whole 16-channel C0out of the fp32 FRACTAL_Z (pairs of 8-channel
// C1 blocks of dy), dy's load a whole multiple of them; the step one C0 of every tap, else one kernel
// row's C0, when the base block's L0 halves hold it.
#include <cstdint>

#include "models/kernels/cube/conv/conv2d_geometry.h"

namespace ascendsim {

struct Fp32InputGradLoads {
    std::uint32_t stepDepth = 0;            // reduction elements (dy channels × taps) a step; 0: none fits
    std::uint32_t weightChunkChannels = 0;  // dy channels of one weight (B1) load
    std::uint32_t dyBandChunks = 0;         // weight loads one dy (A1) load serves
};

// The loads of a base block of `positions` dx positions × `channels` dx channels of the stride-1
// convolution `window` (dy as its input, dx as its output: the input-gradient form of
// conv2d_backprop_input.cpp) reducing `dyChannels`, on a chip of `l1Bytes` L1 whose L0A / L0B
// halves hold `l0HalfBytes` each.
Fp32InputGradLoads fp32InputGradLoads(const ConvWindow& window, std::uint64_t dyChannels, std::uint64_t positions,
                                      std::uint64_t channels, std::uint64_t l1Bytes, std::uint64_t l0HalfBytes);

}  // namespace ascendsim

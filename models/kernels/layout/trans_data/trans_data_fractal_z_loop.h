#pragma once
// TransData of a 32-bit convolution weight between NCHW [Co, C, kh, kw] and FRACTAL_Z with a
// 32 B C0 (8 fp32 on the 910B) or the 910A's 64 B C0 (16 fp32), both ways, as CANN's TIK kernels
// loop it (trans_data_fractal_z_loop.cpp; docs/fidelity.md §48, §139h).
#include "models/kernels/kernel_registry.h"

namespace ascendsim {

// True when op (x → y, one of them FRACTAL_Z) is what the loop models: 4-byte elements, a C0 of
// one or two 32 B blocks, and whole groups of 16 output channels.
bool fractalZLoopApplies(const OpInstance& op, std::int64_t co, std::int64_t c0);

// Lowers such an op ([Co, C, kh, kw] on the NCHW side; a C that is not a multiple of C0 is
// padded with zero channels in FRACTAL_Z).
std::vector<LoweredKernel> lowerFractalZLoop(const OpInstance& op, const ChipConfig& chip);

}  // namespace ascendsim

#pragma once
// The scalar work a block of CANN's dynamic reduce-schedule binary does before its first move
// (docs/fidelity.md §68). On the 220x the DSL's reduce and norm ops (ReduceSum/Mean/Max,
// LogSoftmaxV2, LogSoftmaxGrad) run one binary per dtype for every shape: each block reads the
// launch's tiling, picks its tiling case (one per pair of block/UB split axes, normal, atomic and
// empty variants, §36) and computes its offsets from the shape variables on the scalar unit. The
// coupled chips' (910A) kernels are static: their sizes are compiled in, they pay none of it.
#include <cstdint>

#include "models/kernels/kernel_registry.h"

namespace ascendsim {

// [D] AlexNet 910B2 text export (e5a31957 text/level2 rank0, 1800 MHz): real scalar cycles a block
// minus the model's for the four kernels whose modelled scalar is the per-instruction cost alone —
// ReduceSum [32, 1000] → [1, 1000] bd 42: 8312 − 754 = 7560; [32, 4096] → [1, 4096] bd 47:
// 6903 / 7008 − 829 ≈ 6100; LogSoftmaxV2 [32, 1000] bd 32: 6072 − 950 = 5120; LogSoftmaxGrad:
// 3979 − 864 = 3115. The median, 5600 cycles; the DB export held out.
inline constexpr std::uint32_t kDslReduceDispatchScalarCycles = 5600;

// Prefixes every block of `kernel` with the dispatch's scalar work on split chips; no-op elsewhere.
void prependDslReduceDispatch(LoweredKernel& kernel, const ChipConfig& chip);

}  // namespace ascendsim

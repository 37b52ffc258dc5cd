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

// Bytes of code a block of such a binary runs through (KernelTask::codeBytes, docs/fidelity.md
// §102): the dispatch above is straight-line scalar code run once a block, and the case it selects
// is the DSL's emitted loop for every stage of the op, so a block fetches more code than the
// elementwise binaries' 10 KiB (icache.kernel_code_bytes) — cold, through the port the launch's
// blocks share. [D] AlexNet 910B2 text export (e5a31957 text/level2 rank0): the four kernels'
// real time a block outside every pipe (LogSoftmaxV2 ≥ 19 146, LogSoftmaxGrad ≥ 9428, ReduceSum
// [32,1000] ≥ 14 872, [32,4096] ≥ 15 145 cycles) with real aiv_icache_miss_rate 0.20–0.22, the
// highest of the export's AIV DSL kernels; swept 24 / 28 / 32 KiB, least sum |log sim/real| over
// the five launches at 32 KiB (0.79 against 1.06 / 1.36), the 220x ICache's whole size
// (icache.size_bytes); the DB export held out.
inline constexpr std::uint32_t kDslReduceCodeBytes = 32768;

// Prefixes every block of `kernel` with the dispatch's scalar work and gives it the binary's code
// size (kDslReduceCodeBytes) on split chips; no-op elsewhere.
void prependDslReduceDispatch(LoweredKernel& kernel, const ChipConfig& chip);

}  // namespace ascendsim

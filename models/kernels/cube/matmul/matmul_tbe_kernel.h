#pragma once
// Which MatMuls run TBE's binary GEMM kernel rather than the Ascend C Matmul (MatMulV3) the base
// tiling follows (docs/fidelity.md §119, §125). TBE's kernel syncs the cube → FixPipe hand-off with
// a plain event: its store waits for the mmads and is issued after them, where the Ascend C
// Matmul's store is issued ahead under the mmad unit flag and counts the wait as FixPipe busy (§34).
#include "models/kernels/op_instance.h"

namespace ascendsim {

// The op attribute the replay sets on a CANN MatMulV2 row: on the 910B the MatMulV2 op is TBE's
// binary kernel tiled at run time by the legacy cache tiling (ophost/matmul_tiling/cache_tiling.cc),
// MatMulV3 the Ascend C one (ops-nn mat_mul_v3).
inline constexpr const char* kTbeKernelAttr = "tbe_kernel";

}  // namespace ascendsim

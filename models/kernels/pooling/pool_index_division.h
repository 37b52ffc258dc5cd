#pragma once
// The scalar unit's cost of one integer division (or remainder) of a pooling kernel's index
// arithmetic on the 910B AIV. CANN's pooling kernels split flat output indices into coordinates on
// the scalar unit with run-time divisors: AdaptiveAvgPool3d's CalculateIndex (Ascend C, int64) and
// the DSL's img2col emitter, which splits each output row's first flattened position into (ho, wo)
// by the run-time Wo (max_pool_with_argmax.cpp).
#include <cstdint>

namespace ascendsim {

// Cycles per division [D]: fitted on the AlexNet 910B2 text sample's AdaptiveAvgPool3d
// [32,1,6,6,256] → 6×6 (e5a31957 level2 rank0: 19.22 µs at 48 blocks, 24 points a block, scalar
// 0.533 = 768 cycles a point, of which the model's instruction issue gives ≈ 180, over 19
// divisions); the DB export and the grad are held out (docs/fidelity.md §47).
inline constexpr std::uint32_t kPoolIndexDivisionCycles = 31;

}  // namespace ascendsim

#pragma once
// The fp32 lane numbers 0, 1, .., count−1 in UB (Ascend C's ArithProgression / CreateVecIndex),
// built by vector instructions once per block program: the block-offset table (block k holds 4k)
// reduced block by block gives 0, 4, .., 28, scaled by 1/4 to 0..7, then doubled up to `count`
// by Adds. `table` is 64 int32 of scratch (256 B); count ≥ 64.
#include <cstdint>
#include <vector>

#include "models/isa/instruction.h"

namespace ascendsim {

inline constexpr std::uint64_t kLaneNumbersScratchBytes = 64 * 4;

void emitLaneNumbers(std::vector<Instruction>& out, std::uint64_t dst, std::uint64_t count, std::uint64_t table);

}  // namespace ascendsim

#pragma once
// The arithmetic of one vector instruction on a UB byte array (hardware.md §2.6 semantics:
// repeats × up to 256 bytes, block and repeat strides in 32 B blocks, contiguous mask).
#include <cstdint>
#include <vector>

#include "models/isa/instruction.h"

namespace ascendsim {

// Executes `instr` on `ub`. Throws std::out_of_range if any access leaves `ub`.
void executeVectorInstruction(const VectorInstr& instr, std::vector<std::uint8_t>& ub);

}  // namespace ascendsim

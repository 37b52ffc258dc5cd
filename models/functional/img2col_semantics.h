#pragma once
// The effect of one Img2ColLoad (Load3D) on a core's memories, as documented in instruction.h:
// L1 slab → [m × k] im2col rows in L0A or L0B, zeros for padding and zero-stuffed positions.
#include "models/functional/core_memory.h"
#include "models/isa/instruction.h"

namespace ascendsim {

void executeImg2Col(const Img2ColLoad& load, CoreMemory& memory);

}  // namespace ascendsim

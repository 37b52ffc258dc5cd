#pragma once
// The effect of one DataMove on a core's memories (instruction.h): strided bursts, element
// conversion with optional ReLU (FixPipe), atomic accumulation into GM.
#include "models/functional/core_memory.h"
#include "models/isa/instruction.h"

namespace ascendsim {

// Throws std::runtime_error for a path the architecture lacks, a buffer the core lacks, an
// out-of-bounds or misaligned access, or an atomic write that does not target GM.
void executeDataMove(const DataMove& move, CoreMemory& memory);

}  // namespace ascendsim

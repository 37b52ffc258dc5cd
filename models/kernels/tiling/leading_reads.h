#pragma once
// What a block of a dynamic-shape TIK kernel reads from GM before its work (docs/fidelity.md §49,
// §61). CANN's TIK kernels get their tiling as a GM tensor the host wrote: every block moves its
// records GM → UB one after another, waits for each move on the scalar unit (MTE2 → S) and reads
// the words it needs out of UB with `set_as`, one scalar instruction a word, before it can size
// its next read or its work. Some also read a one-element operand tensor the same way (Fill's
// value, DropOutDoMask's keep_prob). The reads and their decoding are serial: each read's address
// or length comes from the words of the one before.
#include <cstdint>
#include <vector>

#include "models/isa/instruction.h"
#include "models/kernels/kernel_registry.h"

namespace ascendsim {

struct LeadingRead {
    std::uint64_t bytes = 0;        // moved as one burst
    std::uint32_t scalarWords = 0;  // words then read out of UB by the scalar unit (set_as)
    // Where it is read: a record of the launch's tiling, placed in the kernel's workspace (offset
    // from the first record), or a tensor of the op (gmAddr, the same for every block).
    bool inTiling = true;
    std::uint64_t gmAddr = 0;
    // Tiling records per block (the per-core part): block b reads at offset + b · bytes.
    bool perBlock = false;
};

// Prepends `reads` to every block of `kernel`: each read is an MTE2 move into UB at `ubAddr`
// waited for by the scalar unit, then `scalarWords` scalar UB loads of 8 B at the chip's
// scalar_cycles_per_instruction each. The tiling records are placed after the kernel's own
// workspace (kernel.workspaceBytes grows by them; per-block records once per block).
void prependLeadingReads(LoweredKernel& kernel, const ChipConfig& chip, std::vector<LeadingRead> reads,
                         std::uint64_t ubAddr = 0);

}  // namespace ascendsim

#pragma once
// Gather offset tables that transpose a matrix in UB, built once per block program by vector
// arithmetic (no table comes from GM): what transposing kernels without a dedicated transpose
// instruction do on the vector unit.
#include <cstdint>
#include <vector>

#include "models/isa/instruction.h"

namespace ascendsim {

// Writes `count` int32 entries at `table`: entry k = r·columns + c (r = floor(k / columns)) holds
// (c·sourcePitch + r)·elementBytes, so a Gather through it writes the [rows][columns] transpose
// of a source whose row c starts c·sourcePitch elements in. `ramp` and `scratch` are fp32
// buffers of `count` elements (clobbered). Exact while count < 2^24.
void emitTransposeOffsets(std::vector<Instruction>& code, std::uint64_t table, std::uint64_t ramp,
                          std::uint64_t scratch, std::uint64_t count, std::uint64_t columns,
                          std::uint64_t sourcePitch, std::uint64_t elementBytes);

// The same for `count` / (rows·columns) matrices packed back to back: entry k = b·rows·columns +
// r·columns + c holds (b·rows·columns + c·sourcePitch + r)·elementBytes, where sourcePitch = rows
// (each source matrix is [columns][rows], contiguous). `table`, `ramp` and `scratch` as above.
void emitPackedTransposeOffsets(std::vector<Instruction>& code, std::uint64_t table, std::uint64_t ramp,
                                std::uint64_t scratch, std::uint64_t count, std::uint64_t rows,
                                std::uint64_t columns, std::uint64_t elementBytes);

}  // namespace ascendsim

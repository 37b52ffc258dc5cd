#pragma once
// CANN's dynamic DSL reduce kernels (docs/fidelity.md "Dynamic DSL reduce binaries"). On the
// 910B class, ReduceSum (axes as an input), LpNormV2, LogSoftmaxV2 and the like are compiled
// once per dtype by the DSL's reduce schedule with every tiling case of the op in one binary
// (normal, atomic and empty cases for each block/UB split axis); a block runs its case's loop
// nest after dispatching on the tiling key. Their code is larger than a simple kernel's and
// their blocks start with more scalar work. The chip config sizes both
// (icache.dsl_reduce_code_bytes, pipes.dsl_reduce_prologue_scalar_cycles); 0 = like any kernel.
#include <cstdint>
#include <string_view>

#include "models/chip/chip_config.h"

namespace ascendsim {

// True for op types CANN implements with the dynamic DSL reduce schedule.
bool isDslReduceOpType(std::string_view opType);

struct BinaryCode {
    std::uint32_t codeBytes = 0;                  // 0 = icache.kernel_code_bytes
    std::uint32_t extraPrologueScalarCycles = 0;  // beyond pipes.block_prologue_scalar_cycles
};

// The code size of the binary a kernel reported as `opType` runs (0 = icache.kernel_code_bytes).
std::uint32_t codeBytesOf(std::string_view opType, const ICacheConfig& icache);
// Its code size and extra prologue on `chip`.
BinaryCode binaryCodeOf(std::string_view opType, const ChipConfig& chip);

}  // namespace ascendsim

#pragma once
// Where an instruction runs, so errors can name the kernel, block and program position.
#include <cstdint>
#include <string>

#include "models/isa/pipe.h"

namespace ascendsim {

struct InstructionSite {
    std::uint64_t taskId = 0;
    std::uint32_t blockIdx = 0;
    std::uint32_t subBlockIdx = 0;
    CoreKind coreKind = CoreKind::Cube;
    std::uint32_t coreId = 0;
    std::uint64_t programIndex = 0;  // position of the instruction in the block's program

    std::string describe() const;
};

}  // namespace ascendsim

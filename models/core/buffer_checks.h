#pragma once
// Capacity and alignment rules of the on-core memories (hardware.md §2.3): every on-chip operand
// range of an instruction must lie inside its buffer (ChipConfig::bufferBytes), start on the
// buffer's alignment (ChipConfig::alignmentBytes) and belong to a memory the core has.
// A violation throws std::runtime_error naming the instruction, the block and the address.
#include "models/chip/chip_config.h"
#include "models/core/instruction_site.h"
#include "models/core/ub_bank_model.h"
#include "models/isa/instruction.h"

namespace ascendsim {

class BufferChecks {
public:
    BufferChecks(const ChipConfig& chip, CoreKind kind);
    BufferChecks(const ChipConfig&& chip, CoreKind kind) = delete;  // chip_ is a reference
    void check(const Instruction& instr, const InstructionSite& site) const;
    // The vector case of check() on the instruction's ubAccessPatternOf, for a caller that needs
    // the pattern again (the core's UB bank model).
    void checkVector(const UbAccessPattern& pattern, const Instruction& instr, const InstructionSite& site) const;

private:
    void checkRange(MemSpace space, std::uint64_t address, std::uint64_t bytes, const Instruction& instr,
                    const InstructionSite& site) const;

    const ChipConfig& chip_;
    CoreKind kind_;
};

}  // namespace ascendsim

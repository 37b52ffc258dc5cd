#pragma once
// Capacity and alignment rules of the on-core memories (hardware.md §2.3): every on-chip operand
// range of an instruction must lie inside its buffer (ChipConfig::bufferBytes), start on the
// buffer's alignment (ChipConfig::alignmentBytes) and belong to a memory the core has.
// A violation throws std::runtime_error naming the instruction, the block and the address.
#include <array>
#include <cstdint>

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
    // Throws unless the range lies inside a memory this core has and starts aligned. The test of a
    // range that passes is inline (the main job checks ~13 M ranges; out of line with the chip
    // lookups it cost 0.58 G host instructions, docs/performance.md "Session 27").
    void checkRange(MemSpace space, std::uint64_t address, std::uint64_t bytes, const Instruction& instr,
                    const InstructionSite& site) const {
        if (!rangeFits(space, address, bytes)) reportRange(space, address, bytes, instr, site);
    }
    bool rangeFits(MemSpace space, std::uint64_t address, std::uint64_t bytes) const {
        const auto s = static_cast<std::size_t>(space);
        const std::uint64_t end = address + bytes;
        return space == MemSpace::GM ||
               (end <= rangeLimit_[s] && end >= address && rangeLimit_[s] != 0 && (address & alignmentMask_[s]) == 0);
    }
    // The general check: throws naming the problem, or returns if there is none.
    [[gnu::noinline]] void reportRange(MemSpace space, std::uint64_t address, std::uint64_t bytes,
                                       const Instruction& instr, const InstructionSite& site) const;

    const ChipConfig& chip_;
    CoreKind kind_;
    // Per memory: its capacity, or 0 if this core does not have it; and the bits an aligned
    // address has clear (all of them when the alignment is not a power of two: the general check
    // then decides any address but 0).
    std::array<std::uint64_t, kMemSpaceCount> rangeLimit_{};
    std::array<std::uint64_t, kMemSpaceCount> alignmentMask_{};
};

}  // namespace ascendsim

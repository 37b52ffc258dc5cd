#pragma once
// UB bank conflicts of vector instructions (hardware.md §2.6, DESIGN.md decision 4).
//
// Layout [I, consistent with the Ascend C "avoid UB bank conflicts" guide]: UB is bankGroups ×
// banksPerGroup banks of rowBytes-wide rows. Consecutive 32 B blocks are interleaved across the
// bank groups first: block b lives in group b % G, bank (b / G) % B of that group. So the
// mapping repeats every G·B blocks (1536 B on 910B).
//
// Beat model [I]: one repeat is one beat that reads the active blocks of every source operand
// and writes the active blocks of the destination. Per cycle a bank group serves one read and
// one write (in different banks). A beat therefore needs max over groups of max(reads, writes)
// cycles; the cycles beyond one are bank-group conflict stalls (rules b and c). A bank that is
// read and written in the same beat costs one more cycle (rule a, vec_bank_cflt).
#include <array>
#include <cstdint>
#include <vector>

#include "models/chip/chip_config.h"
#include "models/isa/instruction.h"

namespace ascendsim {

struct UbBankConflicts {
    std::uint64_t bankGroupStallCycles = 0;
    std::uint64_t bankStallCycles = 0;
    std::uint64_t totalStallCycles() const { return bankGroupStallCycles + bankStallCycles; }
};

// One operand's per-beat block accesses: beat r touches `blocksPerBeat` blocks at
// base + r·beatStrideBytes + i·blockStrideBytes.
struct UbOperandPattern {
    std::uint64_t baseBytes = 0;
    std::uint32_t beatStrideBytes = 0;
    std::uint32_t blockStrideBytes = 32;
    std::uint8_t blocksPerBeat = 0;
    bool isWrite = false;

    // One element per beat, packed (a reduction's destination): each beat touches
    // beatStrideBytes, less than a block, instead of whole blocks.
    bool packsElements() const {
        return blocksPerBeat == 1 && beatStrideBytes != 0 && beatStrideBytes < 32;
    }
};

// The UB operands of a vector instruction (at most 3 sources + 1 destination).
struct UbAccessPattern {
    std::array<UbOperandPattern, 4> operands{};
    std::uint8_t operandCount = 0;
    std::uint16_t beats = 0;
};

UbAccessPattern ubAccessPatternOf(const VectorInstr& instr);

class UbBankModel {
public:
    explicit UbBankModel(const UbBanking& banking);

    // Stall cycles the instruction's UB accesses cost; memoised, because kernels repeat the same
    // few address patterns many times. The memo is keyed on the addresses and strides modulo the
    // bank mapping period (the result depends on nothing else) and shared by every UbBankModel
    // of the thread with the same geometry, so the 48 AIVs running one kernel share its entries.
    UbBankConflicts conflicts(const VectorInstr& instr) { return cachedConflicts(ubAccessPatternOf(instr)); }
    UbBankConflicts cachedConflicts(const UbAccessPattern& pattern);
    UbBankConflicts conflicts(const UbAccessPattern& pattern) const;

private:
    UbBankConflicts beatConflicts(const UbAccessPattern& pattern, std::uint64_t beat) const;
    std::uint64_t residue(std::uint64_t bytes) const;

    std::uint32_t groups_;
    std::uint32_t banksPerGroup_;
    std::uint32_t rowBytes_;
    std::uint64_t mappingPeriodBytes_;
    std::uint32_t mappingPeriodRows_;
    std::uint64_t geometryKey_;             // groups, banks and row size, for the shared memo
    std::vector<std::uint16_t> bankOfRow_;  // row mod (groups × banks) → bank id (group-major)
    std::vector<std::uint8_t> groupOfRow_;  // row mod (groups × banks) → bank group

public:
    // A memo key: the residues of up to 4 operands, the shape word and the geometry word.
    using MemoKey = std::array<std::uint64_t, 6>;

private:
    // The few patterns this core used last, in front of the shared memo: a core repeats a tile's
    // handful of vector instructions, and the shared table (512 KiB) misses the host caches.
    struct RecentEntry {
        MemoKey key{};  // all zero = empty
        UbBankConflicts value;
    };
    static constexpr std::size_t kRecentEntries = 8;
    std::array<RecentEntry, kRecentEntries> recent_{};
};

}  // namespace ascendsim

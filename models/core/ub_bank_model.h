#pragma once
// UB bank conflicts of vector instructions (hardware.md §2.6, DESIGN.md decision 4).
//
// Layout [S ASCDEV best practice "避免UB的bank冲突", 220x; hardware.md §2.6]: UB is bankGroups ×
// banksPerGroup banks of bankBytes, each rowBytes wide. Consecutive 32 B blocks run across the
// bank groups first, then down the rows of one bank: block b lives in group b % G, and bank k of
// every group holds the k-th slice of G · bankBytes (64 KiB on 910B). Bank id = k · G + group, as
// the guide numbers them: 0x10000 is bank 16, 0x10020 bank 17, 0x10E20 bank 17 again (src/dst
// conflict), 0x20020 bank 33 (same group as 0x10020), banks 15, 31, 47 form one group. The
// mapping repeats every G · B · bankBytes (the whole 192 KiB UB on 910B). 310P / 910A (ini: 16 ×
// 4 × 4 KiB) are assumed to slice the same way (assumed: no 200x source gives the order).
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
    std::uint64_t geometryKey_;             // groups, banks, row and bank size, for the shared memo
    std::vector<std::uint16_t> bankOfRow_;  // row mod the period → bank id (slice · groups + group)
    std::vector<std::uint8_t> groupOfRow_;  // row mod the period → bank group

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

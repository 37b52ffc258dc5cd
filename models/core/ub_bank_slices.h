#pragma once
// Where the UB's banks lie (hardware.md §2.6 [S ASCDEV] best practice "避免UB的bank冲突", 220x):
// consecutive 32 B blocks run across the bank groups first, then down the rows of one bank, so
// bank k of every group is the k-th slice of groups × bankBytes (64 KiB on 910B: 0x10000 is bank
// 16, 0x10020 bank 17). The one place that decides the mapping: UbBankModel's bank of an address
// and the kernels that place buffers on banks (BankSlotAllocator) both read it from here.
#include <cstdint>

#include "models/chip/chip_config.h"

namespace ascendsim {

struct UbBankSlices {
    std::uint64_t sliceBytes = 0;      // bank k of every group = bytes [k·sliceBytes, (k+1)·sliceBytes)
    std::uint32_t slices = 0;          // banks per group
    std::uint64_t groupRowBytes = 0;   // one row across every group (512 B on 910B)
    std::uint64_t halfGroupBytes = 0;  // half of it: the other half of the groups starts here

    // The bank slice an address lies in (the mapping repeats every slices · sliceBytes).
    std::uint32_t sliceOf(std::uint64_t addr) const { return static_cast<std::uint32_t>(addr / sliceBytes % slices); }
};

inline UbBankSlices ubBankSlices(const UbBanking& banking) {
    UbBankSlices s;
    s.sliceBytes = std::uint64_t{banking.bankGroups} * banking.bankBytes;
    s.slices = banking.banksPerGroup;
    s.groupRowBytes = std::uint64_t{banking.bankGroups} * banking.rowBytes;
    s.halfGroupBytes = s.groupRowBytes / 2;
    return s;
}

}  // namespace ascendsim

#pragma once
// Cross-core counting semaphores of one MIX kernel (hardware.md §2.4): flag ids 0–10, count at
// most 15. Mode 2 (AIC ↔ its AIVs): an AIC set raises the flag on every AIV of its group; an AIV
// set raises it on the AIC, whose wait needs one set from each AIV of the group. Mode 1 (AIV ↔
// AIV of a group): a set raises the flag on the other AIVs. Mode 0 (all cores of a kind) is not
// modelled and is rejected.
#include <cstdint>
#include <vector>

#include "models/isa/instruction.h"
#include "models/isa/pipe.h"

namespace ascendsim {

struct CoreSlot {
    std::uint32_t group = 0;       // block index of the MIX group
    CoreKind kind = CoreKind::Cube;
    std::uint32_t subBlock = 0;    // which AIV of the group
};

class CrossCoreSemaphores {
public:
    static constexpr std::uint32_t kFlagIds = 11;
    static constexpr std::uint32_t kMaxCount = 15;

    CrossCoreSemaphores(std::uint32_t groups, std::uint32_t vectorCoresPerCube);

    void set(const CoreSlot& core, const CrossCoreFlag& flag);
    // Consumes the flag and returns true if `core` may pass; returns false (nothing consumed) if
    // it must block.
    bool tryWait(const CoreSlot& core, const CrossCoreFlag& flag);

private:
    std::uint32_t& counter(const CoreSlot& core, std::uint8_t flagId);
    void raise(const CoreSlot& core, std::uint8_t flagId);
    static void checkFlag(const CrossCoreFlag& flag);

    std::uint32_t groups_;
    std::uint32_t vectorCoresPerCube_;
    std::vector<std::uint32_t> counts_;  // [group][core in group][flag id]
};

}  // namespace ascendsim

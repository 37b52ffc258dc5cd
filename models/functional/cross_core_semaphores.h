#pragma once
// Cross-core counting semaphores of one MIX kernel (hardware.md §2.4): flag ids 0–10, count at
// most 15. Mode 2 (AIC ↔ its AIVs): an AIC set raises the flag on every AIV of its group; an AIV
// set raises it on the AIC, whose wait needs one set from each AIV of the group. Mode 1 (AIV ↔
// AIV of a group): a set raises the flag on the other AIVs. Mode 0 (all cores of one kind in the
// kernel, the building block of Ascend C SyncAll): the k-th wait of a core passes once every core
// of its kind has made k sets, as the timing model's rounds (models/core/cross_core_barrier.h).
// Modes 1 and 2 need a MIX kernel; mode 0 works in any kernel of a split chip.
#include <cstdint>
#include <map>
#include <utility>
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

    // A MIX kernel of `groups` AIC+AIV groups.
    CrossCoreSemaphores(std::uint32_t groups, std::uint32_t vectorCoresPerCube);
    // A single-kind kernel of `blocks` cores of `kind` on a chip with `coresOnChip` of them: only
    // mode 0 is allowed, and only when every block is resident at once (blocks ≤ coresOnChip).
    static CrossCoreSemaphores singleKind(std::uint32_t blocks, CoreKind kind, std::uint32_t coresOnChip);

    void set(const CoreSlot& core, const CrossCoreFlag& flag);
    // Consumes the flag and returns true if `core` may pass; returns false (nothing consumed) if
    // it must block.
    bool tryWait(const CoreSlot& core, const CrossCoreFlag& flag);

private:
    struct AllCoresFlag {
        std::vector<std::uint32_t> sets;   // by core of the kind
        std::vector<std::uint32_t> waits;  // waits passed, by core of the kind
    };

    std::uint32_t& counter(const CoreSlot& core, std::uint8_t flagId);
    void raise(const CoreSlot& core, std::uint8_t flagId);
    void checkFlag(const CrossCoreFlag& flag) const;
    std::uint32_t coresOf(CoreKind kind) const;
    std::uint32_t indexInKind(const CoreSlot& core) const;
    AllCoresFlag& allCores(const CoreSlot& core, std::uint8_t flagId);

    std::uint32_t groups_;
    std::uint32_t vectorCoresPerCube_;
    bool mix_ = true;
    CoreKind soleKind_ = CoreKind::Vector;  // single-kind kernels
    std::uint32_t coresOnChip_ = 0;         // single-kind kernels: cores of soleKind_ on the chip
    std::vector<std::uint32_t> counts_;  // [group][core in group][flag id]
    std::map<std::pair<CoreKind, std::uint8_t>, AllCoresFlag> allCores_;
};

}  // namespace ascendsim

#pragma once
// Mode 0 of the 220x cross-core flags: hardware.md §2.4 says only "Mode 0 syncs all AIC or all
// AIV cores". It does not define the protocol, so this implements the documented Ascend C
// semantics of CrossCoreSetFlag<0>/CrossCoreWaitFlag<0> (the building block of SyncAll): every
// core of one type in the kernel sets the flag, and a core's wait passes once every core of that
// type has set it. The k-th wait of a core pairs with the k-th set of each core (a round), so one
// flag id can synchronise the kernel repeatedly; a round is released at its last set.
#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "models/isa/pipe.h"

namespace ascendsim {

class AiCore;

// One device's mode-0 rounds, shared by all its cores. A round lives from its first set until
// every participant has passed its wait.
class CrossCoreBarriers {
  public:
    struct RoundKey {
        std::uint64_t taskId = 0;
        CoreKind kind = CoreKind::Vector;
        std::uint8_t flagId = 0;
        std::uint32_t round = 0;
        bool operator<(const RoundKey& other) const {
            return std::tie(taskId, kind, flagId, round) <
                   std::tie(other.taskId, other.kind, other.flagId, other.round);
        }
    };

    // `core`'s set of the round at `setPs`; once all `participants` have set, wakes the others
    // so that waiting ones re-check.
    void set(const RoundKey& key, std::uint32_t participants, std::uint64_t setPs, AiCore& core);
    // Whether the round is complete. If so, counts this core's wait as passed and sets `releasePs`
    // to the round's last set.
    bool tryPass(const RoundKey& key, std::uint64_t& releasePs);

  private:
    struct Round {
        std::uint32_t participants = 0;
        std::uint64_t lastSetPs = 0;
        std::uint32_t passed = 0;
        std::vector<AiCore*> setters;
    };
    std::map<RoundKey, Round> rounds_;
};

}  // namespace ascendsim

#include "models/core/cross_core_barrier.h"

#include <algorithm>

#include "models/core/ai_core.h"

namespace ascendsim {

void CrossCoreBarriers::set(const RoundKey& key, std::uint32_t participants, std::uint64_t setPs,
                            AiCore& core) {
    Round& round = rounds_[key];
    round.participants = participants;
    round.lastSetPs = std::max(round.lastSetPs, setPs);
    round.setters.push_back(&core);
    if (round.setters.size() < participants) return;
    for (AiCore* setter : round.setters)  // `core` itself checks its wait in the step that set
        if (setter != &core) setter->wakeForCrossCoreFlag();
}

bool CrossCoreBarriers::tryPass(const RoundKey& key, std::uint64_t& releasePs) {
    const auto it = rounds_.find(key);
    if (it == rounds_.end() || it->second.setters.size() < it->second.participants) return false;
    releasePs = it->second.lastSetPs;
    if (++it->second.passed == it->second.participants) rounds_.erase(it);
    return true;
}

}  // namespace ascendsim

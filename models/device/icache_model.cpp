#include "models/device/icache_model.h"

#include <algorithm>
#include <stdexcept>

namespace ascendsim {

ICacheModel::ICacheModel(const ICacheConfig& config) {
    if (config.fillBytes == 0 || config.bytesPerInstruction == 0 || config.sizeBytes < config.fillBytes)
        throw std::invalid_argument("icache needs fillBytes > 0, bytesPerInstruction > 0, size ≥ fill");
    entries_.resize(config.sizeBytes / config.fillBytes);
    instructionsPerLine_ = std::max<std::uint64_t>(1, config.fillBytes / config.bytesPerInstruction);
}

bool ICacheModel::lookup(std::uint64_t codeId, std::uint64_t line) {
    ++useClock_;
    Entry* victim = &entries_.front();
    for (Entry& e : entries_) {
        if (e.valid && e.codeId == codeId && e.line == line) {
            e.lastUse = useClock_;
            return false;
        }
        if (!e.valid || (victim->valid && e.lastUse < victim->lastUse)) victim = &e;
    }
    *victim = {codeId, line, useClock_, true};
    return true;
}

}  // namespace ascendsim

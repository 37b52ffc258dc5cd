#include "models/memory/l2_cache.h"

#include <stdexcept>

namespace ascendsim {

L2Cache::L2Cache(std::uint64_t sizeBytes, std::uint32_t lineBytes, std::uint32_t ways)
    : lineBytes_(lineBytes), ways_(ways), setCount_(0) {
    if (lineBytes == 0 || ways == 0 || sizeBytes == 0 ||
        sizeBytes % (std::uint64_t{lineBytes} * ways) != 0) {
        throw std::invalid_argument("L2 size must be a positive multiple of line size x ways");
    }
    setCount_ = sizeBytes / (std::uint64_t{lineBytes} * ways);
    storage_.resize(setCount_ * ways_);
}

const L2Cache::Way* L2Cache::find(std::uint64_t lineIndex) const {
    const Way* set = &storage_[(lineIndex % setCount_) * ways_];
    for (std::uint32_t w = 0; w < ways_; ++w) {
        if (set[w].tag == lineIndex + 1) return &set[w];
    }
    return nullptr;
}

L2LineOutcome L2Cache::access(std::uint64_t lineIndex, bool isWrite) {
    Way* set = &storage_[(lineIndex % setCount_) * ways_];
    ++useClock_;
    Way* victim = &set[0];
    for (std::uint32_t w = 0; w < ways_; ++w) {
        Way& way = set[w];
        if (way.tag == lineIndex + 1) {
            way.lastUse = useClock_;
            way.dirty = way.dirty || isWrite;
            return L2LineOutcome{true, false, 0};
        }
        // Invalid ways (tag 0, lastUse 0) are chosen before any valid one.
        if (way.lastUse < victim->lastUse) victim = &way;
    }
    L2LineOutcome outcome;
    if (victim->tag != 0 && victim->dirty) {
        outcome.evictedDirty = true;
        outcome.evictedLine = victim->tag - 1;
    }
    victim->tag = lineIndex + 1;
    victim->lastUse = useClock_;
    victim->dirty = isWrite;
    return outcome;
}

bool L2Cache::contains(std::uint64_t lineIndex) const { return find(lineIndex) != nullptr; }

bool L2Cache::isDirty(std::uint64_t lineIndex) const {
    const Way* way = find(lineIndex);
    return way != nullptr && way->dirty;
}

}  // namespace ascendsim

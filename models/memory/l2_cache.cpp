#include "models/memory/l2_cache.h"

#include <limits>
#include <stdexcept>

namespace ascendsim {

namespace {
constexpr std::uint32_t kMaxWays = 64;  // dirty bits of a set live in one 64-bit word
}  // namespace

L2Cache::L2Cache(std::uint64_t sizeBytes, std::uint32_t lineBytes, std::uint32_t ways)
    : lineBytes_(lineBytes), ways_(ways), setCount_(0) {
    if (lineBytes == 0 || ways == 0 || ways > kMaxWays || sizeBytes == 0 ||
        sizeBytes % (std::uint64_t{lineBytes} * ways) != 0) {
        throw std::invalid_argument(
            "L2 size must be a positive multiple of line size x ways, with 1..64 ways");
    }
    setCount_ = sizeBytes / (std::uint64_t{lineBytes} * ways);
    tags_.assign(setCount_ * ways_, 0);
    lastUse_.assign(setCount_ * ways_, 0);
    dirty_.assign(setCount_, 0);
}

std::uint32_t L2Cache::tagOf(std::uint64_t lineIndex, std::uint64_t setCount) {
    const std::uint64_t quotient = lineIndex / setCount;
    if (quotient >= std::numeric_limits<std::uint32_t>::max()) {
        throw std::out_of_range("GM address beyond the L2 model's tag range");
    }
    return static_cast<std::uint32_t>(quotient + 1);
}

std::int64_t L2Cache::findWay(std::uint64_t set, std::uint32_t tag) const {
    const std::uint32_t* tags = &tags_[set * ways_];
    for (std::uint32_t w = 0; w < ways_; ++w) {
        if (tags[w] == tag) return w;
    }
    return -1;
}

L2LineOutcome L2Cache::access(std::uint64_t lineIndex, bool isWrite) {
    const std::uint64_t set = lineIndex % setCount_;
    const std::uint32_t tag = tagOf(lineIndex, setCount_);
    const std::uint64_t base = set * ways_;
    ++useClock_;
    const std::int64_t hitWay = findWay(set, tag);
    if (hitWay >= 0) {
        lastUse_[base + hitWay] = useClock_;
        if (isWrite) dirty_[set] |= std::uint64_t{1} << hitWay;
        return L2LineOutcome{true, false, 0};
    }
    // Victim: the least recently used way; never-used ways (stamp 0) come first.
    std::uint32_t victim = 0;
    for (std::uint32_t w = 1; w < ways_; ++w) {
        if (lastUse_[base + w] < lastUse_[base + victim]) victim = w;
    }
    L2LineOutcome outcome;
    const std::uint64_t victimBit = std::uint64_t{1} << victim;
    if (tags_[base + victim] != 0 && (dirty_[set] & victimBit) != 0) {
        outcome.evictedDirty = true;
        outcome.evictedLine = (std::uint64_t{tags_[base + victim]} - 1) * setCount_ + set;
    }
    tags_[base + victim] = tag;
    lastUse_[base + victim] = useClock_;
    dirty_[set] = isWrite ? (dirty_[set] | victimBit) : (dirty_[set] & ~victimBit);
    return outcome;
}

bool L2Cache::contains(std::uint64_t lineIndex) const {
    return findWay(lineIndex % setCount_, tagOf(lineIndex, setCount_)) >= 0;
}

bool L2Cache::isDirty(std::uint64_t lineIndex) const {
    const std::uint64_t set = lineIndex % setCount_;
    const std::int64_t way = findWay(set, tagOf(lineIndex, setCount_));
    return way >= 0 && (dirty_[set] >> way & 1) != 0;
}

}  // namespace ascendsim

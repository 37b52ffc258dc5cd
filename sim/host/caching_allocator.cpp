#include "sim/host/caching_allocator.h"

#include <stdexcept>
#include <string>

namespace ascendsim {

namespace {
std::uint64_t roundUp(std::uint64_t value, std::uint64_t multiple) {
    return (value + multiple - 1) / multiple * multiple;
}
}  // namespace

CachingAllocator::CachingAllocator(std::uint64_t baseAddress) : nextSegmentAddress_(baseAddress) {}

std::uint64_t CachingAllocator::roundSize(std::uint64_t requestedBytes) {
    const std::uint64_t padded = requestedBytes + kBlockPadBytes;
    return padded < kMinBlockSize ? kMinBlockSize : roundUp(padded, kMinBlockSize);
}

std::uint64_t CachingAllocator::segmentSize(std::uint64_t roundedBytes) {
    if (roundedBytes <= kSmallSize) return kSmallBuffer;
    if (roundedBytes < kMinLargeAlloc) return kLargeBuffer;
    return roundUp(roundedBytes, kRoundLarge);
}

CachingAllocator::Block CachingAllocator::allocate(std::uint64_t requestedBytes,
                                                   std::uint32_t streamId) {
    const std::uint64_t size = roundSize(requestedBytes);
    const bool small = size <= kSmallSize;
    auto& pool = poolOf(small);
    auto it = pool.lower_bound({streamId, size, 0});
    std::uint64_t ptr = 0;
    if (it != pool.end() && std::get<0>(*it) == streamId) {
        ptr = std::get<2>(*it);
        pool.erase(it);
    } else {
        const std::uint64_t segment = segmentSize(size);
        ptr = nextSegmentAddress_;
        nextSegmentAddress_ += roundUp(segment, kRoundLarge);
        blocks_[ptr] = BlockState{segment, ptr, streamId, small, false, false};
        totals_.reserved += static_cast<std::int64_t>(segment);
        ++segmentCount_;
    }
    BlockState& block = blocks_.at(ptr);
    const std::uint64_t remaining = block.size - size;
    // Split rule of the PTA allocator: the small pool splits any remainder of at least one
    // minimum block, the large pool only remainders above the small-size limit.
    const bool split = small ? remaining >= kMinBlockSize : remaining > kSmallSize;
    if (split) {
        blocks_[ptr + size] = BlockState{remaining, block.segment, streamId, small, false, false};
        poolOf(small).insert({streamId, remaining, ptr + size});
        block.size = size;
    }
    block.allocated = true;
    totals_.allocated += static_cast<std::int64_t>(block.size);
    totals_.active += static_cast<std::int64_t>(block.size);
    return {ptr, block.size};
}

std::uint64_t CachingAllocator::free(std::uint64_t ptr, bool awaitOtherStream) {
    auto it = blocks_.find(ptr);
    if (it == blocks_.end() || !it->second.allocated) {
        throw std::logic_error("caching allocator: free of unallocated block " + std::to_string(ptr));
    }
    BlockState& block = it->second;
    block.allocated = false;
    totals_.allocated -= static_cast<std::int64_t>(block.size);
    const std::uint64_t size = block.size;
    if (awaitOtherStream) {
        block.awaiting = true;
    } else {
        totals_.active -= static_cast<std::int64_t>(size);
        returnToPool(ptr);
    }
    return size;
}

std::uint64_t CachingAllocator::releaseAwaiting(std::uint64_t ptr) {
    auto it = blocks_.find(ptr);
    if (it == blocks_.end() || !it->second.awaiting) {
        throw std::logic_error("caching allocator: block not awaiting a stream " + std::to_string(ptr));
    }
    it->second.awaiting = false;
    const std::uint64_t size = it->second.size;
    totals_.active -= static_cast<std::int64_t>(size);
    returnToPool(ptr);
    return size;
}

void CachingAllocator::returnToPool(std::uint64_t ptr) {
    auto it = blocks_.find(ptr);
    auto mergeable = [&](std::map<std::uint64_t, BlockState>::iterator other) {
        return !other->second.allocated && !other->second.awaiting &&
               other->second.segment == it->second.segment;
    };
    // Merge with the following free block of the same segment.
    auto next = std::next(it);
    if (next != blocks_.end() && next->first == ptr + it->second.size && mergeable(next)) {
        poolOf(next->second.small).erase({next->second.stream, next->second.size, next->first});
        it->second.size += next->second.size;
        blocks_.erase(next);
    }
    // Merge into the preceding free block of the same segment.
    if (it != blocks_.begin()) {
        auto prev = std::prev(it);
        if (prev->first + prev->second.size == ptr && mergeable(prev)) {
            poolOf(prev->second.small).erase({prev->second.stream, prev->second.size, prev->first});
            prev->second.size += it->second.size;
            blocks_.erase(it);
            it = prev;
        }
    }
    poolOf(it->second.small).insert({it->second.stream, it->second.size, it->first});
}

}  // namespace ascendsim

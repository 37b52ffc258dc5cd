#include "models/memory/l2_cache.h"

#include <bit>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <cstring>
#include <limits>
#include <stdexcept>

namespace ascendsim {

namespace {
constexpr std::uint32_t kMaxWays = 64;  // dirty bits of a set live in one 64-bit word
constexpr std::uint32_t kCommonWays = 16;  // every shipped chip config (configs/*.yaml)
constexpr std::uint32_t kPackedWays = 16;  // recency packed in one 64-bit word of 4-bit ways
// Sets ahead of the current one whose tags accessRange() asks the host CPU to fetch: the tag
// rows of a 192 MiB L2 do not fit the host's per-core cache, and a transfer walks them in order.
constexpr std::uint64_t kPrefetchSets = 8;
constexpr std::size_t kHostCacheLineBytes = 64;
}  // namespace

L2Cache::L2Cache(std::uint64_t sizeBytes, std::uint32_t lineBytes, std::uint32_t ways)
    : lineBytes_(lineBytes), ways_(ways), setCount_(0) {
    if (lineBytes == 0 || ways == 0 || ways > kMaxWays || sizeBytes == 0 ||
        sizeBytes % (std::uint64_t{lineBytes} * ways) != 0) {
        throw std::invalid_argument(
            "L2 size must be a positive multiple of line size x ways, with 1..64 ways");
    }
    setCount_ = sizeBytes / (std::uint64_t{lineBytes} * ways);
    constexpr std::size_t kHostLineTags = kHostCacheLineBytes / sizeof(std::uint32_t);
    tagStorage_.assign(setCount_ * ways_ + kHostLineTags, 0);
    const auto misalignment = reinterpret_cast<std::uintptr_t>(tagStorage_.data()) % kHostCacheLineBytes;
    tagOffset_ = misalignment == 0 ? 0 : (kHostCacheLineBytes - misalignment) / sizeof(std::uint32_t);
    sets_.assign(setCount_, SetState{});
    if (ways_ <= kPackedWays) {
        std::uint64_t initialOrder = 0;  // ways in way order: never-used ways fill lowest first
        for (std::uint32_t w = 0; w < ways_; ++w) initialOrder |= std::uint64_t{w} << (4 * w);
        for (SetState& state : sets_) state.packedRecency = initialOrder;
    } else {
        recency_.resize(setCount_ * ways_);
        for (std::uint64_t i = 0; i < recency_.size(); ++i) recency_[i] = static_cast<std::uint8_t>(i % ways_);
    }
}

std::uint32_t L2Cache::tagOf(std::uint64_t lineIndex, std::uint64_t setCount) {
    const std::uint64_t quotient = lineIndex / setCount;
    if (quotient >= std::numeric_limits<std::uint32_t>::max()) {
        throw std::out_of_range("GM address beyond the L2 model's tag range");
    }
    return static_cast<std::uint32_t>(quotient + 1);
}

std::int64_t L2Cache::findWay(std::uint64_t set, std::uint32_t tag) const {
    const std::uint32_t* tags = tagRow(set);
    for (std::uint32_t w = 0; w < ways_; ++w) {
        if (tags[w] == tag) return w;
    }
    return -1;
}

// Recency order of a set of at most 16 ways packed as 4-bit way numbers, position 0 (bits 0-3)
// least recently used; positions at or above the way count hold 0.
namespace {
constexpr std::uint64_t kNibbleOnes = 0x1111111111111111ull;
constexpr std::uint64_t kNibbleHighs = 0x8888888888888888ull;

std::uint64_t touchWay(std::uint64_t order, std::uint32_t way, std::uint32_t ways) {
    const std::uint32_t mruShift = 4 * (ways - 1);
    if (((order >> mruShift) & 0xF) == way) return order;
    // The lowest nibble equal to `way` (SWAR zero-nibble test; exact for the lowest match, which
    // lies below the unused positions that may also read as way 0).
    const std::uint64_t x = order ^ (way * kNibbleOnes);
    const std::uint64_t zeroNibbles = (x - kNibbleOnes) & ~x & kNibbleHighs;
    const auto shift = static_cast<std::uint32_t>(std::countr_zero(zeroNibbles)) & ~3u;
    const std::uint64_t below = shift == 0 ? 0 : order & ((std::uint64_t{1} << shift) - 1);
    const std::uint64_t above = shift + 4 >= 64 ? 0 : order >> (shift + 4);
    return below | (above << shift) | (std::uint64_t{way} << mruShift);
}


// The ways of a 16-way row equal to `tag`, one bit per way.
std::uint32_t matchingWays16(const std::uint32_t* tags, std::uint32_t tag) {
#if defined(__SSE2__)
    // Four 4-way compares packed into one 16-bit mask (x86-64 baseline instructions).
    const __m128i key = _mm_set1_epi32(static_cast<int>(tag));
    const auto* rows = reinterpret_cast<const __m128i*>(tags);
    const __m128i low = _mm_packs_epi32(_mm_cmpeq_epi32(_mm_loadu_si128(rows), key),
                                        _mm_cmpeq_epi32(_mm_loadu_si128(rows + 1), key));
    const __m128i high = _mm_packs_epi32(_mm_cmpeq_epi32(_mm_loadu_si128(rows + 2), key),
                                         _mm_cmpeq_epi32(_mm_loadu_si128(rows + 3), key));
    return static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_packs_epi16(low, high)));
#else
    std::uint32_t matches = 0;
    for (std::uint32_t w = 0; w < kCommonWays; ++w) matches |= std::uint32_t{tags[w] == tag} << w;
    return matches;
#endif
}

// One lookup in a set of at most 16 ways with a packed recency order (see L2Cache::SetState).
// Compares every way without an early exit: the loop unrolls and does not mispredict on the hit
// position. On a miss with a dirty victim sets `evictedTag` to the victim's tag.
template <typename SetState>
inline bool accessPackedSet(std::uint32_t* tags, SetState& state, std::uint32_t matches, std::uint32_t ways,
                            std::uint32_t tag, bool isWrite, std::uint32_t& evictedTag) {
    if (matches != 0) {
        const auto w = static_cast<std::uint32_t>(std::countr_zero(matches));
        state.packedRecency = touchWay(state.packedRecency, w, ways);
        if (isWrite) state.dirty |= std::uint64_t{1} << w;
        return true;
    }
    const auto victim = static_cast<std::uint32_t>(state.packedRecency & 0xF);
    state.packedRecency = (state.packedRecency >> 4) | (std::uint64_t{victim} << (4 * (ways - 1)));
    const std::uint64_t victimBit = std::uint64_t{1} << victim;
    if (tags[victim] != 0 && (state.dirty & victimBit) != 0) evictedTag = tags[victim];
    tags[victim] = tag;
    state.dirty = isWrite ? (state.dirty | victimBit) : (state.dirty & ~victimBit);
    return false;
}

}  // namespace

bool L2Cache::accessSet(std::uint64_t set, std::uint32_t tag, bool isWrite, std::uint32_t& evictedTag) {
    std::uint32_t* tags = tagRow(set);
    SetState& state = sets_[set];
    std::uint64_t matches = 0;
    if (ways_ == kCommonWays) {
        matches = matchingWays16(tags, tag);
    } else {
        for (std::uint32_t w = 0; w < ways_; ++w) matches |= std::uint64_t{tags[w] == tag} << w;
    }
    if (ways_ <= kPackedWays)
        return accessPackedSet(tags, state, static_cast<std::uint32_t>(matches), ways_, tag, isWrite, evictedTag);
    std::uint8_t* order = &recency_[set * ways_];
    const std::uint32_t last = ways_ - 1;
    if (matches != 0) {
        const auto w = static_cast<std::uint32_t>(std::countr_zero(matches));
        // Hit: move way w to the most recently used position.
        if (order[last] != w) {
            std::uint32_t pos = 0;
            while (order[pos] != w) ++pos;
            std::memmove(order + pos, order + pos + 1, last - pos);
            order[last] = static_cast<std::uint8_t>(w);
        }
        if (isWrite) state.dirty |= std::uint64_t{1} << w;
        return true;
    }
    // Miss: the least recently used way is the victim and becomes the most recently used.
    const std::uint32_t victim = order[0];
    std::memmove(order, order + 1, last);
    order[last] = static_cast<std::uint8_t>(victim);
    const std::uint64_t victimBit = std::uint64_t{1} << victim;
    if (tags[victim] != 0 && (state.dirty & victimBit) != 0) evictedTag = tags[victim];
    tags[victim] = tag;
    state.dirty = isWrite ? (state.dirty | victimBit) : (state.dirty & ~victimBit);
    return false;
}

L2LineOutcome L2Cache::access(std::uint64_t lineIndex, bool isWrite) {
    const std::uint64_t set = lineIndex % setCount_;
    std::uint32_t evictedTag = 0;
    L2LineOutcome outcome;
    outcome.hit = accessSet(set, tagOf(lineIndex, setCount_), isWrite, evictedTag);
    if (evictedTag != 0) {
        outcome.evictedDirty = true;
        outcome.evictedLine = (std::uint64_t{evictedTag} - 1) * setCount_ + set;
    }
    return outcome;
}

L2RangeOutcome L2Cache::accessRange(std::uint64_t firstLine, std::uint64_t lineCount, bool isWrite) {
    L2RangeOutcome outcome;
    accessRange(firstLine, lineCount, isWrite, outcome);
    return outcome;
}

void L2Cache::accessRange(std::uint64_t firstLine, std::uint64_t lineCount, bool isWrite,
                          L2RangeOutcome& outcome) {
    if (lineCount == 0) return;
    tagOf(firstLine + lineCount - 1, setCount_);  // range check once: tags only grow along the range
    std::uint64_t set = firstLine % setCount_;
    std::uint32_t tag = static_cast<std::uint32_t>(firstLine / setCount_ + 1);
    if (ways_ == kCommonWays) {
        accessRange16(set, tag, static_cast<std::uint32_t>(firstLine & 1), lineCount, isWrite, outcome);
        return;
    }
    std::uint32_t parity = static_cast<std::uint32_t>(firstLine & 1);
    for (std::uint64_t i = 0; i < lineCount; ++i) {
        if (i + kPrefetchSets < lineCount) {
            std::uint64_t ahead = set + kPrefetchSets;
            while (ahead >= setCount_) ahead -= setCount_;
            __builtin_prefetch(tagRow(ahead));
            __builtin_prefetch(ways_ <= kPackedWays ? static_cast<const void*>(&sets_[ahead])
                                                    : static_cast<const void*>(&recency_[ahead * ways_]));
        }
        std::uint32_t evictedTag = 0;
        if (accessSet(set, tag, isWrite, evictedTag)) ++outcome.hits[parity];
        else ++outcome.misses[parity];
        if (evictedTag != 0) ++outcome.dirtyEvictions;
        parity ^= 1;
        if (++set == setCount_) {
            set = 0;
            ++tag;
        }
    }
}

// Walks the rows by pointer and keeps the counts in locals, so the loop holds its state in
// registers (the outcome and the members could alias the rows for the compiler).
void L2Cache::accessRange16(std::uint64_t set, std::uint32_t tag, std::uint32_t parity, std::uint64_t lineCount,
                            bool isWrite, L2RangeOutcome& outcome) {
    std::uint32_t* const firstRow = tagRow(0);
    SetState* const firstState = sets_.data();
    const std::uint64_t setCount = setCount_;
    std::uint64_t ahead = set + kPrefetchSets;
    while (ahead >= setCount) ahead -= setCount;
    std::uint64_t hits = 0;
    std::uint64_t oddHits = 0;
    std::uint64_t dirtyEvictions = 0;
    std::uint64_t odd = parity;
    for (std::uint64_t i = 0; i < lineCount; ++i) {
        if (i + kPrefetchSets < lineCount) {
            __builtin_prefetch(firstRow + ahead * kCommonWays);
            __builtin_prefetch(firstState + ahead);
        }
        if (++ahead == setCount) ahead = 0;
        std::uint32_t* tags = firstRow + set * kCommonWays;
        std::uint32_t evictedTag = 0;
        const bool hit =
            accessPackedSet(tags, firstState[set], matchingWays16(tags, tag), kCommonWays, tag, isWrite, evictedTag);
        hits += hit;
        oddHits += hit & odd;
        dirtyEvictions += evictedTag != 0;
        odd ^= 1;
        if (++set == setCount) {
            set = 0;
            ++tag;
        }
    }
    const std::uint64_t oddLines = parity == 1 ? (lineCount + 1) / 2 : lineCount / 2;  // odd line indices
    outcome.hits[1] += oddHits;
    outcome.hits[0] += hits - oddHits;
    outcome.misses[1] += oddLines - oddHits;
    outcome.misses[0] += (lineCount - oddLines) - (hits - oddHits);
    outcome.dirtyEvictions += dirtyEvictions;
}

bool L2Cache::contains(std::uint64_t lineIndex) const {
    return findWay(lineIndex % setCount_, tagOf(lineIndex, setCount_)) >= 0;
}

bool L2Cache::isDirty(std::uint64_t lineIndex) const {
    const std::uint64_t set = lineIndex % setCount_;
    const std::int64_t way = findWay(set, tagOf(lineIndex, setCount_));
    return way >= 0 && (sets_[set].dirty >> way & 1) != 0;
}

}  // namespace ascendsim

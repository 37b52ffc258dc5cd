#include "models/memory/l2_cache.h"

#include <algorithm>
#include <bit>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <cstring>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "models/memory/line_read_queue.h"

namespace ascendsim {

namespace {
// The walks that take no line turns (writes, and reads while the line read queue is off).
struct NoLineTurns {
    void take(std::uint64_t) {}
};

constexpr std::uint32_t kMaxWays = 64;  // dirty bits of a set live in one 64-bit word
constexpr std::uint32_t kCommonWays = 16;  // every shipped chip config (configs/*.yaml)
constexpr std::uint32_t kPackedWays = 16;  // a set of up to this many ways fits one host cache line
// A packed set's per-way last uses (PackedSet::lastUse): positions at or above the way count hold
// kNoWayUse, above every use; a clock at kLastClock renumbers the uses before the next one.
constexpr std::uint8_t kNoWayUse = 0xFF;
constexpr std::uint8_t kLastClock = 0xFE;
constexpr std::uint32_t kPartialTagMax = 0xFFFF;  // tags up to this equal their partial tag
// Tags below this fit a 16-bit most-recently-used key (tag × 2 + dirty bit): lines below
// 32767 × set count, 412 GB of GM addresses for the 910B L2.
constexpr std::uint32_t kMruKeyTagLimit = 1u << 15;

std::uint16_t mruKeyOf(std::uint32_t tag, bool dirty) {
    return tag < kMruKeyTagLimit ? static_cast<std::uint16_t>(tag << 1 | std::uint32_t{dirty}) : 0;
}

// What a set's key must equal, after the mask below, for the key to answer a lookup of `tag`:
// the line is the set's most recently used one and the access changes nothing there (a read of
// it, or a write to it while it is dirty). Tags of 15 bits or more give values no key can equal.
std::uint64_t keyAnswering(std::uint32_t tag, bool isWrite) {
    return std::uint64_t{tag} << 1 | std::uint64_t{isWrite};
}
// A read ignores the key's dirty bit.
std::uint64_t keyMaskFor(bool isWrite) {
    return isWrite ? 0xFFFF : 0xFFFE;
}

std::uint64_t oddLinesOf(std::uint64_t firstLine, std::uint64_t lineCount) {
    return (lineCount + (firstLine & 1)) / 2;
}
}  // namespace

L2Cache::L2Cache(std::uint64_t sizeBytes, std::uint32_t lineBytes, std::uint32_t ways)
    : lineBytes_(lineBytes), lineShift_(0), ways_(ways), setCount_(0), lineIndexLimit_(0) {
    if (!std::has_single_bit(lineBytes) || ways == 0 || ways > kMaxWays || sizeBytes == 0 ||
        sizeBytes % (std::uint64_t{lineBytes} * ways) != 0) {
        throw std::invalid_argument(
            "L2 size must be a positive multiple of line size x ways, with 1..64 ways and a "
            "power-of-two line size");
    }
    lineShift_ = static_cast<std::uint32_t>(std::countr_zero(lineBytes));
    setCount_ = sizeBytes / (std::uint64_t{lineBytes} * ways);
    const std::uint64_t tagValues =
        std::numeric_limits<std::uint32_t>::max();  // quotients 0 .. max - 1
    lineIndexLimit_ = setCount_ > std::numeric_limits<std::uint64_t>::max() / tagValues
                          ? std::numeric_limits<std::uint64_t>::max()
                          : setCount_ * tagValues;
    mruKeys_.assign(setCount_, 0);
    if (ways_ <= kPackedWays) {
        PackedSet initial;
        for (std::uint32_t w = 0; w < kPackedWays; ++w)
            initial.lastUse[w] = static_cast<std::uint8_t>(w < ways_ ? w : kNoWayUse);
        initial.clock = static_cast<std::uint8_t>(ways_ - 1);
        packedSets_.assign(setCount_, initial);  // never-used ways fill lowest first
    } else {
        tags_.assign(setCount_ * ways_, 0);
        wideDirty_.assign(setCount_, 0);
        wideRecency_.resize(setCount_ * ways_);
        for (std::uint64_t i = 0; i < wideRecency_.size(); ++i)
            wideRecency_[i] = static_cast<std::uint8_t>(i % ways_);
    }
}

L2Cache::LinePlace L2Cache::placeOf(std::uint64_t lineIndex) const {
    if (lineIndex >= lineIndexLimit_)
        throw std::out_of_range("GM address beyond the L2 model's tag range");
    return {lineIndex % setCount_, static_cast<std::uint32_t>(lineIndex / setCount_ + 1)};
}

std::uint32_t L2Cache::tagIn(std::uint64_t set, std::uint32_t way) const {
    return ways_ > kPackedWays || wideTagsSeen_ ? tagRow(set)[way]
                                                : packedSets_[set].partialTags[way];
}

std::int64_t L2Cache::findWay(LinePlace place) const {
    for (std::uint32_t w = 0; w < ways_; ++w) {
        if (tagIn(place.set, w) == place.tag) return w;
    }
    return -1;
}

void L2Cache::keepFullTags() {
    tags_.resize(setCount_ * ways_);
    for (std::uint64_t set = 0; set < setCount_; ++set) {
        for (std::uint32_t w = 0; w < ways_; ++w) tagRow(set)[w] = packedSets_[set].partialTags[w];
    }
    wideTagsSeen_ = true;
}

// Recency of a set of at most 16 ways as one byte per way, the set's clock when the way was last
// used: distinct, so the least recently used way is the one with the smallest (ways never used
// start at 0, 1, ... in way order and so fill lowest first).
namespace {

// The ways whose last use is below `use`, one bit per way.
std::uint32_t waysUsedBefore(const std::uint8_t* lastUse, std::uint8_t use) {
#if defined(__SSE2__)
    const __m128i uses = _mm_load_si128(reinterpret_cast<const __m128i*>(lastUse));
    const __m128i bound = _mm_set1_epi8(static_cast<char>(use));
    const auto atMost = static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(uses, bound), uses)));
    const auto equal = static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(uses, bound)));
    return atMost & ~equal;
#else
    std::uint32_t before = 0;
    for (std::uint32_t w = 0; w < kPackedWays; ++w) before |= std::uint32_t{lastUse[w] < use} << w;
    return before;
#endif
}

// The least recently used way.
std::uint32_t leastRecentlyUsedWay(const std::uint8_t* lastUse) {
#if defined(__SSE2__)
    const __m128i uses = _mm_load_si128(reinterpret_cast<const __m128i*>(lastUse));
    __m128i least = _mm_min_epu8(uses, _mm_srli_si128(uses, 8));
    least = _mm_min_epu8(least, _mm_srli_si128(least, 4));
    least = _mm_min_epu8(least, _mm_srli_si128(least, 2));
    least = _mm_min_epu8(least, _mm_srli_si128(least, 1));
    const auto use = static_cast<std::uint8_t>(_mm_cvtsi128_si32(least));
    const auto ways = static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(uses, _mm_set1_epi8(static_cast<char>(use)))));
    return static_cast<std::uint32_t>(std::countr_zero(ways));
#else
    std::uint32_t least = 0;
    for (std::uint32_t w = 1; w < kPackedWays; ++w)
        if (lastUse[w] < lastUse[least]) least = w;
    return least;
#endif
}
// The ways of a 16-way packed set whose partial tag equals `partialTag`, one bit per way.
std::uint32_t matchingWays16(const std::uint16_t* partialTags, std::uint16_t partialTag) {
#if defined(__SSE2__)
    // Two 8-way compares packed into one 16-bit mask (x86-64 baseline instructions).
    const __m128i key = _mm_set1_epi16(static_cast<short>(partialTag));
    const auto* halves = reinterpret_cast<const __m128i*>(partialTags);
    const __m128i low = _mm_cmpeq_epi16(_mm_load_si128(halves), key);
    const __m128i high = _mm_cmpeq_epi16(_mm_load_si128(halves + 1), key);
    return static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_packs_epi16(low, high)));
#else
    std::uint32_t matches = 0;
    for (std::uint32_t w = 0; w < kCommonWays; ++w)
        matches |= std::uint32_t{partialTags[w] == partialTag} << w;
    return matches;
#endif
}

}  // namespace

// Makes `way` the set's most recently used: the next clock value, after renumbering the uses
// 0 .. ways - 1 in the same order once the clock has reached kLastClock (every ~240 uses of a set).
[[gnu::always_inline]] inline void L2Cache::touchWay(PackedSet& set, std::uint32_t way, std::uint32_t ways) {
    // (ways <= kPackedWays and way < ways; the masks only tell the compiler.)
    if (set.clock == kLastClock) {
        const std::uint32_t used = std::min(ways, kPackedWays);
        std::uint8_t ranks[kPackedWays];
        for (std::uint32_t w = 0; w < used; ++w)
            ranks[w] = static_cast<std::uint8_t>(std::popcount(waysUsedBefore(set.lastUse, set.lastUse[w])));
        for (std::uint32_t w = 0; w < used; ++w) set.lastUse[w] = ranks[w];
        set.clock = static_cast<std::uint8_t>(used - 1);
    }
    set.lastUse[way & (kPackedWays - 1)] = ++set.clock;
}

std::uint32_t L2Cache::confirmedWays(LinePlace place, std::uint32_t partialMatches) const {
    const std::uint32_t* tags = tagRow(place.set);
    std::uint32_t confirmed = 0;
    for (std::uint32_t rest = partialMatches; rest != 0; rest &= rest - 1) {
        const auto w = static_cast<std::uint32_t>(std::countr_zero(rest));
        if (tags[w] == place.tag) confirmed |= std::uint32_t{1} << w;
    }
    return confirmed;
}

// Inlined into the walk: out of line, a miss-heavy (streaming) walk pays a call and spills per
// line (+10 % host instructions in device_throughput_bench).
template <bool kSixteenWays>
[[gnu::always_inline]] inline bool L2Cache::accessSet(LinePlace place, bool isWrite,
                                                      std::uint32_t& evictedTag, std::uint64_t& dirtied,
                                                      std::uint64_t& emptyFills) {
    if (!kSixteenWays && ways_ > kPackedWays) return accessWideSet(place, isWrite, evictedTag, dirtied, emptyFills);
    const std::uint32_t ways = kSixteenWays ? kCommonWays : ways_;
    PackedSet& set = packedSets_[place.set];
    const auto partialTag = static_cast<std::uint16_t>(place.tag);
    std::uint32_t matches = 0;
    if constexpr (kSixteenWays) {
        matches = matchingWays16(set.partialTags, partialTag);
    } else {
        for (std::uint32_t w = 0; w < ways; ++w)
            matches |= std::uint32_t{set.partialTags[w] == partialTag} << w;
    }
    // While every tag fits 16 bits a partial match is a match (and never-used ways, partial tag
    // 0, match no tag, which is at least 1); a wider tag cannot be in a set until one was filled.
    if (matches != 0 && (wideTagsSeen_ || place.tag > kPartialTagMax))
        matches = wideTagsSeen_ ? confirmedWays(place, matches) : 0;
    const bool hit = matches != 0;
    std::uint32_t way = 0;  // the way that now holds the line, most recently used
    if (hit) {
        way = static_cast<std::uint32_t>(std::countr_zero(matches));
        touchWay(set, way, ways);
        if (isWrite) {
            dirtied += (set.dirty >> way & 1u) ^ 1u;
            set.dirty = static_cast<std::uint16_t>(set.dirty | 1u << way);
        }
    } else {
        // Miss: the least recently used way is the victim and becomes the most recently used.
        way = leastRecentlyUsedWay(set.lastUse);
        touchWay(set, way, ways);
        const std::uint32_t wayBit = 1u << way;
        // Only filled ways are dirty; a way never used has tag 0 (every line's tag is at least 1).
        if ((set.dirty & wayBit) != 0) evictedTag = tagIn(place.set, way);
        else emptyFills += set.partialTags[way] == 0 && (!wideTagsSeen_ || tagRow(place.set)[way] == 0);
        if (place.tag > kPartialTagMax && !wideTagsSeen_) keepFullTags();
        if (wideTagsSeen_) tagRow(place.set)[way] = place.tag;
        set.partialTags[way] = partialTag;
        set.dirty =
            static_cast<std::uint16_t>(isWrite ? (set.dirty | wayBit) : (set.dirty & ~wayBit));
        dirtied += isWrite;
    }
    mruKeys_[place.set] = mruKeyOf(place.tag, (set.dirty >> way & 1) != 0);
    return hit;
}

bool L2Cache::accessWideSet(LinePlace place, bool isWrite, std::uint32_t& evictedTag, std::uint64_t& dirtied,
                            std::uint64_t& emptyFills) {
    std::uint32_t* tags = tagRow(place.set);
    std::uint64_t& dirty = wideDirty_[place.set];
    std::uint8_t* order = &wideRecency_[place.set * ways_];
    const std::uint32_t last = ways_ - 1;
    std::uint32_t way = 0;
    while (way < ways_ && tags[way] != place.tag) ++way;
    const bool hit = way < ways_;
    if (hit) {
        // Hit: move the way to the most recently used position.
        if (order[last] != way) {
            std::uint32_t pos = 0;
            while (order[pos] != way) ++pos;
            std::memmove(order + pos, order + pos + 1, last - pos);
            order[last] = static_cast<std::uint8_t>(way);
        }
        if (isWrite) {
            dirtied += ((dirty >> way) & 1u) ^ 1u;
            dirty |= std::uint64_t{1} << way;
        }
    } else {
        // Miss: the least recently used way is the victim and becomes the most recently used.
        way = order[0];
        std::memmove(order, order + 1, last);
        order[last] = static_cast<std::uint8_t>(way);
        const std::uint64_t wayBit = std::uint64_t{1} << way;
        if ((dirty & wayBit) != 0) evictedTag = tags[way];  // only filled ways are dirty
        else emptyFills += tags[way] == 0;                  // a way never used
        tags[way] = place.tag;
        dirty = isWrite ? (dirty | wayBit) : (dirty & ~wayBit);
        dirtied += isWrite;
    }
    mruKeys_[place.set] = mruKeyOf(place.tag, (dirty >> way & 1) != 0);
    return hit;
}

template <bool kSixteenWays>
inline bool L2Cache::accessLine(LinePlace place, bool isWrite, std::uint32_t& evictedTag,
                                std::uint64_t& dirtied, std::uint64_t& emptyFills) {
    if ((mruKeys_[place.set] & keyMaskFor(isWrite)) == keyAnswering(place.tag, isWrite))
        return true;
    return accessSet<kSixteenWays>(place, isWrite, evictedTag, dirtied, emptyFills);
}

// A walk's lookup of line `line` (at `place`) that its set's most recently used key does not
// answer: the set path, its miss and dirty victim added to the walk's counts. Shared by the range
// and the listed-line walks, inlined into both.
template <bool kSixteenWays>
[[gnu::always_inline]] inline void L2Cache::lookUpInSet(LinePlace place, std::uint64_t line, bool isWrite,
                                                        WalkCounts& counts, std::vector<std::uint64_t>* dirtyVictims) {
    std::uint32_t evictedTag = 0;
    if (!accessSet<kSixteenWays>(place, isWrite, evictedTag, counts.dirtied, counts.emptyFills)) {
        ++counts.misses;
        counts.oddMisses += line & 1;
    }
    if (evictedTag != 0) {
        ++counts.dirtyEvictions;
        if (dirtyVictims != nullptr) dirtyVictims->push_back((std::uint64_t{evictedTag} - 1) * setCount_ + place.set);
    }
}

// The fast path (the key answers: a hit that changes nothing) only compares and steps; the
// counts go straight to the caller's local WalkCounts (no per-walk copies: a strided move walks
// once per burst). Inlined into its callers: most walks are of 1 to 4 lines
// (a ResNet-50 step: 28.5 M walks of 87 M lines), where a call's spills and the counts' stores
// cost as much as the lines.
template <bool kSixteenWays, class LineVisitor>
[[gnu::always_inline]] inline void L2Cache::walkLines(LinePlace& place, std::uint64_t firstLine,
                                                      std::uint64_t lineCount, bool isWrite, WalkCounts& counts,
                                                      std::vector<std::uint64_t>* dirtyVictims, LineVisitor& turns) {
    const std::uint16_t* const keys = mruKeys_.data();
    const std::uint64_t keyMask = keyMaskFor(isWrite);
    std::uint64_t answering = keyAnswering(place.tag, isWrite);
    for (std::uint64_t i = 0; i < lineCount; ++i) {
        turns.take(firstLine + i);
        if ((keys[place.set] & keyMask) != answering)
            lookUpInSet<kSixteenWays>(place, firstLine + i, isWrite, counts, dirtyVictims);
        if (++place.set == setCount_) {
            place.set = 0;
            answering = keyAnswering(++place.tag, isWrite);
        }
    }
    counts.lines += lineCount;
    counts.oddLines += oddLinesOf(firstLine, lineCount);
}

// The walk of a burst-by-burst move's lines, gathered first (accessBurstsOf): `place` is at line
// `placeLine` and moves to each listed line in turn (ascending), with no division unless it
// passes the last set. Walking a list rather than burst by burst keeps the bursts' stepping
// (start, stride, burst count, line shift) out of the loop that holds the set path's registers,
// which otherwise spilled and reloaded them at every burst (docs/performance.md "Session 33").
template <bool kSixteenWays, class LineVisitor>
[[gnu::always_inline]] inline void L2Cache::walkLineList(LinePlace& place, std::uint64_t& placeLine,
                                                         const std::uint64_t* lines, std::size_t lineCount,
                                                         bool isWrite, WalkCounts& counts,
                                                         std::vector<std::uint64_t>* dirtyVictims, LineVisitor& turns) {
    const std::uint16_t* const keys = mruKeys_.data();
    const std::uint64_t keyMask = keyMaskFor(isWrite);
    std::uint64_t answering = keyAnswering(place.tag, isWrite);
    std::uint64_t at = placeLine;
    for (std::size_t i = 0; i < lineCount; ++i) {
        const std::uint64_t line = lines[i];
        place.set += line - at;
        at = line;
        if (place.set >= setCount_) {
            place.tag += static_cast<std::uint32_t>(place.set / setCount_);
            place.set %= setCount_;
            answering = keyAnswering(place.tag, isWrite);
        }
        turns.take(line);
        if ((keys[place.set] & keyMask) != answering) lookUpInSet<kSixteenWays>(place, line, isWrite, counts, dirtyVictims);
    }
    placeLine = at;
}

void L2Cache::WalkCounts::addTo(L2RangeOutcome& outcome) const {
    outcome.hits[1] += oddLines - oddMisses;
    outcome.hits[0] += (lines - oddLines) - (misses - oddMisses);
    outcome.misses[1] += oddMisses;
    outcome.misses[0] += misses - oddMisses;
    outcome.dirtyEvictions += dirtyEvictions;
    outcome.linesDirtied += dirtied;
    outcome.emptyWaysFilled += emptyFills;
}

// A move whose gaps are shorter than a line touches every line from its first to its last byte
// (a gap cannot hold a whole line): one walk, as cheap as a gap-free move. Otherwise each burst's
// lines lie past the previous burst's (the gap holds at least one line), so the walk steps from
// burst to burst without a division.
template <bool kSixteenWays, class LineVisitor>
void L2Cache::accessBurstsOf(const L2Bursts& bursts, bool isWriteAccess, L2RangeOutcome& outcome, LineVisitor& turns) {
    // A walk that takes line turns is a read's (readBursts): compiled with the read's key mask.
    const bool isWrite = std::is_same_v<LineVisitor, NoLineTurns> && isWriteAccess;
    // The turns in a local, stored back at the end: through the reference, the stores to the
    // queue's slots could alias them, and the walk loaded and stored them at every line.
    LineVisitor walkTurns = turns;
    // The transfer's fields in locals too: the walk's stores (the queue's slots, the sets) could
    // alias the references, and the burst-by-burst walk reloaded them at every burst.
    const std::uint64_t address = bursts.address;
    const std::uint64_t burstBytes = bursts.bytes;
    const std::uint32_t burstCount = bursts.count;
    const std::uint64_t stride = bursts.strideBytes;
    const std::uint32_t lineShift = lineShift_;
    std::vector<std::uint64_t>* const dirtyVictims = outcome.dirtyVictims;
    const std::uint64_t firstLine = address >> lineShift;
    const std::uint64_t span = burstCount <= 1 ? burstBytes : (burstCount - 1) * stride + burstBytes;
    const std::uint64_t lastLine = (address + span - 1) >> lineShift;
    placeOf(lastLine);  // range check once: tags only grow along the walk
    LinePlace place = placeOf(firstLine);
    WalkCounts counts;
    if (burstCount <= 1 || stride < burstBytes + lineBytes_) {
        walkLines<kSixteenWays>(place, firstLine, lastLine - firstLine + 1, isWrite, counts, dirtyVictims, walkTurns);
    } else {
        // The bursts' lines, gathered kLineBatch at a time, then walked as a list (walkLineList).
        constexpr std::size_t kLineBatch = 64;
        std::uint64_t batch[kLineBatch];
        std::uint64_t placeLine = firstLine;  // the line `place` is at
        std::uint64_t start = address;
        std::uint64_t line = firstLine;  // the next line to gather, of burst `burst`
        std::uint64_t burstLast = (start + burstBytes - 1) >> lineShift;
        std::uint64_t oddLines = 0;
        std::uint32_t burst = 0;
        while (burst < burstCount) {
            std::size_t gathered = 0;
            while (gathered < kLineBatch) {
                oddLines += line & 1;
                batch[gathered++] = line;
                if (line++ == burstLast) {
                    if (++burst == burstCount) break;
                    start += stride;
                    line = start >> lineShift;
                    burstLast = (start + burstBytes - 1) >> lineShift;
                }
            }
            counts.lines += gathered;
            walkLineList<kSixteenWays>(place, placeLine, batch, gathered, isWrite, counts, dirtyVictims, walkTurns);
        }
        counts.oddLines += oddLines;
    }
    counts.addTo(outcome);
    turns = walkTurns;
}

void L2Cache::accessBursts(const L2Bursts& bursts, bool isWrite, L2RangeOutcome& outcome) {
    if (bursts.bytes == 0) return;
    NoLineTurns noTurns;
    if (ways_ == kCommonWays)
        accessBurstsOf<true>(bursts, isWrite, outcome, noTurns);
    else
        accessBurstsOf<false>(bursts, isWrite, outcome, noTurns);
}

void L2Cache::readBursts(const L2Bursts& bursts, L2RangeOutcome& outcome, LineTurns& turns) {
    if (bursts.bytes == 0) return;
    if (ways_ == kCommonWays)
        accessBurstsOf<true>(bursts, false, outcome, turns);
    else
        accessBurstsOf<false>(bursts, false, outcome, turns);
}

L2LineOutcome L2Cache::access(std::uint64_t lineIndex, bool isWrite) {
    const LinePlace place = placeOf(lineIndex);
    std::uint32_t evictedTag = 0;
    std::uint64_t dirtied = 0;
    std::uint64_t emptyFills = 0;
    L2LineOutcome outcome;
    outcome.hit = ways_ == kCommonWays ? accessLine<true>(place, isWrite, evictedTag, dirtied, emptyFills)
                                       : accessLine<false>(place, isWrite, evictedTag, dirtied, emptyFills);
    if (evictedTag != 0) {
        outcome.evictedDirty = true;
        outcome.evictedLine = (std::uint64_t{evictedTag} - 1) * setCount_ + place.set;
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
    placeOf(firstLine + lineCount - 1);  // range check once
    LinePlace place = placeOf(firstLine);
    WalkCounts counts;
    NoLineTurns noTurns;
    if (ways_ == kCommonWays)
        walkLines<true>(place, firstLine, lineCount, isWrite, counts, outcome.dirtyVictims, noTurns);
    else
        walkLines<false>(place, firstLine, lineCount, isWrite, counts, outcome.dirtyVictims, noTurns);
    counts.addTo(outcome);
}

bool L2Cache::contains(std::uint64_t lineIndex) const {
    return findWay(placeOf(lineIndex)) >= 0;
}

bool L2Cache::isDirty(std::uint64_t lineIndex) const {
    const LinePlace place = placeOf(lineIndex);
    const std::int64_t way = findWay(place);
    if (way < 0) return false;
    const std::uint64_t dirty =
        ways_ <= kPackedWays ? packedSets_[place.set].dirty : wideDirty_[place.set];
    return (dirty >> way & 1) != 0;
}

}  // namespace ascendsim

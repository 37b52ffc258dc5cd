#pragma once
// The shared L2 as a set-associative, write-back, write-allocate cache with true LRU replacement
// (hardware.md §2.8: size and 512 B line from the SoC tables; ways and policy are not published,
// so they come from the chip config as assumptions). Tags only: data lives in the functional
// model. Lines map to sets by line index modulo the set count (192 MiB / 512 B / 16 ways = 24576
// sets is not a power of two).
//
// Speed (docs/performance.md): the simulator looks up tens of millions of lines per ResNet-50
// step, most of them re-reads of the line its set used last. So each set's most recently used
// line is also kept in a small side array (2 B per set, 48 KiB for 192 MiB: it stays in the host
// core's cache) that answers those lookups without touching the set; a set of up to 16 ways
// (16-bit partial tags, 8-bit last-use clocks, dirty bits) fills one host cache line, so
// any other lookup touches one line; and a transfer's lines are walked with one division per
// transfer, stepping set and tag incrementally.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ascendsim {

class LineTurns;  // line_read_queue.h

struct L2LineOutcome {
    bool hit = false;
    bool evictedDirty = false;       // a dirty victim must be written back to HBM
    std::uint64_t evictedLine = 0;   // line index of that victim, when evictedDirty
};

// What accessRange() saw, per line parity (index 0 = even line index, 1 = odd).
struct L2RangeOutcome {
    std::uint64_t hits[2] = {0, 0};
    std::uint64_t misses[2] = {0, 0};
    std::uint64_t dirtyEvictions = 0;
    std::uint64_t linesDirtied = 0;  // written lines that were not dirty before (misses included)
    std::uint64_t emptyWaysFilled = 0;  // misses that took a way no line had used yet (no victim)
    // When set, the walk appends the line index of every dirty victim it evicts (the partial
    // lines a write-back must complete first, partial_lines.h); null keeps the walk to counts.
    std::vector<std::uint64_t>* dirtyVictims = nullptr;
    std::uint64_t totalMisses() const { return misses[0] + misses[1]; }
};

// One transfer's GM bytes as the L2 sees them: `count` bursts of `bytes` each, burst i starting
// at address + i × strideBytes.
struct L2Bursts {
    std::uint64_t address = 0;
    std::uint64_t bytes = 0;        // per burst, > 0
    std::uint32_t count = 1;        // >= 1
    std::uint64_t strideBytes = 0;  // start to start; ignored when count is 1
};

class L2Cache {
public:
    // Throws std::invalid_argument unless lineBytes is a power of two, sizeBytes is a positive
    // multiple of lineBytes × ways and 1 <= ways <= 64.
    L2Cache(std::uint64_t sizeBytes, std::uint32_t lineBytes, std::uint32_t ways);

    // Looks up one line (index = address / lineBytes), allocating it on a miss (reads and writes
    // alike) and marking it most recently used; a write makes the line dirty.
    L2LineOutcome access(std::uint64_t lineIndex, bool isWrite);
    // The same as access() on lines firstLine, firstLine + 1, ... firstLine + lineCount - 1 in
    // that order.
    L2RangeOutcome accessRange(std::uint64_t firstLine, std::uint64_t lineCount, bool isWrite);
    // accessRange() adding its counts to `outcome`.
    void accessRange(std::uint64_t firstLine, std::uint64_t lineCount, bool isWrite,
                     L2RangeOutcome& outcome);
    // access() on every line the bursts touch, each once, in ascending order (the gaps between
    // bursts are not accessed; a line two bursts share is looked up once), adding to `outcome`.
    void accessBursts(const L2Bursts& bursts, bool isWrite, L2RangeOutcome& outcome);
    // accessBursts() of a read that also takes the read's turn on each line it looks up, in the
    // same step (the line read queue, line_read_queue.h, queues the same lines in the same order:
    // stepping them once for both saved 0.60 G host instructions of the main job,
    // docs/performance.md "Session 27").
    void readBursts(const L2Bursts& bursts, L2RangeOutcome& outcome, LineTurns& turns);

    bool contains(std::uint64_t lineIndex) const;
    bool isDirty(std::uint64_t lineIndex) const;

    std::uint32_t lineBytes() const { return lineBytes_; }
    std::uint32_t ways() const { return ways_; }
    std::uint64_t setCount() const { return setCount_; }

private:
    // A line's place: its set and its tag (line index / set count + 1; 0 = invalid way).
    struct LinePlace {
        std::uint64_t set;
        std::uint32_t tag;
    };
    // Lines, odd lines, misses, odd-line misses, dirty evictions and lines a write dirtied of a
    // walk, kept in locals of the walking function (the rows could alias an outcome passed by
    // reference).
    struct WalkCounts {
        std::uint64_t lines = 0, oddLines = 0, misses = 0, oddMisses = 0, dirtyEvictions = 0, dirtied = 0, emptyFills = 0;
        void addTo(L2RangeOutcome& outcome) const;
    };

    // Throws std::out_of_range if the line's tag does not fit 32 bits.
    LinePlace placeOf(std::uint64_t lineIndex) const;
    // Looks up one line; returns whether it hit. On a miss with a dirty victim sets `evictedTag`
    // to the victim's tag (else leaves it 0); a write that makes a line dirty adds 1 to `dirtied`;
    // a miss into a way never used adds 1 to `emptyFills`.
    // kSixteenWays: the common geometry, compiled apart.
    template <bool kSixteenWays>
    bool accessLine(LinePlace place, bool isWrite, std::uint32_t& evictedTag, std::uint64_t& dirtied,
                    std::uint64_t& emptyFills);
    // The lookup of a line that is not its set's most recently used one (or a write to a clean
    // one), in a set of at most 16 ways; accessWideSet() for more ways.
    template <bool kSixteenWays>
    bool accessSet(LinePlace place, bool isWrite, std::uint32_t& evictedTag, std::uint64_t& dirtied,
                    std::uint64_t& emptyFills);
    bool accessWideSet(LinePlace place, bool isWrite, std::uint32_t& evictedTag, std::uint64_t& dirtied,
                    std::uint64_t& emptyFills);
    // The ways whose partial tag matches, less those whose full tag does not (see packedSets_).
    std::uint32_t confirmedWays(LinePlace place, std::uint32_t partialMatches) const;
    // A walk's lookup of a line its set's most recently used key does not answer, counted.
    template <bool kSixteenWays>
    void lookUpInSet(LinePlace place, std::uint64_t line, bool isWrite, WalkCounts& counts,
                     std::vector<std::uint64_t>* dirtyVictims);
    // Looks up lineCount lines from `place` (line index firstLine) on and leaves `place` at the
    // line after them, calling `turns.take(line)` on each line first (a read's line turns, or a
    // visitor that does nothing).
    // `dirtyVictims`: null, or where the dirty victims' line indices go.
    template <bool kSixteenWays, class LineVisitor>
    void walkLines(LinePlace& place, std::uint64_t firstLine, std::uint64_t lineCount, bool isWrite,
                   WalkCounts& counts, std::vector<std::uint64_t>* dirtyVictims, LineVisitor& turns);
    // Looks up `lineCount` listed lines (ascending, the first at or after `placeLine`), moving
    // `place` (at line `placeLine`) to each; leaves both at the last listed line.
    template <bool kSixteenWays, class LineVisitor>
    void walkLineList(LinePlace& place, std::uint64_t& placeLine, const std::uint64_t* lines,
                      std::size_t lineCount, bool isWrite, WalkCounts& counts,
                      std::vector<std::uint64_t>* dirtyVictims, LineVisitor& turns);
    template <bool kSixteenWays, class LineVisitor>
    void accessBurstsOf(const L2Bursts& bursts, bool isWrite, L2RangeOutcome& outcome, LineVisitor& turns);
    std::int64_t findWay(LinePlace place) const;
    // The full tag of a way.
    std::uint32_t tagIn(std::uint64_t set, std::uint32_t way) const;
    // From the first fill of a tag above 16 bits on, packed sets keep full tags in tags_ too.
    void keepFullTags();
    std::uint32_t* tagRow(std::uint64_t set) { return tags_.data() + set * ways_; }
    const std::uint32_t* tagRow(std::uint64_t set) const { return tags_.data() + set * ways_; }

    std::uint32_t lineBytes_;
    std::uint32_t lineShift_;  // log2(lineBytes_)
    std::uint32_t ways_;
    std::uint64_t setCount_;
    std::uint64_t lineIndexLimit_;  // first line index whose tag does not fit 32 bits
    // Per set, the key of its most recently used line: tag × 2 + that line's dirty bit, or 0 when
    // the set has none or its tag needs more than 15 bits (such lookups take the full path).
    std::vector<std::uint16_t> mruKeys_;
    // Full tags by [set * ways + way]: sets of more than 16 ways always; sets of at most 16 ways
    // only once a tag of more than 16 bits was filled (wideTagsSeen_; until then a partial tag is
    // the full tag), to confirm partial-tag matches and name dirty victims.
    std::vector<std::uint32_t> tags_;
    // A set of at most 16 ways in one host cache line, so that a lookup touches one line: the low
    // 16 bits of each way's tag (equal to the tag while no tag exceeds 16 bits), the recency as
    // each way's last use on a per-set 8-bit clock (the least recently used way has the smallest;
    // ways never used start at 0, 1, ... in way order, as a stamp-based LRU with ties to the
    // lowest way would fill them; l2_cache.cpp renumbers the uses before the clock wraps) and one
    // dirty bit per way. A hit only stores the clock (a recency order of 4-bit way numbers, kept
    // until session 26, cost ~30 host instructions a hit to reorder).
    struct alignas(64) PackedSet {
        std::uint16_t partialTags[16] = {};
        alignas(16) std::uint8_t lastUse[16] = {};
        std::uint8_t clock = 0;
        std::uint16_t dirty = 0;
    };
    static_assert(sizeof(PackedSet) == 64);
    // Makes `way` the most recently used of the set's `ways` ways.
    static void touchWay(PackedSet& set, std::uint32_t way, std::uint32_t ways);
    std::vector<PackedSet> packedSets_;
    bool wideTagsSeen_ = false;
    // More than 16 ways: per set a dirty bit per way and the recency order as bytes
    // ([set * ways + position], least recently used first).
    std::vector<std::uint64_t> wideDirty_;
    std::vector<std::uint8_t> wideRecency_;
};

}  // namespace ascendsim

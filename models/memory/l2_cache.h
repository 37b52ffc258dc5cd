#pragma once
// The shared L2 as a set-associative, write-back, write-allocate cache with true LRU replacement
// (hardware.md §2.8: size and 512 B line from the SoC tables; ways and policy are not published,
// so they come from the chip config as assumptions). Tags only: data lives in the functional
// model. Lines map to sets by line index modulo the set count (192 MiB / 512 B / 16 ways = 24576
// sets is not a power of two).
//
// Speed (docs/performance.md): the simulator looks up tens of millions of lines per ResNet-50
// step, so a set is a compact row of tags plus a recency order of way numbers (no 64-bit LRU
// stamps), and accessRange() walks a transfer's consecutive lines with one division per
// transfer instead of two per line.
#include <cstdint>
#include <vector>

namespace ascendsim {

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
    std::uint64_t totalMisses() const { return misses[0] + misses[1]; }
};

class L2Cache {
public:
    // Throws std::invalid_argument unless sizeBytes is a positive multiple of lineBytes × ways
    // and 1 <= ways <= 64.
    L2Cache(std::uint64_t sizeBytes, std::uint32_t lineBytes, std::uint32_t ways);

    // Looks up one line (index = address / lineBytes), allocating it on a miss (reads and writes
    // alike) and marking it most recently used; a write makes the line dirty.
    L2LineOutcome access(std::uint64_t lineIndex, bool isWrite);
    // The same as access() on lines firstLine, firstLine + 1, ... firstLine + lineCount - 1 in
    // that order.
    L2RangeOutcome accessRange(std::uint64_t firstLine, std::uint64_t lineCount, bool isWrite);
    // accessRange() adding its counts to `outcome` (one transfer's bursts, range by range).
    void accessRange(std::uint64_t firstLine, std::uint64_t lineCount, bool isWrite,
                     L2RangeOutcome& outcome);

    bool contains(std::uint64_t lineIndex) const;
    bool isDirty(std::uint64_t lineIndex) const;

    std::uint32_t lineBytes() const { return lineBytes_; }
    std::uint32_t ways() const { return ways_; }
    std::uint64_t setCount() const { return setCount_; }

private:
    // A tag is line index / set count + 1 (0 = invalid way). Returns whether the line hit; on a
    // miss with a dirty victim sets `evictedTag` to the victim's tag (else leaves it 0).
    bool accessSet(std::uint64_t set, std::uint32_t tag, bool isWrite, std::uint32_t& evictedTag);
    // accessRange() for the common 16-way geometry, with the set update inlined in the loop.
    void accessRange16(std::uint64_t set, std::uint32_t tag, std::uint32_t parity, std::uint64_t lineCount,
                       bool isWrite, L2RangeOutcome& outcome);
    std::int64_t findWay(std::uint64_t set, std::uint32_t tag) const;
    static std::uint32_t tagOf(std::uint64_t lineIndex, std::uint64_t setCount);
    std::uint32_t* tagRow(std::uint64_t set) { return tagStorage_.data() + tagOffset_ + set * ways_; }
    const std::uint32_t* tagRow(std::uint64_t set) const { return tagStorage_.data() + tagOffset_ + set * ways_; }

    std::uint32_t lineBytes_;
    std::uint32_t ways_;
    std::uint64_t setCount_;
    // Tags by [set * ways + way] from tagRow(0): the storage is over-allocated so that a 16-way
    // row (64 B) starts on a host cache line and one lookup touches one line, not two.
    std::vector<std::uint32_t> tagStorage_;
    std::size_t tagOffset_ = 0;
    // Per set, side by side so a lookup touches one more line: the recency order for up to 16
    // ways (the set's way numbers from least, bits 0-3, to most recently used, 4 bits each; ways
    // never used come first in way order, as a stamp-based LRU with ties to the lowest way
    // would) and one dirty bit per way.
    struct SetState {
        std::uint64_t packedRecency = 0;
        std::uint64_t dirty = 0;
    };
    std::vector<SetState> sets_;
    std::vector<std::uint8_t> recency_;  // more than 16 ways: [set * ways + position]
};

}  // namespace ascendsim

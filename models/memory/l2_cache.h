#pragma once
// The shared L2 as a set-associative, write-back, write-allocate cache with true LRU replacement
// (hardware.md §2.8: size and 512 B line from the SoC tables; ways and policy are not published,
// so they come from the chip config as assumptions). Tags only: data lives in the functional
// model. Lines map to sets by line index modulo the set count (192 MiB / 512 B / 16 ways = 24576
// sets is not a power of two).
#include <cstdint>
#include <vector>

namespace ascendsim {

struct L2LineOutcome {
    bool hit = false;
    bool evictedDirty = false;       // a dirty victim must be written back to HBM
    std::uint64_t evictedLine = 0;   // line index of that victim, when evictedDirty
};

class L2Cache {
public:
    // Throws std::invalid_argument unless sizeBytes is a positive multiple of lineBytes × ways
    // and 1 <= ways <= 64.
    L2Cache(std::uint64_t sizeBytes, std::uint32_t lineBytes, std::uint32_t ways);

    // Looks up one line (index = address / lineBytes), allocating it on a miss (reads and writes
    // alike) and marking it most recently used; a write makes the line dirty.
    L2LineOutcome access(std::uint64_t lineIndex, bool isWrite);

    bool contains(std::uint64_t lineIndex) const;
    bool isDirty(std::uint64_t lineIndex) const;

    std::uint32_t lineBytes() const { return lineBytes_; }
    std::uint32_t ways() const { return ways_; }
    std::uint64_t setCount() const { return setCount_; }

private:
    // Structure of arrays, so a lookup reads one 64-byte line of tags for a 16-way set. A tag is
    // line index / set count + 1 (0 = invalid way).
    std::int64_t findWay(std::uint64_t set, std::uint32_t tag) const;
    static std::uint32_t tagOf(std::uint64_t lineIndex, std::uint64_t setCount);

    std::uint32_t lineBytes_;
    std::uint32_t ways_;
    std::uint64_t setCount_;
    std::uint64_t useClock_ = 0;
    std::vector<std::uint32_t> tags_;     // [set * ways + way]
    std::vector<std::uint64_t> lastUse_;  // LRU stamps, same index; 0 = never used
    std::vector<std::uint64_t> dirty_;    // one bit per way, per set
};

}  // namespace ascendsim

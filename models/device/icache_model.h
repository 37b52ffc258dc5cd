#pragma once
// A core's instruction cache (hardware.md §2.1, §3.6 item 4): fully associative, LRU, filled in
// fillBytes units. An instruction's address is its program position × bytesPerInstruction in
// the address space of its kernel's code (one code image per kernel and core kind), so blocks of
// the same kernel on a core hit what earlier blocks fetched, and another kernel's code misses.
#include <cstdint>
#include <vector>

#include "models/chip/chip_config.h"

namespace ascendsim {

class ICacheModel {
public:
    explicit ICacheModel(const ICacheConfig& config);

    // Fetches the instruction at `programIndex` of code image `codeId`. Returns true on a miss.
    // Consecutive fetches from one fill unit cost one lookup.
    bool fetch(std::uint64_t codeId, std::uint64_t programIndex) {
        const std::uint64_t line = programIndex / instructionsPerLine_;
        if (line == lastLine_ && codeId == lastCode_) return false;
        lastLine_ = line;
        lastCode_ = codeId;
        return lookup(codeId, line);
    }

private:
    bool lookup(std::uint64_t codeId, std::uint64_t line);

    struct Entry {
        std::uint64_t codeId = 0;
        std::uint64_t line = 0;
        std::uint64_t lastUse = 0;
        bool valid = false;
    };
    std::vector<Entry> entries_;
    std::uint64_t instructionsPerLine_;
    std::uint64_t useClock_ = 0;
    std::uint64_t lastLine_ = ~std::uint64_t{0};
    std::uint64_t lastCode_ = ~std::uint64_t{0};
};

}  // namespace ascendsim

#pragma once
// A core's instruction cache (hardware.md §2.1, §3.6 item 4): fully associative, LRU, filled in
// fillBytes units. Each kernel binary has one code image per core kind (codeId). With
// kernelCodeBytes set, a block first runs through its kernel's code (fetchImage: prologue,
// tiling parse, one pass of the loop bodies) and every later instruction lies in that code, so a
// kernel whose code is still cached from an earlier launch runs warm, and one whose code other
// kernels evicted pays a fill per line (docs/fidelity.md "Cold instruction fetch"). Without it an
// instruction's address is its program position × bytesPerInstruction. A binary may run
// through more code than kernelCodeBytes (fetchImage's codeBytes: the DSL reduce schedule's
// binaries, models/kernels/reduction/dsl_reduce_dispatch.h); its later instructions then lie in
// its own image.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "models/chip/chip_config.h"

namespace ascendsim {

// Cycles a missed fill stalls a block's issue while `blocksFetching` blocks of its kernel fetch at
// once: their fills queue for one port (missPenaltyCycles a turn each), and a block fetching alone
// still waits out the fill's latency (fillLatencyCycles, docs/fidelity.md §57).
inline std::uint64_t icacheFillStallCycles(const ICacheConfig& config, std::uint64_t blocksFetching) {
    return std::max<std::uint64_t>(config.fillLatencyCycles, blocksFetching * config.missPenaltyCycles);
}

// Cycles more a block waits for a missed code image that L2 does not hold: its first fill misses
// L2 and waits for HBM (hbm.read_latency_cycles) where an L2 hit (l2.hit_latency_cycles) would
// have served it; the image's later lines follow it in, as they do from L2. Real one-block
// launches of one binary, ICache-cold both times, the first of the profile against a later one
// right after another launch of it: Qwen3 Greater +389, Slice +341, OnesLike +13 / +199, AlexNet
// OnesLike +340, Mul +231, Add +272 cycles (docs/fidelity.md §93).
inline std::uint64_t codeFillFromHbmCycles(const ChipConfig& chip) {
    return chip.hbm.readLatencyCycles > chip.l2.hitLatencyCycles ? chip.hbm.readLatencyCycles - chip.l2.hitLatencyCycles
                                                                  : 0;
}

class ICacheModel {
public:
    explicit ICacheModel(const ICacheConfig& config);

    // Fetches the instruction at `programIndex` of code image `codeId`. Returns true on a miss.
    // Consecutive fetches from one fill unit cost one lookup.
    bool fetch(std::uint64_t codeId, std::uint64_t programIndex) {
        std::uint64_t line = programIndex / instructionsPerLine_;
        if (imageLines_ > 0) line %= imageLines_;
        if (line == lastLine_ && codeId == lastCode_) return false;
        lastLine_ = line;
        lastCode_ = codeId;
        return lookup(codeId, line);
    }

    // Runs through the whole code image at block start; returns how many of its lines missed.
    // The image is codeBytes long (0 = kernelCodeBytes); 0 lines (and 0 misses) without
    // kernelCodeBytes, whatever codeBytes says.
    std::uint32_t fetchImage(std::uint64_t codeId, std::uint32_t codeBytes = 0);
    // Lines the last fetchImage looked up: its image's bytes / fillBytes, rounded up.
    std::uint32_t imageLines() const { return static_cast<std::uint32_t>(imageLines_); }

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
    std::uint64_t codeLines_;
    std::uint64_t fillBytes_;
    std::uint64_t imageLines_ = 0;  // of the image the last fetchImage ran through
    std::uint64_t useClock_ = 0;
    std::uint64_t lastLine_ = ~std::uint64_t{0};
    std::uint64_t lastCode_ = ~std::uint64_t{0};
};

}  // namespace ascendsim

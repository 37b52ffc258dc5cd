#pragma once
// A core's intra-core flags (set_flag / wait_flag, hardware.md §2.4), one slot per (source pipe,
// destination pipe, event id). A hardware flag is binary, but because the issue unit runs ahead
// a scalar-pipe set can be processed before the wait that, in simulated time, consumed the
// previous set; pending sets are therefore kept in order, at most kMaxPending of them (a balanced
// program never has more than one in flight).
//
// Speed (docs/performance.md): the oldest pending set lives in a 16-byte hot entry, so the
// flags a kernel uses share a few host cache lines; later pending sets go to a separate table
// that is touched only when a flag is set twice before its wait. reset() clears only the slots
// set since the last reset, not the whole table.
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

namespace ascendsim {

template <std::size_t Slots>
class FlagTable {
public:
    static constexpr std::size_t kMaxPending = 4;

    bool isSet(std::size_t slot) const { return hot_[slot].count > 0; }
    bool full(std::size_t slot) const { return hot_[slot].count == kMaxPending; }
    // Cycle of the oldest pending set; only while isSet(slot).
    std::uint64_t oldestSetCycle(std::size_t slot) const { return hot_[slot].oldestCycle; }

    // Adds a set at `cycle` behind the pending ones; the caller checks full() first.
    void set(std::size_t slot, std::uint64_t cycle) {
        Hot& hot = hot_[slot];
        touched_[slot / 64] |= std::uint64_t{1} << (slot % 64);
        if (hot.count == 0) {
            hot.oldestCycle = cycle;
        } else {
            Later& later = later_[slot];
            later.cycles[(later.head + hot.count - 1) % kLater] = cycle;
        }
        ++hot.count;
    }
    // Removes the oldest pending set; only while isSet(slot).
    void consume(std::size_t slot) {
        Hot& hot = hot_[slot];
        if (hot.count > 1) {
            Later& later = later_[slot];
            hot.oldestCycle = later.cycles[later.head];
            later.head = static_cast<std::uint8_t>((later.head + 1) % kLater);
        }
        --hot.count;
    }
    // Every slot back to "no set pending".
    void reset() {
        for (std::size_t word = 0; word < touched_.size(); ++word) {
            for (std::uint64_t bits = touched_[word]; bits != 0; bits &= bits - 1) {
                const std::size_t slot = word * 64 + static_cast<std::size_t>(std::countr_zero(bits));
                hot_[slot] = Hot{};
                later_[slot] = Later{};
            }
            touched_[word] = 0;
        }
    }

private:
    static constexpr std::size_t kLater = kMaxPending - 1;
    struct Hot {
        std::uint64_t oldestCycle = 0;
        std::uint8_t count = 0;
    };
    struct Later {  // pending sets after the oldest, as a ring
        std::array<std::uint64_t, kLater> cycles{};
        std::uint8_t head = 0;
    };
    std::array<Hot, Slots> hot_{};
    std::array<std::uint64_t, (Slots + 63) / 64> touched_{};
    std::array<Later, Slots> later_{};
};

}  // namespace ascendsim

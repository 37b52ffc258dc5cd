#pragma once
// Cross-core counting semaphores of 220x (hardware.md §2.4): flag ids 0..10, at most 15 pending
// sets. A core keeps one semaphore per flag id and per sender slot of its MIX group (slot 0 =
// the AIC, 1 + j = AIV j), each holding the picosecond times of its pending sets in order.
#include <array>
#include <cstdint>
#include <stdexcept>

namespace ascendsim {

inline constexpr std::size_t kCrossCoreFlagIds = 16;    // ids 0..10 are architectural
inline constexpr std::size_t kCrossCoreMaxPending = 15;  // counter saturates at 15
inline constexpr std::size_t kMaxGroupSlots = 5;         // AIC + up to 4 AIVs per group

class CrossCoreSemaphore {
public:
    void post(std::uint64_t setPs) {
        if (count_ == kCrossCoreMaxPending)
            throw std::runtime_error("cross-core flag set more than 15 times without a wait");
        setPs_[(head_ + count_) % setPs_.size()] = setPs;
        ++count_;
    }
    bool available() const { return count_ > 0; }
    std::uint64_t frontPs() const { return setPs_[head_]; }
    void consume() {
        head_ = (head_ + 1) % setPs_.size();
        --count_;
    }
    void clear() { head_ = count_ = 0; }

private:
    std::array<std::uint64_t, kCrossCoreMaxPending> setPs_{};
    std::size_t head_ = 0;
    std::size_t count_ = 0;
};

using CrossCoreSemaphores = std::array<std::array<CrossCoreSemaphore, kMaxGroupSlots>, kCrossCoreFlagIds>;

}  // namespace ascendsim

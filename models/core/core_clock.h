#pragma once
// Exact conversion between a core's integer cycle count and simulated picoseconds. Cycle c of a
// clock of f kHz starts at psOfCycle(c) = ceil(c · 1e9 / f) ps; cycleAtOrAfter(ps) is the first
// cycle whose start is at or after ps, so cycleAtOrAfter(psOfCycle(c)) == c for every c (a
// wake-up scheduled for cycle c lands on c).
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace ascendsim {

class CoreClock {
public:
    explicit CoreClock(double freqMhz) : freqKhz_(static_cast<std::uint64_t>(std::llround(freqMhz * 1000.0))) {
        if (freqKhz_ == 0) throw std::invalid_argument("core clock frequency must be positive");
        maxNarrowCycle_ = (std::numeric_limits<std::uint64_t>::max() - freqKhz_) / kPsPerSecondPerKhz;
        maxNarrowPs_ = std::numeric_limits<std::uint64_t>::max() / freqKhz_;
    }

    // Both conversions use 64-bit arithmetic when the product fits (any run shorter than months
    // of simulated time), which gives the same result as the 128-bit form without its library call.
    std::uint64_t psOfCycle(std::uint64_t cycle) const {
        if (cycle <= maxNarrowCycle_) return (cycle * kPsPerSecondPerKhz + freqKhz_ - 1) / freqKhz_;
        const Wide numerator = static_cast<Wide>(cycle) * kPsPerSecondPerKhz;
        return static_cast<std::uint64_t>((numerator + freqKhz_ - 1) / freqKhz_);
    }
    // First cycle that starts at or after `ps`.
    // psOfCycle(c) >= ps  ⟺  c · 1e9 / f > ps − 1  ⟺  c ≥ floor((ps − 1) · f / 1e9) + 1.
    std::uint64_t cycleAtOrAfter(std::uint64_t ps) const {
        if (ps == 0) return 0;
        if (ps - 1 <= maxNarrowPs_) return (ps - 1) * freqKhz_ / kPsPerSecondPerKhz + 1;
        const Wide numerator = static_cast<Wide>(ps - 1) * freqKhz_;
        return static_cast<std::uint64_t>(numerator / kPsPerSecondPerKhz) + 1;
    }
    double freqMhz() const { return static_cast<double>(freqKhz_) / 1000.0; }

private:
    __extension__ typedef unsigned __int128 Wide;
    static constexpr std::uint64_t kPsPerSecondPerKhz = 1'000'000'000;  // 1e12 ps/s ÷ 1e3 Hz/kHz
    std::uint64_t freqKhz_;
    std::uint64_t maxNarrowCycle_ = 0;  // largest cycle whose c · 1e9 + f − 1 fits 64 bits
    std::uint64_t maxNarrowPs_ = 0;     // largest ps − 1 whose (ps − 1) · f fits 64 bits
};

}  // namespace ascendsim

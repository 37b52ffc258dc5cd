#pragma once
// The local buffers of one simulated core plus its view of GM, with the bounds and alignment
// checks every functional instruction goes through. Which buffers a core has depends on its kind
// (hardware.md §2.1): an AIC has L1/L0A/L0B/L0C/BT/FB, an AIV has UB, a coupled core has all.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "models/chip/chip_config.h"
#include "models/isa/pipe.h"

namespace ascendsim {

class CoreMemory {
public:
    CoreMemory(const ChipConfig& chip, CoreKind kind, std::vector<std::uint8_t>& gm);
    CoreMemory(const ChipConfig&& chip, CoreKind kind, std::vector<std::uint8_t>& gm) = delete;  // chip_ is a reference

    // Fills every local buffer with 0xFF (NaN for floats) so a program that reads data it never
    // wrote produces garbage instead of silently reading zeros.
    void poison();

    bool has(MemSpace space) const;
    std::vector<std::uint8_t>& buffer(MemSpace space, const char* what);

    // Returns a pointer to [addr, addr+bytes) of `space`; throws std::runtime_error naming `what`
    // (the instruction kind), the buffer and the address if the range leaves the buffer.
    std::uint8_t* span(MemSpace space, std::uint64_t addr, std::uint64_t bytes, const char* what);
    // Throws if `addr` violates the chip's alignment for `space` (GM has none).
    void checkAligned(MemSpace space, std::uint64_t addr, const char* what) const;

    CoreKind kind() const { return kind_; }
    std::string describe() const;  // "AIC", "AIV", "AI core" for messages

private:
    const ChipConfig& chip_;
    CoreKind kind_;
    std::vector<std::uint8_t>& gm_;
    std::array<std::vector<std::uint8_t>, kMemSpaceCount> local_;
};

std::string hexAddress(std::uint64_t addr);

}  // namespace ascendsim

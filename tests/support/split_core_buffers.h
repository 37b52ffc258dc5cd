#pragma once
// The on-chip buffer sizes and alignments of a 910B-class split core (hardware.md §1.1, column
// 910B1), set on a hand-built test chip. Device tests and kernel tests build different chips
// around them; the buffers are the same.
#include <cstdint>

#include "models/chip/chip_config.h"

namespace ascendsim::test {

inline void setBuffer(ChipConfig& chip, MemSpace space, std::uint64_t bytes, std::uint32_t alignment) {
    chip.bufferBytes[static_cast<std::size_t>(space)] = bytes;
    chip.alignmentBytes[static_cast<std::size_t>(space)] = alignment;
}

inline void setSplitCoreBuffers(ChipConfig& chip) {
    setBuffer(chip, MemSpace::L1, 512 * 1024, 32);
    setBuffer(chip, MemSpace::L0A, 64 * 1024, 512);
    setBuffer(chip, MemSpace::L0B, 64 * 1024, 512);
    setBuffer(chip, MemSpace::L0C, 128 * 1024, 64);
    setBuffer(chip, MemSpace::UB, 192 * 1024, 32);
    setBuffer(chip, MemSpace::BiasTable, 1024, 64);
    setBuffer(chip, MemSpace::FixpipeBuffer, 2048, 64);
}

}  // namespace ascendsim::test

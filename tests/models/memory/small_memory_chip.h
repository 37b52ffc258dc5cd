#pragma once
// A memory side with small, round numbers for the models/memory tests: 1 GHz core clock, HBM
// 1000 GB/s = 1 B/ps, L2 5 B/ps, a 16 KiB 2-way L2 with 512 B lines.
#include "models/chip/chip_config.h"
#include "models/memory/memory_system.h"

namespace ascendsim::testing_support {

// The small chip's L2 line.
inline constexpr std::uint64_t kSmallChipLineBytes = 512;

inline ChipConfig smallMemoryChip() {
    ChipConfig chip;
    chip.name = "TestChip";
    chip.aiCoreFreqMhz = 1000.0;
    chip.l2.sizeBytes = 16 * 1024;
    chip.l2.lineBytes = kSmallChipLineBytes;
    chip.l2.ways = 2;
    chip.l2.bandwidthBytesPerCycle = 5000.0;
    chip.l2.hitLatencyCycles = 10;
    chip.hbm.bandwidthGBps = 1000.0;
    chip.hbm.readLatencyCycles = 100;
    return chip;
}

// A read of `bytes` at `address` by `core`, starting at `startPs`.
inline GmAccess gmReadOf(std::uint64_t address, std::uint64_t bytes, std::uint64_t startPs, std::uint32_t core) {
    return GmAccess{startPs, core, address, bytes, false};
}

// A write of `bytes` at `address` by core 0, starting at `startPs`.
inline GmAccess gmWriteOf(std::uint64_t address, std::uint64_t bytes, std::uint64_t startPs) {
    return GmAccess{startPs, 0, address, bytes, true};
}

}  // namespace ascendsim::testing_support

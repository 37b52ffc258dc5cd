#pragma once
// Chip configs for kernel and functional tests, with the Ascend910B1 values of hardware.md §1.1
// (the YAML loader lives in sim/config; these tests must not depend on it). Timing fields stay at
// their defaults: functional tests do not read them.
#include "models/chip/chip_config.h"
#include "tests/support/split_core_buffers.h"

namespace ascendsim::test {

inline ChipConfig ascend910B1() {
    ChipConfig chip;
    chip.name = "Ascend910B1";
    chip.sourceFile = "tests/models/kernels/test_chip.h";
    chip.organisation = CoreOrganisation::Split;
    chip.aiCoreCount = 24;
    chip.vectorCoreCount = 48;
    chip.vectorCoresPerCube = 2;
    chip.aiCoreFreqMhz = 1850;
    chip.vectorCoreFreqMhz = 1850;
    setBuffer(chip, MemSpace::GM, 0, 1);
    setSplitCoreBuffers(chip);
    return chip;
}

// A coupled chip (910A-like: one AI core kind with cube and vector, hardware.md §1.1 column 910).
inline ChipConfig coupledChip() {
    ChipConfig chip = ascend910B1();
    chip.name = "CoupledTestChip";
    chip.organisation = CoreOrganisation::Coupled;
    chip.aiCoreCount = 32;
    chip.vectorCoreCount = 0;
    chip.bufferBytes[static_cast<std::size_t>(MemSpace::L1)] = 1024 * 1024;
    chip.bufferBytes[static_cast<std::size_t>(MemSpace::L0C)] = 256 * 1024;
    chip.bufferBytes[static_cast<std::size_t>(MemSpace::UB)] = 256 * 1024;
    return chip;
}

// The coupled test chip with the 910A's streams: loads in flight (docs/fidelity.md §64), stores
// posted (§79) and its 310-cycle read latency.
inline ChipConfig streamingCoupledChip() {
    ChipConfig chip = coupledChip();
    chip.mte2LoadIssueCycles = 55;
    chip.mte3StoreIssueCycles = 80;
    chip.hbm.readLatencyCycles = 310;
    return chip;
}

}  // namespace ascendsim::test

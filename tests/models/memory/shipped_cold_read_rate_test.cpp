// The shipped chips' per-core cold-read limit (hbm.outstanding_read_lines_per_core, docs/fidelity.md
// §17, §41): one 910B2 core reads data that misses L2 at 12 lines × 512 B per 400-cycle HBM read
// latency (15.4 B/cycle, fitted on its AlexNet sample's skinny fp32 GEMMs), far below its share
// of HBM; the Qwen3 part (Ascend910B4_1650) and the 910B1 parent have no such limit.
#include <gtest/gtest.h>

#include "models/memory/shared_memory_system.h"
#include "sim/config/chip_config_loader.h"
#include "tests/sim/config/shipped_configs.h"

namespace ascendsim {
namespace {

constexpr std::uint64_t kColdBytes = 1u << 20;  // 1 MiB: 2048 lines, all missing a cold L2

// Bytes per AI-core cycle one core's cold 1 MiB read moves from its start to its completion.
double coldReadBytesPerCycle(const ChipConfig& chip) {
    SharedMemorySystem memory(chip);
    PmuCounters counters;
    const std::uint64_t donePs = memory.access(GmAccess{0, 0, 0, kColdBytes, false}, counters);
    const double cycles = static_cast<double>(donePs) * chip.aiCoreFreqMhz / 1e6;
    return static_cast<double>(kColdBytes) / cycles;
}

TEST(ShippedColdReadRate, The910B2CoreReadsColdDataAtItsFittedRate) {
    const ChipConfig chip = loadChipByName("Ascend910B2", shippedConfigDir());
    ASSERT_EQ(chip.hbm.outstandingReadLinesPerCore, 12u);
    // 2048 lines / 12 per 400 cycles + the last line's 400 = 68667 cycles: 15.27 B/cycle.
    EXPECT_NEAR(coldReadBytesPerCycle(chip), 15.27, 0.05);
}

TEST(ShippedColdReadRate, TheQwen3PartAndThe910B1AreBoundOnlyByHbm) {
    for (const char* name : {"Ascend910B4_1650", "Ascend910B1"}) {
        const ChipConfig chip = loadChipByName(name, shippedConfigDir());
        EXPECT_EQ(chip.hbm.outstandingReadLinesPerCore, 0u) << name;
        // Alone on the chip one core's fills get all of HBM's read-only rate (less the latency):
        // well above the 910B2's per-core limit.
        EXPECT_GT(coldReadBytesPerCycle(chip), 100.0) << name;
    }
}

}  // namespace
}  // namespace ascendsim

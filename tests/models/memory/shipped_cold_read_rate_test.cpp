// The shipped chips' per-core cold-read limit (hbm.outstanding_read_lines_per_core, docs/fidelity.md
// §17, §41): one 910B2 core reads data that misses L2 at 12 lines × 512 B per 400-cycle HBM read
// latency (15.4 B/cycle, fitted on its AlexNet sample's skinny fp32 GEMMs), far below its share
// of HBM; the Qwen3 part (Ascend910B4_1650) at 30 lines (38.4 B/cycle, fitted on its rank_0 sample,
// §145: its one-block cold reads grow with their lines); the 910B1 parent has no such limit.
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

TEST(ShippedColdReadRate, TheQwen3PartCoreReadsColdDataAtItsFittedRate) {
    const ChipConfig chip = loadChipByName("Ascend910B4_1650", shippedConfigDir());
    ASSERT_EQ(chip.hbm.outstandingReadLinesPerCore, 30u);
    // 2048 lines / 30 per 400 cycles + the last line's 400 = 27707 cycles: 37.85 B/cycle.
    EXPECT_NEAR(coldReadBytesPerCycle(chip), 37.85, 0.05);
}

// Cycles from the start of one core's lone cold read of `bytes` to its completion.
double loneColdReadCycles(const ChipConfig& chip, std::uint64_t bytes) {
    SharedMemorySystem memory(chip);
    PmuCounters counters;
    const std::uint64_t donePs = memory.access(GmAccess{0, 0, 0, bytes, false}, counters);
    return static_cast<double>(donePs) * chip.aiCoreFreqMhz / 1e6;
}

// The sample's one-block Cast [128] / [1024] with a cold input keep MTE2 busy 606 / 834 cycles
// (docs/fidelity.md §123a): a lone cold read grows with its lines. Without the limit a 4 KiB and a
// 512 B miss cost the same latency; at 30 lines a latency the 4 KiB one's 8 lines take 7/30 of a
// latency (93 cycles) longer to send.
TEST(ShippedColdReadRate, TheQwen3PartsLoneColdReadGrowsWithItsLines) {
    const ChipConfig chip = loadChipByName("Ascend910B4_1650", shippedConfigDir());
    const double oneLine = loneColdReadCycles(chip, 512), eightLines = loneColdReadCycles(chip, 4096);
    EXPECT_NEAR(eightLines - oneLine, 7.0 / 30.0 * 400.0, 5.0);
    ChipConfig unlimited = chip;
    unlimited.hbm.outstandingReadLinesPerCore = 0;
    EXPECT_LT(loneColdReadCycles(unlimited, 4096) - loneColdReadCycles(unlimited, 512), 20.0);
}

TEST(ShippedColdReadRate, The910B1IsBoundOnlyByHbm) {
    const ChipConfig chip = loadChipByName("Ascend910B1", shippedConfigDir());
    EXPECT_EQ(chip.hbm.outstandingReadLinesPerCore, 0u);
    // Alone on the chip one core's fills get all of HBM's read-only rate (less the latency):
    // well above the 910B2's per-core limit.
    EXPECT_GT(coldReadBytesPerCycle(chip), 100.0);
}

}  // namespace
}  // namespace ascendsim

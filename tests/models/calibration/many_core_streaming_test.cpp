// The many-core streaming check: aggregate bandwidth grows with the cores streaming until the
// shared HBM bounds it, reads saturate at nominal x hbm.read_only_efficiency, writes larger than L2 at
// nominal x write_efficiency, and the parts real profiles ran on are compared with them.
#include <gtest/gtest.h>

#include "calibration_support.h"
#include "models/memory/shared_memory_system.h"
#include "sim/microbench/many_core_streaming.h"

namespace ascendsim {
namespace {

using testing::shippedChip;

constexpr std::uint64_t kTransfer = 32 * 1024;

// A 910B1 with a 4 MiB L2, so cold streams of eight times the L2 stay small enough for a unit test.
ChipConfig smallL2Chip() {
    ChipConfig chip = shippedChip("Ascend910B1");
    chip.l2.sizeBytes = 4 * 1024 * 1024;
    return chip;
}

// Aggregate GB/s of every vector core streaming eight L2s of cold data in `direction`.
double allCores(const ChipConfig& chip, StreamDirection direction) {
    const std::uint32_t cores = chip.vectorCoreCount;
    return runDirectionalStream(chip, direction, kTransfer, coldBytesPerCore(chip, cores), cores);
}

TEST(ManyCoreStreaming, AllVectorCoresSaturateHbmReadsAndWritesAtTheirEfficiencies) {
    const ChipConfig chip = smallL2Chip();
    const double read = allCores(chip, StreamDirection::Read);
    const double write = allCores(chip, StreamDirection::Write);
    EXPECT_NEAR(read / (chip.hbm.bandwidthGBps * hbmReadOnlyEfficiency(chip.hbm)), 1.0, 0.10) << read;
    // An eighth of the written bytes still sits in L2 when the kernel ends; the rest was written back.
    EXPECT_GT(write, chip.hbm.bandwidthGBps * chip.hbm.writeEfficiency * 0.9) << write;
    EXPECT_GT(write, read);
}

TEST(ManyCoreStreaming, ACopySharesOneHbmBetweenItsReadsAndWriteBacks) {
    const ChipConfig chip = smallL2Chip();
    const double copy = allCores(chip, StreamDirection::Copy);
    const double read = allCores(chip, StreamDirection::Read);
    // Read + written bytes over the time both take on one server. Its reads share the bus with
    // write-backs, so they get hbm.read_efficiency: above that rate, below twice the read-only one.
    EXPECT_GT(copy, chip.hbm.bandwidthGBps * chip.hbm.readEfficiency);
    EXPECT_LT(copy, 2.0 * read);
}

TEST(ManyCoreStreaming, OneCoreIsBoundByItselfAndMoreCoresAddBandwidthUntilHbmSaturates) {
    const ChipConfig chip = smallL2Chip();
    const std::vector<StreamingScalingRow> rows = runStreamingScaling(chip);
    ASSERT_GE(rows.size(), 3u);
    EXPECT_EQ(rows.front().cores, 1u);
    EXPECT_EQ(rows.back().cores, chip.vectorCoreCount);
    for (std::size_t i = 1; i < rows.size(); ++i) EXPECT_GE(rows[i].readGBps, rows[i - 1].readGBps * 0.98) << i;
    EXPECT_LT(rows.front().readGBps, 0.2 * rows.back().readGBps);
    EXPECT_LT(rows.back().readGBps, chip.hbm.bandwidthGBps * hbmReadOnlyEfficiency(chip.hbm) * 1.1);
}

TEST(ManyCoreStreaming, RealReferencesAreComparedOnlyOnTheirOwnPart) {
    EXPECT_EQ(realStreamingReferences().size(), 4u);
    ChipConfig b4 = shippedChip("Ascend910B4");
    EXPECT_TRUE(runRealStreamingComparison(b4).empty());  // 1500 MHz: no real profile of that part
    b4.aiCoreFreqMhz = b4.vectorCoreFreqMhz = 1650.0;     // the Qwen3 sample's part
    b4.hbm.bandwidthGBps = 800.0;
    const std::vector<MicrobenchRow> rows = runRealStreamingComparison(b4);
    ASSERT_EQ(rows.size(), 2u);  // copy and write
    for (const MicrobenchRow& row : rows) EXPECT_TRUE(row.withinTolerance()) << row.what << " " << row.model;
}

}  // namespace
}  // namespace ascendsim

// On the real Device, the shared L2/HBM bound what all cores get together: cold streaming by
// every AIC saturates near the chip's HBM read bandwidth (nominal x hbm.read_only_efficiency) (not cores x single-core), and a data set
// that fits in L2 streams at L2 bandwidth on its second pass.
#include <gtest/gtest.h>

#include "calibration_support.h"
#include "models/memory/shared_memory_system.h"
#include "sim/microbench/streaming_bench.h"

namespace ascendsim {
namespace {

using testing::shippedChip;

// What HBM delivers to read-only streams: the nominal bandwidth times hbm.read_only_efficiency.
double hbmReadGBps(const ChipConfig& chip) { return chip.hbm.bandwidthGBps * hbmReadOnlyEfficiency(chip.hbm); }

TEST(SharedMemoryContention, AllAicStreamingColdDataSaturatesNearHbmBandwidth) {
    const ChipConfig& chip = shippedChip("Ascend910B1");
    constexpr std::uint64_t kTransfer = 64 * 1024;
    const StreamingPasses passes = runStreamingPasses(chip, CoreKind::Cube, kTransfer, 64 * kTransfer);
    EXPECT_EQ(passes.cores, 24u);
    EXPECT_NEAR(passes.firstPassGBps / hbmReadGBps(chip), 1.0, 0.10)
        << passes.firstPassGBps << " GB/s vs HBM reads " << hbmReadGBps(chip);
    const double single = singleCoreStreamingGBps(chip, CoreKind::Cube, kTransfer);
    EXPECT_LT(passes.firstPassGBps, 0.5 * single * passes.cores);
}

TEST(SharedMemoryContention, DataSetInL2StreamsAtL2BandwidthOnTheSecondPass) {
    // The L2 rate alone: without the 48 blocks' turns on their launch's argument record (§58),
    // which start the last block ~4300 cycles late and so lower a short pass's average.
    ChipConfig chip = shippedChip("Ascend910B1");
    chip.blockArgumentReadBytes = 0;
    constexpr std::uint64_t kTransfer = 128 * 1024;
    const std::uint64_t perCore = 16 * kTransfer;  // 48 x 2 MiB = 96 MiB < 192 MiB L2
    const StreamingPasses passes = runStreamingPasses(chip, CoreKind::Vector, kTransfer, perCore);
    EXPECT_EQ(passes.cores, 48u);
    const double l2GBps = chip.l2.bandwidthBytesPerCycle * chip.aiCoreFreqMhz / 1000.0;
    EXPECT_NEAR(passes.secondPassGBps / l2GBps, 1.0, 0.10)
        << passes.secondPassGBps << " GB/s vs L2 " << l2GBps;
    EXPECT_NEAR(passes.firstPassGBps / hbmReadGBps(chip), 1.0, 0.10)
        << passes.firstPassGBps << " GB/s vs HBM reads " << hbmReadGBps(chip);
}

TEST(SharedMemoryContention, DataSetLargerThanL2NeverHitsOnTheSecondPass) {
    ChipConfig chip = shippedChip("Ascend910B1");
    chip.l2.sizeBytes = 8 * 1024 * 1024;  // 48 x 2 MiB = 96 MiB streams through an 8 MiB L2
    constexpr std::uint64_t kTransfer = 128 * 1024;
    const StreamingPasses passes = runStreamingPasses(chip, CoreKind::Vector, kTransfer, 16 * kTransfer);
    EXPECT_NEAR(passes.secondPassGBps / hbmReadGBps(chip), 1.0, 0.10)
        << passes.secondPassGBps << " GB/s";
}

// With HBM slower than one core's transfer rate, one core alone is HBM-bound; two cores streaming
// cold data at once each get half of it.
TEST(SharedMemoryContention, MteTransfer_HalfBandwidthWhenTwoCoresShareHbm) {
    ChipConfig chip = shippedChip("Ascend910B1");
    chip.hbm.bandwidthGBps = 100.0;  // below one core's ~195 GB/s for 64 KiB GM->L1 transfers
    chip.hbm.readLatencyCycles = 0;  // one transfer in flight per core: keep it bandwidth-bound
    constexpr std::uint64_t kTransfer = 64 * 1024;
    const StreamingPasses alone = runStreamingPasses(chip, CoreKind::Cube, kTransfer, 64 * kTransfer, 1);
    const StreamingPasses pair = runStreamingPasses(chip, CoreKind::Cube, kTransfer, 64 * kTransfer, 2);
    ASSERT_EQ(pair.cores, 2u);
    EXPECT_NEAR(alone.firstPassGBps / hbmReadGBps(chip), 1.0, 0.10) << alone.firstPassGBps;
    EXPECT_NEAR(pair.firstPassGBps / pair.cores / alone.firstPassGBps, 0.5, 0.05)
        << "per core " << pair.firstPassGBps / pair.cores << " GB/s vs alone " << alone.firstPassGBps;
}

}  // namespace
}  // namespace ascendsim

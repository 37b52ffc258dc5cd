// The GM bursts of a move over an NC1HWC0 tensor (gm_nc1hwc0.h, docs/fidelity.md §133f): a conv
// store's logical NCHW channel bursts become one run of the tile's positions × C0 cells per C1
// block, the runs a C1 block's plane apart.
#include "models/isa/gm_nc1hwc0.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace ascendsim {
namespace {

// The AlexNet 910B2 stem's y: [32, 64, 55, 55] fp32 stored [32, 8, 55, 55, 8].
GmNc1hwc0 stemOutput() {
    GmNc1hwc0 layout;
    layout.tensorAddr = 1 << 20;
    layout.positions = 55 * 55;
    layout.channels = 64;
    layout.elementBytes = 4;
    layout.c0 = 8;
    return layout;
}

TEST(GmNc1hwc0, ATileOfChannelsIsOneRunOfWholeCellsPerC1Block) {
    // Image 3, channels [16, 40) (C1 blocks 2..4), positions [512, 640): as NCHW 24 bursts of 512 B
    // a 12 100 B plane apart; as 5HD 3 runs of 128 × 32 B, a block plane of 3025 × 32 B apart.
    const GmNc1hwc0 y = stemOutput();
    const std::uint64_t plane = y.planeBytes();
    const std::uint64_t logical = y.tensorAddr + (3 * 64 + 16) * plane + 512 * 4;
    const GmBursts b = nc1hwc0Bursts(y, logical, 24, 128 * 4, plane);
    EXPECT_EQ(b.count, 3u);
    EXPECT_EQ(b.burstBytes, 128u * 32);
    EXPECT_EQ(b.strideBytes, 3025u * 32);
    EXPECT_EQ(b.address, y.tensorAddr + (3 * 8 + 2) * 3025 * 32 + 512 * 32);
    EXPECT_EQ((b.address - y.tensorAddr) % 32, 0u);  // whole 32 B blocks, where NCHW starts mid-block
}

TEST(GmNc1hwc0, PartialBlocksAndPaddedChannelsTakeTheWholeCell) {
    // fp16, C0 16, C = 24 pads to 32: channels [8, 24) cover blocks 0 and 1, each run whole cells.
    GmNc1hwc0 y;
    y.positions = 36;
    y.channels = 24;
    y.elementBytes = 2;
    y.c0 = 16;
    const GmBursts b = nc1hwc0Bursts(y, 8 * y.planeBytes(), 16, y.planeBytes(), y.planeBytes());
    EXPECT_EQ(b.count, 2u);
    EXPECT_EQ(b.burstBytes, 36u * 32);
    EXPECT_EQ(b.address, 0u);
    // Image 1 starts after C1 = 2 padded blocks, not after 24 channels' planes.
    const GmBursts next = nc1hwc0Bursts(y, 24 * y.planeBytes(), 1, y.planeBytes(), y.planeBytes());
    EXPECT_EQ(next.address, 2u * 36 * 32);
    // A recorded C0 that is not 32 B (the MaxPool's fp32 NC1HWC0:1 holds 16 channels a cell).
    y.elementBytes = 4;
    const GmBursts wide = nc1hwc0Bursts(y, 0, 24, 4 * 4, y.planeBytes());
    EXPECT_EQ(wide.count, 2u);
    EXPECT_EQ(wide.burstBytes, 4u * 64);
    EXPECT_EQ(wide.strideBytes, 36u * 64);
}

TEST(GmNc1hwc0, WholePlanesBackToBackAreTheirBlocksWhole) {
    const GmNc1hwc0 y = stemOutput();
    const GmBursts b = nc1hwc0Bursts(y, y.tensorAddr + 8 * y.planeBytes(), 1, 16 * y.planeBytes(), 16 * y.planeBytes());
    EXPECT_EQ(b.count, 2u);
    EXPECT_EQ(b.burstBytes, 3025u * 32);
    EXPECT_EQ(b.strideBytes, b.burstBytes);
    EXPECT_EQ(b.address, y.tensorAddr + 3025u * 32);
}

TEST(GmNc1hwc0, RejectsBurstsThatAreNotConsecutiveChannelsOrLeaveTheImage) {
    const GmNc1hwc0 y = stemOutput();
    const std::uint64_t plane = y.planeBytes();
    EXPECT_THROW(nc1hwc0Bursts(y, y.tensorAddr, 4, 128, 2 * plane), std::invalid_argument);
    EXPECT_THROW(nc1hwc0Bursts(y, y.tensorAddr + 63 * plane, 2, 128, plane), std::invalid_argument);
    EXPECT_THROW(nc1hwc0Bursts(y, y.tensorAddr + plane - 8, 1, 16, plane), std::invalid_argument);
    EXPECT_THROW(nc1hwc0Bursts(y, y.tensorAddr + 4, 1, 2 * plane, 2 * plane), std::invalid_argument);
    EXPECT_THROW(nc1hwc0Bursts(y, y.tensorAddr - 4, 1, 16, plane), std::invalid_argument);
    EXPECT_THROW(nc1hwc0Bursts(GmNc1hwc0{}, 0, 1, 32, 32), std::invalid_argument);
}

}  // namespace
}  // namespace ascendsim

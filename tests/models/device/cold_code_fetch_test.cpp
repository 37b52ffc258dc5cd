// A kernel's code image in the ICache (icache.kernel_code_bytes): a block runs through its
// binary's code at start, cold lines cost a fill each, and launches of one binary share it.
#include <gtest/gtest.h>

#include "models/device/device_run.h"
#include "models/core/icache_model.h"

namespace ascendsim::test {

namespace {

constexpr std::uint32_t kPenalty = 100;

ChipConfig codeImageChip() {
    ChipConfig chip = deviceTestChip();
    chip.icache = ICacheConfig{8192, 2048, kPenalty, 8, 4096};  // 4 lines; an image is 2 of them
    return chip;
}

KernelTask binaryTask(std::uint64_t image, std::uint64_t id) {
    KernelTask t = vectorTask(std::vector<Instruction>(10, Instruction::scalar(1)), 1, id);
    t.codeImage = image;
    return t;
}

}  // namespace

TEST(ICacheModel, ImageMissesOnceThenStaysUntilEvictedByLeastRecentUse) {
    ICacheModel cache(ICacheConfig{8192, 2048, kPenalty, 8, 4096});
    EXPECT_EQ(cache.imageLines(), 2u);
    EXPECT_EQ(cache.fetchImage(1), 2u);
    EXPECT_EQ(cache.fetchImage(2), 2u);
    EXPECT_EQ(cache.fetchImage(1), 0u);  // two images fit in four lines
    EXPECT_EQ(cache.fetchImage(3), 2u);  // evicts image 2, the least recently used
    EXPECT_EQ(cache.fetchImage(1), 0u);
    EXPECT_EQ(cache.fetchImage(2), 2u);
    // Instructions past the image's end lie in it (loops re-run the code): no further misses.
    for (std::uint64_t i = 0; i < 5000; ++i) EXPECT_FALSE(cache.fetch(2, i));
}

// §102: a binary may run through more code than the chip's image; its size is its own, and
// its later instructions lie in it.
TEST(ICacheModel, ABinaryOwnCodeSizeSetsItsImage) {
    ICacheModel cache(ICacheConfig{8192, 2048, kPenalty, 8, 4096});
    EXPECT_EQ(cache.fetchImage(1, 6144), 3u);
    EXPECT_EQ(cache.imageLines(), 3u);
    EXPECT_EQ(cache.fetchImage(1, 6144), 0u);
    for (std::uint64_t i = 0; i < 5000; ++i) EXPECT_FALSE(cache.fetch(1, i));
    EXPECT_EQ(cache.fetchImage(2), 2u);  // 0 = the chip's image
    EXPECT_EQ(cache.imageLines(), 2u);
    // Without a chip image (straight-line addressing) a binary's size does not start one.
    ICacheModel straight(ICacheConfig{8192, 2048, kPenalty, 8, 0});
    EXPECT_EQ(straight.fetchImage(1, 6144), 0u);
    EXPECT_EQ(straight.imageLines(), 0u);
}

TEST(ICacheModel, NoCodeImageKeepsStraightLineAddressing) {
    ICacheModel cache(ICacheConfig{8192, 2048, kPenalty, 8, 0});
    EXPECT_EQ(cache.imageLines(), 0u);
    EXPECT_EQ(cache.fetchImage(1), 0u);
    EXPECT_TRUE(cache.fetch(1, 0));
    EXPECT_TRUE(cache.fetch(1, 256));  // the next 2 KiB of 8-byte instructions
}

TEST(ColdCodeFetch, SecondLaunchOfOneBinaryRunsWarm) {
    DeviceRun run(codeImageChip());
    const PmuCounters cold = onlyBlock(run.runOne(binaryTask(7, 1)));
    const PmuCounters warm = onlyBlock(run.runOne(binaryTask(7, 2)));
    EXPECT_EQ(cold[PmuEvent::IcacheMiss], 2u);
    EXPECT_EQ(warm[PmuEvent::IcacheMiss], 0u);
    EXPECT_EQ(cold[PmuEvent::IcacheReq], warm[PmuEvent::IcacheReq]);
    EXPECT_EQ(cold.totalCycles, warm.totalCycles + 2 * kPenalty);
}

// The blocks of a kernel starting together share the port that fills its code: each missed
// fill takes one penalty per block fetching.
TEST(ColdCodeFetch, BlocksFetchingTogetherShareTheFillPort) {
    DeviceRun run(codeImageChip());  // 4 AIVs
    KernelTask four = binaryTask(7, 1);
    four.blockDim = 4;
    const TaskResult& cold = run.runOne(std::move(four));
    ASSERT_EQ(cold.blocks.size(), 4u);
    for (const BlockResult& b : cold.blocks) EXPECT_EQ(b.counters.totalCycles, 10u + 2 * 4 * kPenalty);
    KernelTask again = binaryTask(7, 2);
    again.blockDim = 4;
    for (const BlockResult& b : run.runOne(std::move(again)).blocks) EXPECT_EQ(b.counters.totalCycles, 10u);
}

// §93: a binary whose code L2 no longer holds fills its first missed line from HBM: the block
// waits the HBM read latency where an L2 hit would have served it, once, however many lines miss.
TEST(ColdCodeFetch, ACodeImageL2DoesNotHoldWaitsForHbmOnce) {
    ChipConfig chip = codeImageChip();
    chip.hbm.readLatencyCycles = 400;
    chip.l2.hitLatencyCycles = 60;
    EXPECT_EQ(codeFillFromHbmCycles(chip), 340u);
    DeviceRun inL2(chip);
    const std::uint64_t fromL2 = onlyBlock(inL2.runOne(binaryTask(7, 1))).totalCycles;
    DeviceRun notInL2(chip);
    KernelTask first = binaryTask(7, 1);
    first.codeHeldInL2 = false;
    const PmuCounters fromHbm = onlyBlock(notInL2.runOne(std::move(first)));
    EXPECT_EQ(fromHbm[PmuEvent::IcacheMiss], 2u);
    EXPECT_EQ(fromHbm.totalCycles, fromL2 + 340);
    // Code still in the ICache is not fetched at all: where L2 stands does not matter.
    KernelTask again = binaryTask(7, 2);
    again.codeHeldInL2 = false;
    EXPECT_EQ(onlyBlock(notInL2.runOne(std::move(again))).totalCycles, fromL2 - 2 * kPenalty);
}

TEST(ColdCodeFetch, NoHbmWaitWhereHbmIsNoSlowerThanL2) {
    ChipConfig chip = codeImageChip();
    chip.hbm.readLatencyCycles = 50;
    chip.l2.hitLatencyCycles = 60;
    EXPECT_EQ(codeFillFromHbmCycles(chip), 0u);
}

// A launch whose binary's code is larger fills more lines, each at the shared port's turn per
// block; a resident copy of it is warm in full.
TEST(ColdCodeFetch, ALargerBinaryFillsMoreLines) {
    DeviceRun run(codeImageChip());
    KernelTask large = binaryTask(7, 1);
    large.codeBytes = 8192;  // 4 lines
    large.blockDim = 4;
    const TaskResult& cold = run.runOne(std::move(large));
    ASSERT_EQ(cold.blocks.size(), 4u);
    for (const BlockResult& b : cold.blocks) {
        EXPECT_EQ(b.counters[PmuEvent::IcacheMiss], 4u);
        EXPECT_EQ(b.counters.totalCycles, 10u + 4 * 4 * kPenalty);
    }
    const FreshSimulationContext context;
    FakeMemorySystem memory;
    RecordingObserver observer;
    DeviceOptions options;
    options.residentCodeImages = {{7, 8192}};
    Device device(codeImageChip(), observer, memory, options);
    KernelTask again = binaryTask(7, 1);
    again.codeBytes = 8192;
    device.submit(std::move(again), 0);
    device.runUntilIdle();
    ASSERT_EQ(observer.results.size(), 1u);
    EXPECT_EQ(observer.results[0].blocks.at(0).counters[PmuEvent::IcacheMiss], 0u);
}

TEST(ColdCodeFetch, OtherBinariesEvictTheCode) {
    DeviceRun run(codeImageChip());
    const std::uint64_t first = onlyBlock(run.runOne(binaryTask(7, 1))).totalCycles;
    run.runOne(binaryTask(8, 2));
    run.runOne(binaryTask(9, 3));
    EXPECT_EQ(onlyBlock(run.runOne(binaryTask(7, 4))).totalCycles, first);  // cold again
}

TEST(ColdCodeFetch, LaunchesWithoutABinaryNeverShareCode) {
    DeviceRun run(codeImageChip());
    for (std::uint64_t launch = 1; launch <= 2; ++launch)
        EXPECT_EQ(onlyBlock(run.runOne(binaryTask(0, launch)))[PmuEvent::IcacheMiss], 2u) << launch;
}

TEST(ColdCodeFetch, ResidentCodeImagesStartWarm) {
    const FreshSimulationContext context;
    const ChipConfig chip = codeImageChip();
    FakeMemorySystem memory;
    RecordingObserver observer;
    DeviceOptions options;
    options.residentCodeImages = {{7, 0}};
    Device device(chip, observer, memory, options);
    device.submit(binaryTask(7, 1), 0);
    device.submit(binaryTask(8, 2), 0);
    device.runUntilIdle();
    ASSERT_EQ(observer.results.size(), 2u);
    EXPECT_EQ(observer.results[0].blocks.at(0).counters[PmuEvent::IcacheMiss], 0u);
    EXPECT_EQ(observer.results[1].blocks.at(0).counters[PmuEvent::IcacheMiss], 2u);
}

}  // namespace ascendsim::test

// A kernel's code image in the ICache (icache.kernel_code_bytes): a block runs through its
// binary's code at start, cold lines cost a fill each, and launches of one binary share it.
#include <gtest/gtest.h>

#include "models/device/device_run.h"
#include "models/device/icache_model.h"

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
    for (std::uint64_t i = 0; i < 5000; ++i) EXPECT_FALSE(cache.fetch(2, i, cache.imageLines()));
}

TEST(ICacheModel, NoCodeImageKeepsStraightLineAddressing) {
    ICacheModel cache(ICacheConfig{8192, 2048, kPenalty, 8, 0});
    EXPECT_EQ(cache.imageLines(), 0u);
    EXPECT_EQ(cache.fetchImage(1), 0u);
    EXPECT_TRUE(cache.fetch(1, 0, cache.imageLines()));
    EXPECT_TRUE(cache.fetch(1, 256, cache.imageLines()));  // the next 2 KiB of 8-byte instructions
}

TEST(ICacheModel, ABinarysOwnCodeSizeInLines) {
    const ICacheModel cache(ICacheConfig{8192, 2048, kPenalty, 8, 4096});
    EXPECT_EQ(cache.imageLinesOf(0), 2u);  // the chip's image
    EXPECT_EQ(cache.imageLinesOf(8192), 4u);
    EXPECT_EQ(cache.imageLinesOf(5000), 3u);
    const ICacheModel straightLine(ICacheConfig{8192, 2048, kPenalty, 8, 0});
    EXPECT_EQ(straightLine.imageLinesOf(8192), 0u);  // no image model: no binary has one
}

// A binary with more code (KernelTask::codeBytes, a DSL reduce kernel's) fetches every line of
// it when cold, and leaves less room for others.
TEST(ColdCodeFetch, ABinaryWithMoreCodeFetchesMoreLinesAndEvictsMore) {
    DeviceRun run(codeImageChip());  // 4 lines of ICache
    KernelTask large = binaryTask(7, 1);
    large.codeBytes = 6144;  // 3 lines
    const PmuCounters cold = onlyBlock(run.runOne(std::move(large)));
    EXPECT_EQ(cold[PmuEvent::IcacheMiss], 3u);
    EXPECT_EQ(cold.totalCycles, 10u + 3 * kPenalty);
    run.runOne(binaryTask(8, 2));  // 2 lines: 5 > 4, the large image loses its oldest line
    KernelTask again = binaryTask(7, 3);
    again.codeBytes = 6144;
    EXPECT_GT(onlyBlock(run.runOne(std::move(again)))[PmuEvent::IcacheMiss], 0u);
}

// More prologue (KernelTask::extraPrologueScalarCycles) is scalar work before the first issue.
TEST(ColdCodeFetch, ExtraPrologueIsScalarWorkBeforeTheFirstIssue) {
    DeviceRun run(codeImageChip());
    const PmuCounters plain = onlyBlock(run.runOne(binaryTask(7, 1)));
    KernelTask dsl = binaryTask(7, 2);
    dsl.extraPrologueScalarCycles = 500;
    const PmuCounters longer = onlyBlock(run.runOne(std::move(dsl)));
    EXPECT_EQ(longer.totalCycles, plain.totalCycles - 2 * kPenalty + 500);  // warm now, 500 more
    EXPECT_EQ(longer[PmuEvent::ScalarBusy], plain[PmuEvent::ScalarBusy] + 500);
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

namespace {

// Runs `tasks` on a device whose cores start with `resident` in their ICaches; each task's
// one-block ICache misses.
std::vector<std::uint64_t> missesWithResident(std::vector<DeviceOptions::ResidentCode> resident,
                                              std::vector<KernelTask> tasks) {
    const FreshSimulationContext context;
    const ChipConfig chip = codeImageChip();
    FakeMemorySystem memory;
    RecordingObserver observer;
    DeviceOptions options;
    options.residentCodeImages = std::move(resident);
    Device device(chip, observer, memory, options);
    for (KernelTask& task : tasks) device.submit(std::move(task), 0);
    device.runUntilIdle();
    std::vector<std::uint64_t> misses;
    for (const TaskResult& r : observer.results) misses.push_back(r.blocks.at(0).counters[PmuEvent::IcacheMiss]);
    return misses;
}

}  // namespace

TEST(ColdCodeFetch, ResidentCodeImagesStartWarm) {
    std::vector<KernelTask> tasks;
    tasks.push_back(binaryTask(7, 1));
    tasks.push_back(binaryTask(8, 2));
    EXPECT_EQ(missesWithResident({7}, std::move(tasks)), (std::vector<std::uint64_t>{0, 2}));
}

TEST(ColdCodeFetch, AResidentImageKeepsItsOwnSize) {
    std::vector<KernelTask> tasks;
    tasks.push_back(binaryTask(7, 1));
    tasks.back().codeBytes = 6144;
    EXPECT_EQ(missesWithResident({{7, 6144}}, std::move(tasks)), (std::vector<std::uint64_t>{0}));
}

}  // namespace ascendsim::test

// TrafficSampler: the time-bucketed HBM / L2 counters behind the sampled HBM and LLC data, as the
// shared memory system fills them while it serves accesses.
#include "models/memory/traffic_sampler.h"

#include <gtest/gtest.h>

#include "models/memory/shared_memory_system.h"
#include "models/memory/small_memory_chip.h"

namespace ascendsim {
namespace {

constexpr std::uint64_t kLine = 512;
constexpr std::uint64_t kBucketPs = TrafficSampler::kDefaultBucketPs;

std::uint64_t readHits(const TrafficBucket& b) {
    return b.l2ReadHits[0] + b.l2ReadHits[1];
}
std::uint64_t readMisses(const TrafficBucket& b) {
    return b.l2ReadMisses[0] + b.l2ReadMisses[1];
}

TEST(TrafficSampler, SumCountsTheBucketsStartingInTheRange) {
    TrafficSampler sampler;
    sampler.bucketAt(0).hbmReadBytes += 1;
    sampler.bucketAt(kBucketPs + 5).hbmReadBytes += 10;
    sampler.bucketAt(3 * kBucketPs).hbmReadBytes += 100;
    sampler.bucketAt(kBucketPs).hbmReadBytes += 1000;  // back in time: same bucket as +5
    EXPECT_EQ(sampler.sum(0, 4 * kBucketPs).hbmReadBytes, 1111u);
    EXPECT_EQ(sampler.sum(1, 3 * kBucketPs).hbmReadBytes, 1010u);      // bucket 0 starts before 1
    EXPECT_EQ(sampler.sum(0, 3 * kBucketPs + 1).hbmReadBytes, 1111u);  // bucket 3 starts inside
    EXPECT_EQ(sampler.sum(10 * kBucketPs, 20 * kBucketPs).hbmReadBytes, 0u);
}

// A chip whose figures stretch simulated time (an absurd latency) must not cost memory by the
// run's length: an access an hour of simulated time later keeps one more bucket, not 36 million.
TEST(TrafficSampler, KeepsOnlyTheBucketsThatSawTraffic) {
    TrafficSampler sampler;
    constexpr std::uint64_t kHourPs = 3600ull * 1'000'000'000'000ull;
    sampler.bucketAt(5).hbmWriteBytes += 7;
    sampler.bucketAt(kHourPs).hbmWriteBytes += 70;
    EXPECT_LE(sampler.bucketsKept(), 2u);
    EXPECT_EQ(sampler.sum(0, kHourPs + 1).hbmWriteBytes, 77u);
    EXPECT_EQ(sampler.sum(kBucketPs, kHourPs).hbmWriteBytes, 0u);
}

TEST(TrafficSampler, RejectsAnEmptyBucket) {
    EXPECT_THROW(TrafficSampler(0), std::invalid_argument);
}

TEST(SharedMemoryTraffic, HbmSamplesGrowInProportionToTheTraffic) {
    const ChipConfig chip = testing_support::smallMemoryChip();
    SharedMemorySystem memory(chip);
    PmuCounters counters;
    // Interval 1: 4 cold lines; interval 2: 8 other cold lines (3 × 16 KiB apart: no reuse).
    memory.access(GmAccess{0, 0, 0, 4 * kLine, false}, counters);
    memory.access(GmAccess{2 * kBucketPs, 0, 1 << 20, 8 * kLine, false}, counters);
    const TrafficBucket first = memory.traffic().sum(0, kBucketPs);
    const TrafficBucket second = memory.traffic().sum(2 * kBucketPs, 3 * kBucketPs);
    EXPECT_EQ(first.hbmReadBytes, 4 * kLine);
    EXPECT_EQ(second.hbmReadBytes, 2 * first.hbmReadBytes);
    EXPECT_EQ(first.l2ReadBytes, 4 * kLine);
    EXPECT_EQ(first.hbmWriteBytes, 0u);
}

TEST(SharedMemoryTraffic, SecondPassOverAnL2ResidentBufferHitsMore) {
    const ChipConfig chip = testing_support::smallMemoryChip();
    SharedMemorySystem memory(chip);
    PmuCounters counters;
    const std::uint64_t bytes = 8 * kLine;  // 4 KiB: fits the 16 KiB L2
    memory.access(GmAccess{0, 0, 0, bytes, false}, counters);
    memory.access(GmAccess{kBucketPs, 0, 0, bytes, false}, counters);
    const TrafficBucket cold = memory.traffic().sum(0, kBucketPs);
    const TrafficBucket warm = memory.traffic().sum(kBucketPs, 2 * kBucketPs);
    EXPECT_EQ(readHits(cold), 0u);
    EXPECT_EQ(readMisses(cold), 8u);
    EXPECT_EQ(readHits(warm), 8u);
    EXPECT_EQ(readMisses(warm), 0u);
    EXPECT_EQ(warm.hbmReadBytes, 0u);
    EXPECT_EQ(warm.l2ReadHits[0], 4u);  // even lines on port 0, odd on port 1
    EXPECT_EQ(warm.l2ReadHits[1], 4u);
}

TEST(SharedMemoryTraffic, DirtyEvictionsAreHbmWritesAndWritesAreNotLlcReads) {
    const ChipConfig chip = testing_support::smallMemoryChip();
    SharedMemorySystem memory(chip);
    PmuCounters counters;
    memory.access(GmAccess{0, 0, 0, 32 * kLine, true}, counters);  // fills the L2 dirty
    memory.access(GmAccess{kBucketPs, 0, 1 << 20, 32 * kLine, false},
                  counters);  // evicts every line
    const TrafficBucket writes = memory.traffic().sum(0, kBucketPs);
    const TrafficBucket reads = memory.traffic().sum(kBucketPs, 2 * kBucketPs);
    EXPECT_EQ(writes.hbmWriteBytes, 0u);
    EXPECT_EQ(readHits(writes) + readMisses(writes), 0u);
    EXPECT_EQ(reads.hbmWriteBytes, 32 * kLine);
    EXPECT_EQ(reads.hbmReadBytes, 32 * kLine);
}

}  // namespace
}  // namespace ascendsim

// Sampled hardware counters: the memory model's traffic buckets summed into CANN's 20 ms
// intervals of each collection window.
#include "sim/engine/device/hardware_samples.h"

#include <gtest/gtest.h>

#include <numeric>

namespace ascendsim {
namespace {

constexpr std::uint64_t kMs = 1'000'000;  // ns
constexpr std::uint64_t kPsPerNs = 1000;

std::uint64_t total(const std::vector<std::uint64_t>& values) {
    return std::accumulate(values.begin(), values.end(), std::uint64_t{0});
}

std::uint64_t hbmReadTotal(const RunRecord& record) {
    std::uint64_t sum = 0;
    for (const auto& s : record.hardwareSamples) sum += total(s.hbmReadBytes);
    return sum;
}

TEST(HardwareSamples, WindowStartsWithAZeroSampleThen20MsIntervalsAndAShortLastOne) {
    TrafficSampler traffic;
    traffic.bucketAt((5 * kMs + 10) * kPsPerNs).hbmReadBytes += 4000;  // first interval
    traffic.bucketAt((30 * kMs) * kPsPerNs).hbmReadBytes += 400;       // second interval
    traffic.bucketAt((54 * kMs) * kPsPerNs).hbmWriteBytes += 8;        // third (short) interval
    RunRecord record;
    record.steps.push_back({3, 5 * kMs, 55 * kMs});
    appendHardwareSamples(traffic, record);
    const auto& samples = record.hardwareSamples;
    ASSERT_EQ(samples.size(), 4u);
    EXPECT_EQ(samples[0].timeNs, 5 * kMs);
    EXPECT_EQ(samples[0].intervalNs, 0u);
    EXPECT_EQ(total(samples[0].hbmReadBytes), 0u);
    EXPECT_EQ(samples[1].timeNs, 25 * kMs);
    EXPECT_EQ(samples[1].intervalNs, 20 * kMs);
    EXPECT_EQ(total(samples[1].hbmReadBytes), 4000u);
    EXPECT_EQ(samples[2].timeNs, 45 * kMs);
    EXPECT_EQ(total(samples[2].hbmReadBytes), 400u);
    EXPECT_EQ(samples[3].timeNs, 55 * kMs);
    EXPECT_EQ(samples[3].intervalNs, 10 * kMs);
    EXPECT_EQ(total(samples[3].hbmWriteBytes), 8u);
    // Four stacks with equal shares; two LLCs.
    EXPECT_EQ(samples[1].hbmReadBytes, (std::vector<std::uint64_t>{1000, 1000, 1000, 1000}));
    EXPECT_EQ(samples[1].llcReadBytes.size(), 2u);
}

// 310P3's LPDDR has no HBM stacks: the samples carry LLC traffic only, so no HBM counters exist.
TEST(HardwareSamples, ChipWithoutHbmStacksHasNoHbmSeries) {
    TrafficSampler traffic;
    traffic.bucketAt((5 * kMs + 10) * kPsPerNs).hbmReadBytes += 4000;
    ChipConfig chip;
    chip.hbm.stacks = 0;
    RunRecord record;
    record.chip = &chip;
    record.steps.push_back({3, 5 * kMs, 15 * kMs});
    appendHardwareSamples(traffic, record);
    ASSERT_FALSE(record.hardwareSamples.empty());
    for (const auto& sample : record.hardwareSamples) {
        EXPECT_TRUE(sample.hbmReadBytes.empty());
        EXPECT_EQ(sample.llcReadBytes.size(), 2u);
    }
    chip.hbm.stacks = 2;
    record.hardwareSamples.clear();
    appendHardwareSamples(traffic, record);
    EXPECT_EQ(record.hardwareSamples.back().hbmReadBytes, (std::vector<std::uint64_t>{2000, 2000}));
}

TEST(HardwareSamples, LlcReadBytesSplitOverThePortsByLines) {
    TrafficSampler traffic;
    TrafficBucket& bucket = traffic.bucketAt(2 * kMs * kPsPerNs);
    bucket.l2ReadBytes = 1001;
    bucket.l2ReadHits[0] = 2;
    bucket.l2ReadMisses[0] = 1;
    bucket.l2ReadHits[1] = 1;  // 3 lines on port 0, 1 on port 1
    RunRecord record;
    record.steps.push_back({0, 1 * kMs, 3 * kMs});
    appendHardwareSamples(traffic, record);
    ASSERT_EQ(record.hardwareSamples.size(), 2u);
    EXPECT_EQ(record.hardwareSamples[1].llcReadBytes, (std::vector<std::uint64_t>{751, 250}));
}

TEST(HardwareSamples, AStepShorterThanABucketStillGetsItsTraffic) {
    TrafficSampler traffic;
    const std::uint64_t startNs = 1 * kMs + 30'000;  // inside a 100 us bucket
    traffic.bucketAt((startNs + 10'000) * kPsPerNs).hbmReadBytes += 512;
    traffic.bucketAt((startNs + 10'000) * kPsPerNs).l2ReadHits[1] += 3;
    RunRecord record;
    record.steps.push_back({0, startNs, startNs + 50'000});
    appendHardwareSamples(traffic, record);
    ASSERT_EQ(record.hardwareSamples.size(), 2u);
    EXPECT_EQ(record.hardwareSamples[1].intervalNs, 50'000u);
    EXPECT_EQ(total(record.hardwareSamples[1].hbmReadBytes), 512u);
    EXPECT_EQ(record.hardwareSamples[1].llcReadHits[1], 3u);
}

TEST(HardwareSamples, AdjacentWindowsCountABucketOnce) {
    TrafficSampler traffic;
    traffic.bucketAt(2 * kMs * kPsPerNs + 1).hbmReadBytes += 100;  // bucket [2.0, 2.1) ms
    RunRecord record;
    record.steps.push_back({0, 1 * kMs, 2 * kMs + 20'000});
    record.steps.push_back({1, 2 * kMs + 50'000, 3 * kMs});  // starts in the same bucket
    appendHardwareSamples(traffic, record);
    EXPECT_EQ(hbmReadTotal(record), 100u);
    EXPECT_EQ(record.hardwareSamples.size(), 4u);  // two windows, two samples each
}

TEST(HardwareSamples, CollectedWithProfileMemoryOnNpuAtALevel) {
    ProfilerConfig config;
    config.profileMemory = true;
    config.level = ProfilerLevel::Level0;
    EXPECT_TRUE(collectsHardwareSamples(config));
    config.level = ProfilerLevel::LevelNone;
    EXPECT_FALSE(collectsHardwareSamples(config));
    config.level = ProfilerLevel::Level1;
    config.profileMemory = false;
    EXPECT_FALSE(collectsHardwareSamples(config));
}

}  // namespace
}  // namespace ascendsim

// HBM and LLC counter processes of the msprof timeline / trace_view, against the e5a31957 and
// c1e639ee trace_view samples (process 3096504 there, as in sampleRun).
#include "profiler/writers/timeline/hardware_sample_timeline.h"

#include <gtest/gtest.h>

#include <map>

#include "profiler/assembly/sample_run.h"
#include "profiler/writers/hardware_sample_test_support.h"
#include "profiler/writers/timeline/msprof_timeline.h"

namespace ascendsim {
namespace {

using testing_support::sampleRun;

constexpr std::uint64_t kMs = 1'000'000;

// A window of one zero sample and one 20 ms interval: 20 MiB read from HBM (5 MiB per stack),
// 4 MiB written, LLC 0 read 40 MiB with 3 of 4 lines hitting, LLC 1 read nothing.
RunRecord runWithSamples() {
    RunRecord run = sampleRun(1);
    const HardwareTrafficSample first = testing_support::emptyHardwareSample(1 * kMs);
    HardwareTrafficSample second = testing_support::emptyHardwareSample(21 * kMs);
    second.intervalNs = 20 * kMs;
    second.hbmReadBytes = {5 << 20, 5 << 20, 5 << 20, 5 << 20};
    second.hbmWriteBytes = {1 << 20, 1 << 20, 1 << 20, 1 << 20};
    second.llcReadHits = {3000, 0};
    second.llcReadMisses = {1000, 0};
    second.llcReadBytes = {40 << 20, 0};
    run.hardwareSamples = {first, second};
    return run;
}

ProfilerConfig memoryConfig(FormatVersion version) {
    ProfilerConfig config;
    config.formatVersion = version;
    config.profileMemory = true;
    return config;
}

const OrderedJson* findEvent(const std::vector<OrderedJson>& events, const std::string& name,
                             const char* ph) {
    for (const auto& e : events)
        if (e["name"] == name && e["ph"] == ph) return &e;
    return nullptr;
}

std::vector<const OrderedJson*> counters(const std::vector<OrderedJson>& events,
                                         const std::string& name) {
    std::vector<const OrderedJson*> found;
    for (const auto& e : events)
        if (e["ph"] == "C" && e["name"] == name) found.push_back(&e);
    return found;
}

// A chip without HBM stacks (310P3, LPDDR) samples LLC only: no HBM process, no HBM table.
TEST(HardwareSampleTimeline, NoHbmProcessWithoutHbmStacks) {
    RunRecord run = runWithSamples();
    for (auto& sample : run.hardwareSamples) {
        sample.hbmReadBytes.clear();
        sample.hbmWriteBytes.clear();
    }
    const auto processes = hardwareSampleCounterProcesses(run, memoryConfig(FormatVersion::Cann83));
    ASSERT_EQ(processes.size(), 1u);
    EXPECT_EQ(processes[0].name, "LLC");
}

TEST(HardwareSampleTimeline, ProcessesHaveTheSamplePidsAndSortIndexes) {
    const auto events = buildMsprofTimeline(runWithSamples(), memoryConfig(FormatVersion::Cann80));
    // e5a31957 level1 rank0: HBM pid 3170820640 (sort 17), LLC pid 3170820672 (sort 18).
    std::map<std::string, std::uint32_t> pidOf;
    for (const auto& e : events)
        if (e["name"] == "process_name")
            pidOf[e["args"]["name"].get<std::string>()] = e["pid"].get<std::uint32_t>();
    EXPECT_EQ(pidOf["HBM"], 3170820640u);
    EXPECT_EQ(pidOf["LLC"], 3170820672u);
    const auto* labels = findEvent(events, "process_labels", "M");
    ASSERT_NE(labels, nullptr);

    const auto era2024 =
        hardwareSampleCounterProcesses(runWithSamples(), memoryConfig(FormatVersion::Era2024));
    ASSERT_EQ(era2024.size(), 2u);
    EXPECT_EQ(era2024[0].sortIndex, 17u);  // c1e639ee: HBM 17, LLC 19
    EXPECT_EQ(era2024[1].sortIndex, 19u);
}

TEST(HardwareSampleTimeline, HbmSeriesPerStackInMegabytesPerSecond) {
    const auto events = buildMsprofTimeline(runWithSamples(), memoryConfig(FormatVersion::Cann80));
    const auto reads = counters(events, "HBM 2/Read");
    ASSERT_EQ(reads.size(), 2u);
    EXPECT_EQ(
        dumpPythonJson(*reads[0], false).find("\"args\": {\"Read(MB/s)\": 0.0}, \"ph\": \"C\"}") !=
            std::string::npos,
        true)
        << dumpPythonJson(*reads[0], false);
    EXPECT_DOUBLE_EQ((*reads[1])["args"]["Read(MB/s)"].get<double>(), 250.0);  // 5 MiB / 20 ms
    const auto writes = counters(events, "HBM 3/Write");
    ASSERT_EQ(writes.size(), 2u);
    EXPECT_DOUBLE_EQ((*writes[1])["args"]["Write(MB/s)"].get<double>(), 50.0);
}

TEST(HardwareSampleTimeline, LlcSeriesCarryThroughputAndHitRatio) {
    const auto events = buildMsprofTimeline(runWithSamples(), memoryConfig(FormatVersion::Cann80));
    const auto throughput = counters(events, "LLC 0 Read/Throughput");
    const auto hitRate = counters(events, "LLC 0 Read/Hit Rate");
    ASSERT_EQ(throughput.size(), 2u);
    ASSERT_EQ(hitRate.size(), 2u);
    EXPECT_DOUBLE_EQ((*throughput[1])["args"]["Throughput(MB/s)"].get<double>(), 2000.0);
    EXPECT_DOUBLE_EQ((*hitRate[1])["args"]["Hit Rate(%)"].get<double>(), 0.75);
    const auto idle = counters(events, "LLC 1 Read/Hit Rate");
    ASSERT_EQ(idle.size(), 2u);
    EXPECT_DOUBLE_EQ((*idle[1])["args"]["Hit Rate(%)"].get<double>(), 0.0);
}

TEST(HardwareSampleTimeline, CannEightThreeFollowsTheCppAssemblersOrder) {
    const auto processes =
        hardwareSampleCounterProcesses(runWithSamples(), memoryConfig(FormatVersion::Cann83));
    ASSERT_EQ(processes.size(), 2u);
    EXPECT_EQ(processes[0].sortIndex, 24u);
    EXPECT_EQ(processes[1].sortIndex, 27u);
    std::vector<std::string> hbmSeries, llcSeries;
    for (std::size_t i = 8; i < 16; ++i)
        hbmSeries.push_back(processes[0].points[i].series);  // second sample
    for (std::size_t i = 4; i < 8; ++i) llcSeries.push_back(processes[1].points[i].series);
    EXPECT_EQ(hbmSeries, (std::vector<std::string>{"HBM 0/Read", "HBM 1/Read", "HBM 2/Read",
                                                   "HBM 3/Read", "HBM 0/Write", "HBM 1/Write",
                                                   "HBM 2/Write", "HBM 3/Write"}));
    EXPECT_EQ(llcSeries,
              (std::vector<std::string>{"LLC 0 Read/Hit Rate", "LLC 0 Read/Throughput",
                                        "LLC 1 Read/Hit Rate", "LLC 1 Read/Throughput"}));
    EXPECT_STREQ(processes[1].points[4].argKey, "Hit Rate(%)");
    EXPECT_DOUBLE_EQ(processes[1].points[4].argValue, 0.75);
}

TEST(HardwareSampleTimeline, NothingWithoutProfileMemory) {
    ProfilerConfig config = memoryConfig(FormatVersion::Cann83);
    config.profileMemory = false;
    EXPECT_TRUE(hardwareSampleCounterProcesses(runWithSamples(), config).empty());
    const auto events = buildMsprofTimeline(runWithSamples(), config);
    EXPECT_TRUE(counters(events, "HBM 0/Read").empty());
}

}  // namespace
}  // namespace ascendsim

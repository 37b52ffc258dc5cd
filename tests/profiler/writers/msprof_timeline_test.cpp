#include "profiler/writers/timeline/msprof_timeline.h"

#include <gtest/gtest.h>

#include "profiler/assembly/sample_run.h"

namespace ascendsim {
namespace {

using testing_support::sampleRun;

const OrderedJson* findMeta(const std::vector<OrderedJson>& events, const std::string& name, const std::string& value) {
    for (const auto& e : events)
        if (e["name"] == name && e["args"].contains("name") && e["args"]["name"] == value) return &e;
    return nullptr;
}

std::uint32_t sortIndexOf(const std::vector<OrderedJson>& events, std::uint64_t pid) {
    for (const auto& e : events)
        if (e["name"] == "process_sort_index" && e["pid"] == pid) return e["args"]["sort_index"].get<std::uint32_t>();
    return 0;
}

TEST(MsprofTimeline, PidPacksProcessSortIndexAndDevice) {
    EXPECT_EQ(formatTracePid(3096504, 13, 0), 3170820512u);  // the MSI sample's Ascend Hardware pid
    EXPECT_EQ(formatTracePid(3096504, 7, 0), 3170820320u);   // and its CANN pid
}

TEST(MsprofTimeline, CurrentEraUsesTheCurrentSortIndexes) {
    ProfilerConfig config;
    const auto run = sampleRun(1);
    const auto events = buildMsprofTimeline(run, config);
    const auto* hw = findMeta(events, "process_name", "Ascend Hardware");
    const auto* cann = findMeta(events, "process_name", "CANN");
    const auto* overlap = findMeta(events, "process_name", "Overlap Analysis");
    ASSERT_TRUE(hw && cann && overlap);
    EXPECT_EQ(sortIndexOf(events, (*hw)["pid"]), 14u);
    EXPECT_EQ(sortIndexOf(events, (*cann)["pid"]), 7u);
    EXPECT_EQ(sortIndexOf(events, (*overlap)["pid"]), 31u);
    EXPECT_EQ((*cann)["pid"].get<std::uint32_t>() & 31u, 31u);  // host layers carry device 31
    EXPECT_EQ((*hw)["pid"].get<std::uint32_t>(), ascendHardwarePid(run, FormatVersion::Cann83));
}

TEST(MsprofTimeline, EarlyTwentyTwentyFiveEraMatchesTheMsiSample) {
    ProfilerConfig config;
    config.formatVersion = FormatVersion::Cann80;
    const auto run = sampleRun(1);
    const auto events = buildMsprofTimeline(run, config);
    const auto* hw = findMeta(events, "process_name", "Ascend Hardware");
    const auto* overlap = findMeta(events, "process_name", "Overlap Analysis");
    ASSERT_TRUE(hw && overlap);
    EXPECT_EQ((*hw)["pid"], 3170820512u);
    EXPECT_EQ(sortIndexOf(events, (*overlap)["pid"]), 23u);
    // Python msprof key order: name, pid, tid, args, ph for metadata.
    std::vector<std::string> keys;
    for (const auto& [k, v] : hw->items()) keys.push_back(k);
    EXPECT_EQ(keys, (std::vector<std::string>{"name", "pid", "tid", "args", "ph"}));
    for (const auto& e : events)
        if (e["name"] == "process_labels" && e["args"]["labels"] != "CPU") {
            EXPECT_EQ(e["args"]["labels"], "NPU");
        }
}

TEST(MsprofTimeline, HostToDeviceFlowIdsShiftTheConnectionIdInTheCurrentEra) {
    EXPECT_EQ(hostToDeviceFlowId(936, FormatVersion::Cann83), std::to_string(936ULL << 32));
    EXPECT_EQ(hostToDeviceFlowId(936, FormatVersion::Cann80), "936");
}

TEST(MsprofTimeline, FlowStartAndEndShareTheIdAndTheEndSitsOnTheKernel) {
    ProfilerConfig config;
    const auto run = sampleRun(1);
    const auto events = buildMsprofTimeline(run, config);
    for (const auto& k : run.kernels) {
        const std::string id = hostToDeviceFlowId(k.correlationId, config.formatVersion);
        int starts = 0, ends = 0;
        for (const auto& e : events) {
            if (e["name"] != "HostToDevice" + id) continue;
            if (e["ph"] == "s") ++starts;
            if (e["ph"] == "f") {
                ++ends;
                EXPECT_EQ(e["tid"], k.device.streamId);
                EXPECT_EQ(e["ts"], traceTimestamp(run, k.device.startNs));
                EXPECT_EQ(e["bp"], "e");
            }
        }
        EXPECT_EQ(starts, 1);
        EXPECT_EQ(ends, 1);
    }
}

TEST(MsprofTimeline, RuntimeApisOnlyAtLevel2) {
    ProfilerConfig config;
    config.level = ProfilerLevel::Level1;
    const auto run = sampleRun(1);
    auto count = [&run](const ProfilerConfig& c) {
        int n = 0;
        for (const auto& e : buildMsprofTimeline(run, c))
            if (e["name"].get<std::string>().starts_with("Runtime@")) ++n;
        return n;
    };
    EXPECT_EQ(count(config), 0);
    config.level = ProfilerLevel::Level2;
    EXPECT_EQ(count(config), static_cast<int>(run.kernels.size()));
}

TEST(MsprofTimeline, NothingAtLevelNone) {
    ProfilerConfig config;
    config.level = ProfilerLevel::LevelNone;
    EXPECT_TRUE(buildMsprofTimeline(sampleRun(1), config).empty());
}

TEST(MsprofTimeline, NpuMemCountersFollowTheAppMemorySamplesWithProfileMemory) {
    ProfilerConfig config;
    const auto run = sampleRun(2);
    auto countMemory = [&run](const ProfilerConfig& c) {
        int n = 0;
        for (const auto& e : buildMsprofTimeline(run, c)) {
            if (e["name"] != "APP/HBM") continue;
            ++n;
            EXPECT_EQ(e["args"]["KB"].get<double>(), static_cast<double>(run.appMemory[0].bytes) / 1024.0);
        }
        return n;
    };
    EXPECT_EQ(countMemory(config), 0);
    config.profileMemory = true;
    EXPECT_EQ(countMemory(config), static_cast<int>(run.appMemory.size()));
}

TEST(MsprofTimeline, AiCoreFreqCounterCarriesTheChipClock) {
    const auto events = buildMsprofTimeline(sampleRun(1), ProfilerConfig{});
    int counters = 0;
    for (const auto& e : events) {
        if (e["ph"] != "C" || e["name"] != "AI Core Freq") continue;
        ++counters;
        EXPECT_EQ(e["name"], "AI Core Freq");
        EXPECT_EQ(e["args"]["MHz"], 1800);
    }
    EXPECT_EQ(counters, 2);
}

// The 2024 910A traces (c1e639ee, every level) have no AI Core Freq process.
TEST(MsprofTimeline, Era2024HasNoAiCoreFreqCounter) {
    ProfilerConfig config;
    config.formatVersion = FormatVersion::Era2024;
    for (const auto& e : buildMsprofTimeline(sampleRun(1), config)) {
        EXPECT_NE(e.value("name", std::string()), "AI Core Freq");
        if (e.contains("args") && e["args"].contains("name")) {
            EXPECT_NE(e["args"]["name"], "AI Core Freq");
        }
    }
}

// Kernel "Task Type" per era and level, as the real traces show it: 8.0 (e5a31957) gives the SQE
// type AI_CORE to vector kernels at every level, the 2024 910A trace (c1e639ee) "Other", and the
// current msprof the compute type except at Level0, where there is none.
TEST(MsprofTimeline, KernelTaskTypeFollowsTheEraAndLevel) {
    ProfilerConfig config;
    config.level = ProfilerLevel::Level1;
    EXPECT_EQ(hardwareTaskTypeArg(TaskType::AiVectorCore, config), "AI_VECTOR_CORE");
    EXPECT_EQ(hardwareTaskTypeArg(TaskType::MixAiv, config), "MIX_AIV");
    config.level = ProfilerLevel::Level0;
    EXPECT_EQ(hardwareTaskTypeArg(TaskType::AiVectorCore, config), "AI_CORE");
    config.level = ProfilerLevel::Level1;
    config.formatVersion = FormatVersion::Cann80;
    EXPECT_EQ(hardwareTaskTypeArg(TaskType::AiVectorCore, config), "AI_CORE");
    EXPECT_EQ(hardwareTaskTypeArg(TaskType::MixAiv, config), "MIX_AIV");
    config.formatVersion = FormatVersion::Era2024;
    EXPECT_EQ(hardwareTaskTypeArg(TaskType::AiCore, config), "Other");
    EXPECT_EQ(hardwareTaskTypeArg(TaskType::AiCpu, config), "AI_CPU");
}

}  // namespace
}  // namespace ascendsim

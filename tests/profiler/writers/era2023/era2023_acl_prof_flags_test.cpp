// One test per profileConfig flag of an E2E collection: exactly its data appear or disappear in
// the 2023-era export (era2023_data_selection.h).
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "profiler/writers/communication_test_support.h"
#include "profiler/writers/era2023/e2e_test_config.h"
#include "profiler/writers/era2023/era2023_export.h"
#include "profiler/writers/timeline/msprof_timeline.h"
#include "support/scratch_dir.h"

namespace ascendsim {
namespace {

namespace fs = std::filesystem;
using namespace testing_support;

// The files of an export, relative to the PROF directory, and the msprof timeline's processes.
struct Export {
    std::set<std::string> files;
    std::set<std::string> processes;
};

RunRecord runWithAiCpuAndCollective(const ChipConfig& chip) {
    RunRecord run = runWithCollectives(chip);
    KernelRecord cpu = run.kernels.front();
    cpu.name = "Unique";
    cpu.device.type = TaskType::AiCpu;
    cpu.device.blocks.clear();
    run.kernels.push_back(cpu);
    // One AscendCL launch of the first kernel: the CANN (AscendCL) layer's data.
    ApiRecord launch;
    launch.level = ApiLevel::Acl;
    launch.name = "aclnnAdds";
    launch.startNs = 4000000;
    launch.endNs = 4010000;
    launch.threadId = 7;
    launch.connectionId = run.kernels.front().correlationId;
    run.apis.push_back(launch);
    return run;
}

Export exportWith(const AclProfFlags& flags, const std::string& tag) {
    static const ChipConfig chip = splitChip();
    const RunRecord run = runWithAiCpuAndCollective(chip);
    const ProfilerConfig config = e2eConfig(flags);
    const fs::path root = testing_scratch::scratchDir("era2023_flag_" + tag) / "PROF";
    fs::remove_all(root);
    fs::create_directories(root);
    writeEra2023Export(root, run, config, buildMsprofTimeline(run, config));
    Export out;
    for (const auto& entry : fs::recursive_directory_iterator(root))
        if (entry.is_regular_file()) out.files.insert(fs::relative(entry.path(), root).string());
    std::ifstream in(root / "device_0/timeline/msprof_0_1.json");
    std::stringstream text;
    text << in.rdbuf();
    for (const auto& event : nlohmann::json::parse(text.str()))
        if (event.value("name", "") == "process_name") out.processes.insert(event["args"]["name"].get<std::string>());
    fs::remove_all(root.parent_path());
    return out;
}

// The files and processes in `with` that are not in `without`.
std::set<std::string> added(const std::set<std::string>& with, const std::set<std::string>& without) {
    std::set<std::string> diff;
    for (const auto& item : with)
        if (without.count(item) == 0) diff.insert(item);
    return diff;
}

using Strings = std::set<std::string>;

TEST(AclProfFlags, DefaultsCollectTaskTimeApiAiCpuAndHcclButNoL2CacheOrStepTrace) {
    const Export e = exportWith(AclProfFlags{}, "defaults");
    EXPECT_TRUE(e.processes.count("CANN"));
    EXPECT_TRUE(e.processes.count("Task Scheduler"));
    EXPECT_TRUE(e.processes.count("HCCL"));
    EXPECT_TRUE(e.processes.count("AI CPU"));
    EXPECT_TRUE(e.files.count("device_0/summary/op_summary_0_1.csv"));
    EXPECT_TRUE(e.files.count("device_0/summary/aicpu_0_1.csv"));
    EXPECT_FALSE(e.files.count("device_0/summary/l2_cache_0_1.csv"));
    EXPECT_FALSE(e.files.count("device_0/summary/step_trace_0_1.csv"));
}

TEST(AclProfFlags, AclApiIsTheAscendClLayer) {
    AclProfFlags off;
    off.aclApi = false;
    const Export with = exportWith(AclProfFlags{}, "api_on"), without = exportWith(off, "api_off");
    EXPECT_EQ(added(with.processes, without.processes), (Strings{"CANN"}));
    EXPECT_EQ(with.files, without.files);
}

TEST(AclProfFlags, TaskTimeIsTheTaskSchedulerLayerAndTheOperatorSummaries) {
    AclProfFlags off;
    off.taskTime = false;
    const Export with = exportWith(AclProfFlags{}, "tt_on"), without = exportWith(off, "tt_off");
    EXPECT_EQ(added(with.processes, without.processes), (Strings{"Task Scheduler"}));
    EXPECT_EQ(added(with.files, without.files),
              (Strings{"device_0/summary/op_summary_0_1.csv", "device_0/summary/op_statistic_0_1.csv",
                       "device_0/summary/task_time_0_1.csv", "device_0/timeline/task_time_0_1.json"}));
}

TEST(AclProfFlags, AiCpuIsTheAiCpuSummaryAndTheAiCpuLayer) {
    AclProfFlags off;
    off.aicpu = false;
    const Export with = exportWith(AclProfFlags{}, "cpu_on"), without = exportWith(off, "cpu_off");
    EXPECT_EQ(added(with.files, without.files), (Strings{"device_0/summary/aicpu_0_1.csv"}));
    EXPECT_EQ(added(with.processes, without.processes), (Strings{"AI CPU"}));
    EXPECT_TRUE(added(without.processes, with.processes).empty());
}

TEST(AclProfFlags, AiCpuWithoutTaskTimeKeepsTheAiCpuLayerAlone) {
    AclProfFlags cpuOnly;
    cpuOnly.taskTime = false;
    AclProfFlags neither = cpuOnly;
    neither.aicpu = false;
    const Export with = exportWith(cpuOnly, "cpu_only"), without = exportWith(neither, "neither");
    EXPECT_EQ(added(with.processes, without.processes), (Strings{"AI CPU"}));
    EXPECT_EQ(with.processes.count("Task Scheduler"), 0u);
}

TEST(AclProfFlags, L2CacheIsTheL2CacheSummary) {
    AclProfFlags on;
    on.l2cache = true;
    const Export with = exportWith(on, "l2_on"), without = exportWith(AclProfFlags{}, "l2_off");
    EXPECT_EQ(added(with.files, without.files), (Strings{"device_0/summary/l2_cache_0_1.csv"}));
    EXPECT_TRUE(added(without.files, with.files).empty());
}

TEST(AclProfFlags, HcclTraceIsTheHcclLayerAndTheCommunicationAnalysis) {
    AclProfFlags off;
    off.hcclTrace = false;
    const Export with = exportWith(AclProfFlags{}, "hccl_on"), without = exportWith(off, "hccl_off");
    EXPECT_EQ(added(with.processes, without.processes), (Strings{"HCCL"}));
    EXPECT_EQ(added(with.files, without.files),
              (Strings{"analyze/communication.json", "analyze/communication_matrix.json"}));
}

TEST(AclProfFlags, TrainingTraceIsTheStepTrace) {
    AclProfFlags on;
    on.trainingTrace = true;
    const Export with = exportWith(on, "trace_on"), without = exportWith(AclProfFlags{}, "trace_off");
    EXPECT_EQ(added(with.files, without.files),
              (Strings{"device_0/summary/step_trace_0_1.csv", "device_0/timeline/step_trace_0_1.json"}));
}

TEST(AclProfFlags, AicoreMetricsOffLeavesTheMetricColumnsOut) {
    static const ChipConfig chip = splitChip();
    const RunRecord run = runWithAiCpuAndCollective(chip);
    AclProfFlags off;
    off.aicoreMetrics = false;
    const fs::path a = testing_scratch::scratchDir("era2023_metrics") / "on";
    const fs::path b = a.parent_path() / "off";
    fs::create_directories(a);
    fs::create_directories(b);
    writeEra2023Export(a, run, e2eConfig(AclProfFlags{}), {});
    writeEra2023Export(b, run, e2eConfig(off), {});
    const auto header = [](const fs::path& p) {
        std::ifstream in(p / "device_0/summary/op_summary_0_1.csv");
        std::string line;
        std::getline(in, line);
        return line;
    };
    EXPECT_NE(header(a).find("mac_ratio"), std::string::npos);
    EXPECT_EQ(header(b).find("mac_ratio"), std::string::npos);
    fs::remove_all(a.parent_path());
}

}  // namespace
}  // namespace ascendsim

// Which files `ascendsim` writes per profiler level and switch (formats.md §1.1, §1.6 and
// real-profiles/README.md "Which files each level/export produced"), and the kernel_details header
// of every aic_metrics group (formats.md §3.1; the PipeUtilization header is also compared with the
// real CANN 8.3.RC1 sample when shared/ is beside the repository).
#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "sim/engine/e2e_support.h"

namespace ascendsim::e2e {
namespace {

using Names = std::vector<std::string>;

// One run of a small workload; returns the *_ascend_pt directory (the TempDir keeps it alive).
fs::path runInto(const TempDir& out, SimulationOptions options) {
    const auto outcome = runCommand(options);
    EXPECT_EQ(outcome.exitCode, 0) << outcome.err;
    return onlyProfilerDir(out.path());
}

SimulationOptions smallChain(const TempDir& out, const std::string& level) {
    auto options = commandOptions(unitWorkload("elementwise_chain.yaml"), out.path());
    options.setOverrides = {"batch=8", "cols=256"};
    options.level = level;
    return options;
}

Names outputFiles(const fs::path& ptDir) { return fileNames(ptDir / "ASCEND_PROFILER_OUTPUT"); }

Names sorted(Names names) {
    std::sort(names.begin(), names.end());
    return names;
}

// Default experimental config: text export, CPU+NPU activities, no profile_memory, no l2_cache,
// one rank (so no communication*.json).
const Names kLevelNoneFiles = {"analyse.done", "operator_details.csv", "trace_view.json"};
// task_time.csv at Level0/1/2 as formats.md §1.6 lists it (torch_npu LEVEL_PARSER_CONFIG), although
// no real sample has one; --task-time-csv false gives the samples' sets.
const Names kLevel0Files = {"analyse.done",        "kernel_details.csv", "operator_details.csv",
                            "step_trace_time.csv", "task_time.csv",      "trace_view.json"};
const Names kLevel1Files = {"analyse.done",        "api_statistic.csv", "kernel_details.csv",
                            "op_statistic.csv",    "operator_details.csv", "step_trace_time.csv",
                            "task_time.csv",       "trace_view.json"};

Names without(Names names, const std::string& name) {
    names.erase(std::remove(names.begin(), names.end(), name), names.end());
    return names;
}

TEST(OutputFiles, LevelNone_OnlyFrameworkViewsAndTrace) {
    TempDir out;
    EXPECT_EQ(outputFiles(runInto(out, smallChain(out, "Level_none"))), sorted(kLevelNoneFiles));
}

TEST(OutputFiles, Level0_AddsKernelDetailsAndStepTrace) {
    TempDir out;
    EXPECT_EQ(outputFiles(runInto(out, smallChain(out, "Level0"))), sorted(kLevel0Files));
}

TEST(OutputFiles, Level1_AddsOpAndApiStatistics) {
    TempDir out;
    EXPECT_EQ(outputFiles(runInto(out, smallChain(out, "Level1"))), sorted(kLevel1Files));
}

TEST(OutputFiles, TaskTimeSwitchOff_GivesTheRealSamplesFileSetAtEveryLevel) {
    for (const char* level : {"Level0", "Level1", "Level2"}) {
        TempDir out;
        auto options = smallChain(out, level);
        options.taskTimeCsv = false;
        const Names expected = std::string(level) == "Level0" ? kLevel0Files : kLevel1Files;
        EXPECT_EQ(outputFiles(runInto(out, options)), sorted(without(expected, "task_time.csv"))) << level;
    }
}

TEST(OutputFiles, Cann80Level0_HasTaskTime) {
    TempDir out;
    auto options = smallChain(out, "Level0");
    options.formatVersion = "8.0";
    EXPECT_EQ(outputFiles(runInto(out, options)), sorted(kLevel0Files));
}

// activities=[CPU]: no CANN collection, so none of the CANN-derived files (formats.md §1.6).
TEST(OutputFiles, CpuActivityOnly_OnlyFrameworkViewsAndTrace) {
    TempDir out, scratch;
    const fs::path workload = scratch.path() / "cpu_only.yaml";
    std::ofstream(workload) << readFile(unitWorkload("elementwise_chain.yaml"))
                            << "profiler: {activities: [CPU]}\n";
    auto options = commandOptions(workload, out.path());
    options.setOverrides = {"batch=8", "cols=256"};
    options.level = "Level1";
    EXPECT_EQ(outputFiles(runInto(out, options)), sorted(kLevelNoneFiles));
}

// activities=[NPU]: every device view, but no framework view, no FRAMEWORK/ and no Step Id (the
// step ranges come from the framework's ProfilerStep ops).
TEST(OutputFiles, NpuActivityOnly_DeviceViewsOfEveryKernelWithoutFrameworkViews) {
    TempDir out, scratch;
    const fs::path workload = scratch.path() / "npu_only.yaml";
    std::ofstream(workload) << readFile(unitWorkload("elementwise_chain.yaml")) << "profiler: {activities: [NPU]}\n";
    auto options = commandOptions(workload, out.path());
    options.setOverrides = {"batch=8", "cols=256"};
    options.level = "Level1";
    const fs::path dir = runInto(out, options);
    EXPECT_EQ(outputFiles(dir), sorted(without(kLevel1Files, "operator_details.csv")));
    EXPECT_FALSE(fs::exists(dir / "FRAMEWORK"));
    const CsvTable kernels = readCsv(dir / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv");
    EXPECT_EQ(kernels.rows.size(), 4u);  // Add, Relu, Mul, Cast
    EXPECT_EQ(std::count(kernels.header.begin(), kernels.header.end(), "Step Id"), 0);
}

// One builder, two destinations: the copy is CANN's task_time_{ts}.csv byte for byte.
TEST(OutputFiles, TaskTimeCopy_EqualsCannsTaskTimeByteForByte) {
    for (const char* level : {"Level0", "Level2"}) {
        TempDir out;
        auto options = smallChain(out, level);
        options.dataSimplification = false;
        const fs::path dir = runInto(out, options);
        fs::path cannFile;
        for (const auto& entry : fs::recursive_directory_iterator(dir))
            if (entry.path().filename().string().starts_with("task_time_")) cannFile = entry.path();
        ASSERT_FALSE(cannFile.empty()) << level << ": no PROF_*/mindstudio_profiler_output/task_time_*.csv";
        EXPECT_EQ(cannFile.parent_path().filename(), "mindstudio_profiler_output");
        const std::string copy = readFile(dir / "ASCEND_PROFILER_OUTPUT" / "task_time.csv");
        EXPECT_FALSE(copy.empty());
        EXPECT_EQ(copy, readFile(cannFile)) << level;
    }
}

// The 2024-era Level1 sample (msinsight c1e639ee, 910A) has no op/api statistics: torch_npu
// then copied no CANN summary (so no task_time.csv either).
// Each CANN summary torch_npu copies into ASCEND_PROFILER_OUTPUT is the mindstudio_profiler_output
// file (data_simplification=False) byte for byte: issue 4 "consistent with the copies".
TEST(OutputFiles, CannCopies_EqualTheirMindstudioSummaries) {
    const std::vector<std::pair<std::string, std::string>> copies = {
        {"op_statistic_", "op_statistic.csv"}, {"api_statistic_", "api_statistic.csv"},
        {"task_time_", "task_time.csv"},       {"l2_cache_", "l2_cache.csv"},
        {"aicpu_", "data_preprocess.csv"}};
    TempDir out;
    std::set<std::string> compared;
    for (const char* workload : {"matmul.yaml", "aicpu_topk.yaml"}) {
        auto options = commandOptions(unitWorkload(workload), out.path() / workload);
        if (std::string(workload) == "aicpu_topk.yaml") options.setOverrides = {"batch=2", "length=64"};
        options.level = "Level2";
        options.l2Cache = true;
        options.dataSimplification = false;
        fs::create_directories(options.outputParent);
        const auto outcome = runCommand(options);
        ASSERT_EQ(outcome.exitCode, 0) << outcome.err;
        const fs::path dir = onlyProfilerDir(options.outputParent);
        const Names written = outputFiles(dir);
        for (const auto& entry : fs::recursive_directory_iterator(dir)) {
            const std::string name = entry.path().filename().string();
            for (const auto& [prefix, copy] : copies) {
                if (!name.starts_with(prefix) || !name.ends_with(".csv")) continue;
                ASSERT_NE(std::find(written.begin(), written.end(), copy), written.end()) << workload << ": " << copy;
                EXPECT_EQ(readFile(dir / "ASCEND_PROFILER_OUTPUT" / copy), readFile(entry.path())) << workload << ": " << copy;
                compared.insert(copy);
            }
        }
    }
    EXPECT_EQ(compared.size(), copies.size());
}

TEST(OutputFiles, Era2024Level1_HasNoStatistics) {
    TempDir out;
    auto options = smallChain(out, "Level1");
    options.formatVersion = "2024";
    const Names files = outputFiles(runInto(out, options));
    EXPECT_EQ(std::count(files.begin(), files.end(), "op_statistic.csv"), 0);
    EXPECT_EQ(std::count(files.begin(), files.end(), "api_statistic.csv"), 0);
    EXPECT_EQ(std::count(files.begin(), files.end(), "task_time.csv"), 0);
    EXPECT_EQ(std::count(files.begin(), files.end(), "kernel_details.csv"), 1);
}

TEST(OutputFiles, Level2_WithoutAiCpuOps_SameAsLevel1) {
    TempDir out;
    EXPECT_EQ(outputFiles(runInto(out, smallChain(out, "Level2"))), sorted(kLevel1Files));
}

TEST(OutputFiles, Level2_WithAiCpuOp_AddsDataPreprocess) {
    TempDir out;
    auto options = commandOptions(unitWorkload("aicpu_topk.yaml"), out.path());
    options.setOverrides = {"batch=2", "length=64"};
    options.level = "Level2";
    Names expected = kLevel1Files;
    expected.push_back("data_preprocess.csv");
    EXPECT_EQ(outputFiles(runInto(out, options)), sorted(expected));
}

TEST(OutputFiles, Level1_WithAiCpuOp_HasNoDataPreprocess) {
    TempDir out;
    auto options = commandOptions(unitWorkload("aicpu_topk.yaml"), out.path());
    options.setOverrides = {"batch=2", "length=64"};
    options.level = "Level1";
    EXPECT_EQ(outputFiles(runInto(out, options)), sorted(kLevel1Files));
}

TEST(OutputFiles, L2CacheSwitch_AddsL2CacheCsv) {
    TempDir out;
    auto options = smallChain(out, "Level1");
    options.l2Cache = true;
    Names expected = kLevel1Files;
    expected.push_back("l2_cache.csv");
    EXPECT_EQ(outputFiles(runInto(out, options)), sorted(expected));
}

TEST(OutputFiles, DbExport_AddsProfilerAndAnalysisDatabases) {
    TempDir out;
    auto options = smallChain(out, "Level0");
    options.exportType = "text,db";
    Names expected = kLevel0Files;
    expected.push_back("analysis.db");
    expected.push_back("ascend_pytorch_profiler.db");  // rank_id -1: no rank suffix
    EXPECT_EQ(outputFiles(runInto(out, options)), sorted(expected));
}

TEST(OutputFiles, TopDirectory_HasInfoMetadataFrameworkLogsAndOneProfDir) {
    TempDir out;
    const fs::path dir = runInto(out, smallChain(out, "Level1"));
    // {worker}_{pid}_{17-digit timestamp}_ascend_pt (formats.md §1.1)
    EXPECT_TRUE(std::regex_match(dir.filename().string(), std::regex(R"(.+_[0-9]+_[0-9]{17}_ascend_pt)")))
        << dir.filename();
    std::set<std::string> names;
    std::size_t profDirs = 0;
    for (const auto& name : fileNames(dir)) {
        if (std::regex_match(name, std::regex(R"(PROF_[0-9]+_[0-9]+_[0-9A-Z]+)"))) ++profDirs;
        else names.insert(name);
    }
    EXPECT_EQ(profDirs, 1u);
    EXPECT_EQ(names, (std::set<std::string>{"ASCEND_PROFILER_OUTPUT", "FRAMEWORK", "logs", "profiler_info.json",
                                            "profiler_metadata.json"}));
}

// --- kernel_details headers per aic_metrics group (formats.md §3.1, CANN 8.3 / A2 chips) ---

const std::string kLevel1BaseHeader =
    "Step Id,Device_id,Model ID,Task ID,Stream ID,Name,Type,OP State,Accelerator Core,Start Time(us),"
    "Duration(us),Wait Time(us),Block Dim,Mix Block Dim,HF32 Eligible,Input Shapes,Input Data Types,"
    "Input Formats,Output Shapes,Output Data Types,Output Formats,Context ID";

struct MetricsHeader {
    const char* group;    // --aic-metrics value
    const char* pmuTail;  // columns after Context ID ("" for None)
};

const MetricsHeader kMetricsHeaders[] = {
    {"None", ""},
    {"PipeUtilization",
     "aicore_time(us),aic_total_cycles,aic_mac_time(us),aic_mac_ratio,aic_scalar_time(us),aic_scalar_ratio,"
     "aic_mte1_time(us),aic_mte1_ratio,aic_mte2_time(us),aic_mte2_ratio,aic_fixpipe_time(us),aic_fixpipe_ratio,"
     "aic_icache_miss_rate,aiv_time(us),aiv_total_cycles,aiv_vec_time(us),aiv_vec_ratio,aiv_scalar_time(us),"
     "aiv_scalar_ratio,aiv_mte2_time(us),aiv_mte2_ratio,aiv_mte3_time(us),aiv_mte3_ratio,aiv_icache_miss_rate,"
     "cube_utilization(%)"},
    {"ArithmeticUtilization",
     "aicore_time(us),aic_total_cycles,aic_mac_fp16_ratio,aic_mac_int8_ratio,aic_cube_fops,aiv_time(us),"
     "aiv_total_cycles,aiv_vec_fp32_ratio,aiv_vec_fp16_ratio,aiv_vec_int32_ratio,aiv_vec_misc_ratio,aiv_vector_fops"},
    {"Memory",
     "aicore_time(us),aic_total_cycles,aic_l1_read_bw(GB/s),aic_l1_write_bw(GB/s),aic_main_mem_read_bw(GB/s),"
     "aic_main_mem_write_bw(GB/s),aic_l2_read_bw(GB/s),aic_l2_write_bw(GB/s),aiv_time(us),aiv_total_cycles,"
     "aiv_ub_read_bw(GB/s),aiv_ub_write_bw(GB/s),aiv_main_mem_read_bw(GB/s),aiv_main_mem_write_bw(GB/s),"
     "aiv_l2_read_bw(GB/s),aiv_l2_write_bw(GB/s)"},
    {"MemoryL0",
     "aicore_time(us),aic_total_cycles,aic_l0a_read_bw(GB/s),aic_l0a_write_bw(GB/s),aic_l0b_read_bw(GB/s),"
     "aic_l0b_write_bw(GB/s),aic_l0c_read_bw_cube(GB/s),aic_l0c_write_bw_cube(GB/s),aiv_time(us),aiv_total_cycles,"
     "aiv_l0c_read_bw(GB/s),aiv_l0c_write_bw(GB/s)"},
    {"ResourceConflictRatio",
     "aicore_time(us),aic_total_cycles,aiv_time(us),aiv_total_cycles,aiv_vec_bankgroup_cflt_ratio,"
     "aiv_vec_bank_cflt_ratio,aiv_vec_resc_cflt_ratio"},
    {"MemoryUB",
     "aicore_time(us),aic_total_cycles,aic_ub_read_bw_scalar(GB/s),aic_ub_write_bw_scalar(GB/s),aiv_time(us),"
     "aiv_total_cycles,aiv_ub_read_bw_vector(GB/s),aiv_ub_write_bw_vector(GB/s),aiv_ub_read_bw_scalar(GB/s),"
     "aiv_ub_write_bw_scalar(GB/s)"},
    {"L2Cache",
     "aicore_time(us),aic_total_cycles,aic_write_cache_hit,aic_write_cache_miss_allocate,aic_r0_read_cache_hit,"
     "aic_r0_read_cache_miss_allocate,aic_r1_read_cache_hit,aic_r1_read_cache_miss_allocate,aiv_time(us),"
     "aiv_total_cycles,aiv_write_cache_hit,aiv_write_cache_miss_allocate,aiv_r0_read_cache_hit,"
     "aiv_r0_read_cache_miss_allocate,aiv_r1_read_cache_hit,aiv_r1_read_cache_miss_allocate"},
    {"MemoryAccess",
     "aicore_time(us),aic_total_cycles,aic_read_main_memory_datas(KB),aic_write_main_memory_datas(KB),"
     "aic_GM_to_L1_datas(KB),aic_L0C_to_L1_datas(KB),aic_L0C_to_GM_datas(KB),aic_GM_to_UB_datas(KB),"
     "aic_UB_to_GM_datas(KB),aiv_time(us),aiv_total_cycles,aiv_read_main_memory_datas(KB),"
     "aiv_write_main_memory_datas(KB),aiv_GM_to_L1_datas(KB),aiv_L0C_to_L1_datas(KB),aiv_L0C_to_GM_datas(KB),"
     "aiv_GM_to_UB_datas(KB),aiv_UB_to_GM_datas(KB)"},
};

std::string expectedLevel1Header(const MetricsHeader& h) {
    return std::string(*h.pmuTail ? kLevel1BaseHeader + "," + h.pmuTail : kLevel1BaseHeader);
}

std::string firstLine(const fs::path& file) {
    const std::string text = readFile(file);
    std::string line = text.substr(0, text.find('\n'));
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return line;
}

class KernelDetailsHeader : public ::testing::TestWithParam<MetricsHeader> {};

TEST_P(KernelDetailsHeader, Level1_MatchesFormatsSpecAndEveryRowHasItsWidth) {
    TempDir out;
    auto options = commandOptions(unitWorkload("matmul.yaml"), out.path());
    options.setOverrides = {"m=64", "k=64", "n=64"};
    options.level = "Level1";
    options.aicMetrics = GetParam().group;
    const fs::path file = runInto(out, options) / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv";
    EXPECT_EQ(firstLine(file), expectedLevel1Header(GetParam()));
    const CsvTable table = readCsv(file);
    ASSERT_FALSE(table.rows.empty());
    for (const auto& row : table.rows) EXPECT_EQ(row.size(), table.header.size());
}

INSTANTIATE_TEST_SUITE_P(AicMetricsGroups, KernelDetailsHeader, ::testing::ValuesIn(kMetricsHeaders),
                         [](const auto& testParam) { return std::string(testParam.param.group); });

TEST(KernelDetailsHeaderSample, PipeUtilizationExpectation_EqualsRealCann83Sample) {
    const fs::path sample = sourceDir().parent_path() / "shared/reference/real-profiles/msinsight/ef63bc64/test/st/"
                                                        "level2/rank_0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv";
    if (!fs::exists(sample)) GTEST_SKIP() << "real sample not found at " << sample;
    EXPECT_EQ(firstLine(sample), expectedLevel1Header(kMetricsHeaders[1]));
}

TEST(KernelDetailsHeaderLevel0, EightColumnsAfterStepId) {
    TempDir out;
    const fs::path dir = runInto(out, smallChain(out, "Level0"));
    EXPECT_EQ(firstLine(dir / "ASCEND_PROFILER_OUTPUT" / "kernel_details.csv"),
              "Step Id,Device_id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim");
}

}  // namespace
}  // namespace ascendsim::e2e

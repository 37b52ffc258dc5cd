#include "profiler/writers/tree/prof_tree.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <unistd.h>

#include "profiler/writers/csv_table_test_support.h"

namespace ascendsim {
namespace {

using namespace testing_support;
namespace fs = std::filesystem;

std::string readFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

ProfTreeNames names(const RunRecord& run) {
    return {1, "20251127203437073", profDirectorySuffix(run), "20251127203512"};
}

class ProfTree : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("ascendsim_prof_tree_" + std::to_string(::getpid()));
        fs::remove_all(dir_);
        fs::create_directories(dir_);
        chip_.aiCpu.count = 7;
        chip_.hwtsFreqMhz = 100.0;
        run_ = threeKernelRun(chip_);
        run_.processId = 4242;
        run_.hostName = "node1";
        run_.endNs = 10000000;
        run_.apis.push_back({ApiLevel::Acl, "aclnnAdd", 100, 900, 1, 0});
    }
    void TearDown() override { fs::remove_all(dir_); }
    fs::path dir_;
    ChipConfig chip_ = splitChip();
    RunRecord run_;
};

TEST_F(ProfTree, DirectoryNameMatchesTheParsersRegexes) {
    const std::string name = profDirectoryName(names(run_));
    EXPECT_TRUE(std::regex_match(name, std::regex("PROF_\\d{6}_\\d{17}_[0-9A-Z]+")));
    EXPECT_TRUE(std::regex_match(name, std::regex("PROF_\\d{1,10}_\\d{1,20}_[A-Z0-9]{5,20}")));
    EXPECT_EQ(profDirectorySuffix(run_), profDirectorySuffix(run_));
    RunRecord other = run_;
    other.processId = 4243;
    EXPECT_NE(profDirectorySuffix(other), profDirectorySuffix(run_));
}

TEST_F(ProfTree, HostAndDeviceMetadataFilesExistWithDeviceInfoFromTheChip) {
    ProfilerConfig config;
    const fs::path root = writeProfTree(dir_, run_, config, names(run_));
    for (const char* file : {"host/info.json", "host/start_info", "host/end_info", "host/sample.json",
                             "host/host_start.log", "device_0/info.json.0", "device_0/start_info.0",
                             "device_0/end_info.0", "device_0/sample.json", "device_0/dev_start.log.0"}) {
        EXPECT_TRUE(fs::exists(root / file)) << file;
    }
    EXPECT_FALSE(fs::exists(root / "mindstudio_profiler_output"));  // data_simplification default

    const auto info = nlohmann::json::parse(readFile(root / "device_0/info.json.0"));
    const auto& d = info["DeviceInfo"][0];
    EXPECT_EQ(d["ai_core_num"], 20);
    EXPECT_EQ(d["aiv_num"], 40);
    EXPECT_EQ(d["ai_cpu_core_num"], 7);
    EXPECT_EQ(d["aicpu_occupy_bitmap"], 254);
    EXPECT_EQ(d["aic_frequency"], "1650");
    EXPECT_EQ(d["hwts_frequency"], "100");
    EXPECT_EQ(info["pid"], "4242");
    // Key order and Python separators as the msprof example; the host is msprof's device 64
    // (HOST_ID), in info.json and sample.json alike.
    EXPECT_EQ(readFile(root / "host/info.json").rfind("{\"jobInfo\": \"NA\", \"devices\": \"64\", \"CPU\": [", 0), 0u);
    EXPECT_EQ(nlohmann::json::parse(readFile(root / "host/sample.json"))["devices"], "64");
    EXPECT_EQ(nlohmann::json::parse(readFile(root / "device_0/sample.json"))["devices"], "0");
}

TEST_F(ProfTree, StartInfoTiesWallClockToMonotonicLikeProfilerInfo) {
    const auto start = nlohmann::json::parse(renderStartInfo(run_, 0));
    const std::int64_t wallUs = std::stoll(start["collectionTimeBegin"].get<std::string>());
    const std::int64_t monotonic = std::stoll(start["clockMonotonicRaw"].get<std::string>());
    EXPECT_EQ(wallUs * 1000 - monotonic, static_cast<std::int64_t>(run_.epochNs) - 1'000'000'000'000LL);
}

TEST_F(ProfTree, SampleJsonNamesTheGroupAndItsEvents) {
    ProfilerConfig config;
    config.level = ProfilerLevel::Level2;
    const auto sample = nlohmann::json::parse(renderSampleJson(run_, config, "PROF_x/device_0/"));
    // The AIC side's PipeUtilization events are msprof's PipeUtilizationExct set; the AIV side
    // programs all eight classic events (its mac/mte1 read 0).
    EXPECT_EQ(sample["ai_core_metrics"], "PipeUtilizationExct");
    EXPECT_EQ(sample["aiv_metrics"], "PipeUtilization");
    EXPECT_EQ(sample["aiv_profiling_events"], "0x8,0xa,0x9,0xb,0xc,0xd,0x54,0x55");
    EXPECT_EQ(sample["ai_core_profiling_events"], "0x416,0x417,0x9,0x302,0xc,0x303,0x54,0x55");
    EXPECT_EQ(sample["runtimeApi"], "on");
    // The 910A PipeUtilization event set of the msprof example sample.json.
    const ChipConfig coupled = coupledChip();
    RunRecord run910a = run_;
    run910a.chip = &coupled;
    const auto sample910a = nlohmann::json::parse(renderSampleJson(run910a, config, "PROF_x/device_0/"));
    EXPECT_EQ(sample910a["ai_core_profiling_events"], "0x8,0xa,0x9,0xb,0xc,0xd,0x54,0x55");
}

TEST_F(ProfTree, WithoutDataSimplificationTheSummariesAreExported) {
    ProfilerConfig config;
    config.level = ProfilerLevel::Level1;
    config.dataSimplification = false;
    const fs::path root = writeProfTree(dir_, run_, config, names(run_), std::string("[]"));
    const fs::path out = root / "mindstudio_profiler_output";
    for (const char* file : {"op_summary_20251127203512.csv", "op_statistic_20251127203512.csv",
                             "task_time_20251127203512.csv", "api_statistic_20251127203512.csv",
                             "msprof_20251127203512.json"}) {
        EXPECT_TRUE(fs::exists(out / file)) << file;
    }
    EXPECT_FALSE(fs::exists(out / "l2_cache_20251127203512.csv"));  // l2_cache off
    EXPECT_EQ(readFile(out / "msprof_20251127203512.json"), "[]");
    EXPECT_EQ(firstLine(readFile(out / "op_statistic_20251127203512.csv")),
              "Device_id,OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max Time(us),Ratio(%)");
}

TEST_F(ProfTree, TheExportKeepsItsLogListingEveryFileItWrote) {
    ProfilerConfig config;
    config.level = ProfilerLevel::Level1;
    config.dataSimplification = false;
    const fs::path root = writeProfTree(dir_, run_, config, names(run_), std::string("[]"));
    const std::string host = readFile(root / "mindstudio_profiler_log/collection_host.log");
    const std::string device = readFile(root / "mindstudio_profiler_log/collection_device_0.log");
    // msprof's line form, stamped with the collection's end in local time.
    EXPECT_EQ(host.rfind("2025-11-27 ", 0), 0u) << host;
    EXPECT_NE(host.find(" [INFO] [ascendsim export] - Host data: " + std::to_string(run_.apis.size()) +
                        " API records"),
              std::string::npos)
        << host;
    // Every exported file is named with its size, and nothing else is.
    std::size_t listed = 0;
    for (const auto& entry : fs::directory_iterator(root / "mindstudio_profiler_output")) {
        const std::string line = "Wrote mindstudio_profiler_output/" + entry.path().filename().string() + ", " +
                                 std::to_string(fs::file_size(entry.path())) + " bytes.";
        EXPECT_NE(device.find(line), std::string::npos) << line << "\n" << device;
        ++listed;
    }
    EXPECT_GT(listed, 0u);
    std::size_t wrote = 0;
    for (std::size_t at = device.find("Wrote "); at != std::string::npos; at = device.find("Wrote ", at + 1)) ++wrote;
    EXPECT_EQ(wrote, listed);
}

TEST_F(ProfTree, SimplifiedTreesHaveNoExportLog) {
    ProfilerConfig config;
    const fs::path root = writeProfTree(dir_, run_, config, names(run_));
    EXPECT_FALSE(fs::exists(root / "mindstudio_profiler_log"));
}

TEST_F(ProfTree, SameRunSameBytes) {
    ProfilerConfig config;
    config.dataSimplification = false;
    const fs::path a = writeProfTree(dir_ / "a", run_, config, names(run_));
    const fs::path b = writeProfTree(dir_ / "b", run_, config, names(run_));
    for (const auto& entry : fs::recursive_directory_iterator(a)) {
        if (!entry.is_regular_file()) continue;
        const fs::path relative = fs::relative(entry.path(), a);
        EXPECT_EQ(readFile(entry.path()), readFile(b / relative)) << relative;
    }
}

}  // namespace
}  // namespace ascendsim

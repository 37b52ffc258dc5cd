// record_op_args (profiler/writers/op_args): CANN's op-info files as hicann/opbase's
// op_info_serialize.cpp names, filters, deduplicates and numbers them.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "profiler/writers/csv_table_test_support.h"
#include "profiler/writers/op_args/op_args_files.h"

namespace ascendsim {
namespace {

using namespace testing_support;

std::vector<std::string> namesUnder(const std::map<std::string, std::string>& files, const std::string& folder) {
    std::vector<std::string> names;
    for (const auto& [path, text] : files)
        if (path.starts_with(folder + "/")) names.push_back(path.substr(folder.size() + 1));
    return names;
}

TEST(OpArgsFiles, FoldersFilterByTheWhiteAndBlackListsAndNameByTheFirstInput) {
    static const ChipConfig chip = splitChip();
    RunRecord run = threeKernelRun(chip);  // Add, MatMulV3, FlashAttentionScore
    run.processId = 4242;
    OpArgsCounters counters;
    const auto files = opArgsFiles(run, counters);
    // {pid}/ holds the AOE white list only: FlashAttentionScore, not MatMulV3 or Add.
    EXPECT_EQ(namesUnder(files, "4242"), std::vector<std::string>{"FlashAttentionScore_bf16_NCL_4096_1_2048_0.json"});
    EXPECT_EQ(namesUnder(files, "4242_opcompile").size(), 3u);
    // Numbered in std::set<nlohmann::json> order: the sorted keys compare "attrs", ..., "inputs"
    // first, so bf16 inputs come before float ones, and NCL before ND.
    EXPECT_EQ(namesUnder(files, "4242_debug"),
              (std::vector<std::string>{"Add_float_ND_4096_2.json", "FlashAttentionScore_bf16_NCL_4096_1_2048_0.json",
                                        "MatMulV3_bf16_ND_4096_1024_1.json"}));
}

TEST(OpArgsFiles, ARecordCarriesTypeTensorsAndOptionsWithSortedKeys) {
    static const ChipConfig chip = splitChip();
    RunRecord run = threeKernelRun(chip);
    run.processId = 7;
    OpArgsCounters counters;
    const auto files = opArgsFiles(run, counters);
    const std::string& text = files.at("7_debug/Add_float_ND_4096_2.json");
    EXPECT_EQ(text.substr(0, 20), "{\n  \"attrs\": [],\n  \"");  // dump(2), keys sorted
    const nlohmann::json j = nlohmann::json::parse(text);
    EXPECT_EQ(j["op_type"], "Add");
    EXPECT_EQ(j["tune_mode"], "all");
    ASSERT_EQ(j["inputs"].size(), 2u);
    EXPECT_EQ(j["inputs"][0]["shape"], nlohmann::json::array({4096}));
    EXPECT_EQ(j["inputs"][1]["shape"], nlohmann::json::array());  // a scalar
    EXPECT_EQ(j["inputs"][1]["index"], 1);
    EXPECT_EQ(j["outputs"][0]["dtype"], "float");
    EXPECT_EQ(j["outputs"][0]["value_depend"], false);
}

TEST(OpArgsFiles, RepeatedShapesCollapseAndCountersRunOnAcrossCycles) {
    static const ChipConfig chip = splitChip();
    RunRecord run = threeKernelRun(chip);
    run.processId = 1;
    run.kernels.push_back(run.kernels[1]);  // the same MatMulV3 shape again
    KernelRecord other = run.kernels[1];
    other.inputs[0].shape = "2048,1024";
    run.kernels.push_back(other);
    OpArgsCounters counters;
    const auto first = opArgsFiles(run, counters);
    EXPECT_EQ(namesUnder(first, "1_debug").size(), 4u);  // Add, 2 MatMulV3 shapes, FlashAttentionScore
    EXPECT_EQ(counters.debug, 4u);
    // The next cycle's files go on from 4: Add is again fourth in the set.
    const auto second = opArgsFiles(run, counters);
    const auto names = namesUnder(second, "1_debug");
    EXPECT_NE(std::find(names.begin(), names.end(), "Add_float_ND_4096_7.json"), names.end());
}

TEST(OpArgsFiles, AiCpuKernelsAreNotRecorded) {
    static const ChipConfig chip = splitChip();
    RunRecord run = threeKernelRun(chip);
    for (KernelRecord& k : run.kernels) k.device.type = TaskType::AiCpu;
    OpArgsCounters counters;
    EXPECT_TRUE(opArgsFiles(run, counters).empty());
}

}  // namespace
}  // namespace ascendsim

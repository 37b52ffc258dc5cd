// The what-if loop a performance engineer runs: simulate, edit the chip with --chip-set, simulate
// again, and `ascendsim compare` the two result directories (which also reads real ones).
#include <gtest/gtest.h>

#include <sstream>

#include "../whatif/html_structure.h"
#include "profiler/report/profile_comparison.h"
#include "sim/engine/e2e_support.h"

namespace ascendsim::e2e {
namespace {

fs::path realLevel1Sample() {
    return sourceDir() / ".." / "shared" / "reference" / "real-profiles" / "msinsight" / "e5a31957" / "test" /
           "data" / "pytorch" / "text" / "level1" / "rank0_ascend_pt";
}

fs::path simulateElementwise(const fs::path& parent, std::vector<std::string> chipEdits) {
    auto options = commandOptions(unitWorkload("elementwise_chain.yaml"), parent);
    options.level = "Level1";
    options.chipOverrides = std::move(chipEdits);
    const CommandOutcome outcome = runCommand(options);
    EXPECT_EQ(outcome.exitCode, 0) << outcome.err;
    if (!options.chipOverrides.empty()) {
        EXPECT_NE(outcome.out.find("chip edits (--chip-set): " + options.chipOverrides.front()), std::string::npos)
            << outcome.out;
    }
    return onlyProfilerDir(parent);
}

TEST(WhatIfCompare, LessHbmBandwidthSlowsTheStreamingKernels) {
    TempDir base, variant;
    const ProfileSummary before = loadProfileSummary(simulateElementwise(base.path(), {}));
    const ProfileSummary after = loadProfileSummary(simulateElementwise(variant.path(), {"hbm.bandwidth_gbps=200"}));
    ASSERT_EQ(before.kernelCount, after.kernelCount);
    EXPECT_GT(after.kernelUs, before.kernelUs * 1.5);
    // Add reads the cold input from HBM: it must be among the slowed op types.
    ASSERT_TRUE(before.opTypes.count("Add"));
    EXPECT_GT(after.opTypes.at("Add").deviceUs, before.opTypes.at("Add").deviceUs);

    std::ostringstream report;
    writeProfileComparison(before, after, 3, report);
    const std::string text = report.str();
    EXPECT_NE(text.find("Step time per step (us)"), std::string::npos) << text;
    EXPECT_NE(text.find("all kernels"), std::string::npos) << text;
    EXPECT_NE(text.find("more op types"), std::string::npos) << text;  // 4 op types, top 3 shown
}

TEST(WhatIfCompare, RealProfileComparedWithItselfShowsNoChange) {
    if (!fs::is_directory(realLevel1Sample())) GTEST_SKIP() << "reference samples not present";
    const ProfileSummary sample = loadProfileSummary(realLevel1Sample());
    EXPECT_GT(sample.kernelCount, 0u);
    EXPECT_GT(sample.stepRows, 0u);
    std::ostringstream report;
    writeProfileComparison(sample, sample, 1000, report);
    const std::string text = report.str();
    EXPECT_EQ(text.find("more op types"), std::string::npos);
    std::istringstream lines(text);
    std::string line;
    std::size_t rows = 0;
    while (std::getline(lines, line)) {
        if (line.find("%") == std::string::npos) continue;
        ++rows;
        EXPECT_TRUE(line.find(" 0.0%") != std::string::npos) << line;
    }
    // op types, all kernels, four step-split rows, the metrics (and L2 hit rate), every kernel
    const std::size_t metricRows = weightedMetrics(sample).size() + (sample.l2HitRate ? 1 : 0);
    EXPECT_EQ(rows, sample.opTypes.size() + 5 + metricRows + matchedKernels(sample).size());
}

TEST(WhatIfCompare, KernelsMatchedByNameAndLaunchOrderShowTheBlockDimChange) {
    TempDir base, variant;
    auto run = [](const fs::path& parent, const std::string& blockDim, const std::string& html) {
        auto options = commandOptions(unitWorkload("matmul.yaml"), parent);
        options.level = "Level2";
        options.setOverrides = {"op.matmul.block_dim=" + blockDim};
        options.htmlPath = html;
        const CommandOutcome outcome = runCommand(options);
        EXPECT_EQ(outcome.exitCode, 0) << outcome.err;
        return onlyProfilerDir(parent);
    };
    const fs::path runHtml = base.path() / "run.html";
    const ProfileSummary before = loadProfileSummary(run(base.path() / "out", "2", runHtml.string()));
    const ProfileSummary after = loadProfileSummary(run(variant.path(), "16", ""));
    const auto changes = kernelChanges(before, after);
    ASSERT_EQ(changes.size(), 1u);
    EXPECT_EQ(changes[0].baseBlockDim, "2");
    EXPECT_EQ(changes[0].variantBlockDim, "16");
    EXPECT_GT(changes[0].baseUs, changes[0].variantUs);
    EXPECT_TRUE(weightedMetrics(before).count("aic_mac_ratio"));

    const fs::path compareHtml = variant.path() / "compare.html";
    std::ostringstream out, err;
    ASSERT_EQ(runCompareCommand(before.outputDir.string(), after.outputDir.string(), 10, out, err, compareHtml.string()), 0)
        << err.str();
    EXPECT_NE(out.str().find("[2->16]"), std::string::npos) << out.str();
    const auto compareCharts = html_test::checkHtmlStructure(readFile(compareHtml));
    EXPECT_EQ(compareCharts.at("top-changes"), 1u);
    EXPECT_EQ(compareCharts.at("step-split"), 6u);

    // The run's own report: the roofline has the MatMul as its one point.
    const auto runCharts = html_test::checkHtmlStructure(readFile(runHtml));
    EXPECT_EQ(runCharts.at("roofline"), 1u);
    EXPECT_EQ(runCharts.at("pipe-utilisation"), 7u);
    EXPECT_NE(readFile(runHtml).find("id=\"kernel-0\""), std::string::npos);
}

TEST(WhatIfCompare, LongKernelNamesKeepTheNumbersInColumns) {
    // A kernel name plus its block-dim change can be wider than the default label column; the
    // column widens for the whole table rather than pushing that row's numbers right.
    const auto summaryOf = [](const std::string& blockDim, double us) {
        ProfileSummary summary;
        for (const std::string name : {"aclnnMaxPool2dWithIndices_MaxPoolV3AiCore_MaxPoolV3", "aclnnAdd_AddAiCore_Add"}) {
            KernelRow row;
            row.name = name;
            row.type = "T";
            row.durationUs = us;
            row.blockDim = blockDim;
            summary.kernels.push_back(row);
        }
        return summary;
    };
    std::ostringstream out;
    writeProfileComparison(summaryOf("48", 10.0), summaryOf("40", 12.5), 10, out);
    const std::string text = out.str();
    const auto section = text.find("Top kernel changes");
    ASSERT_NE(section, std::string::npos) << text;
    std::istringstream lines(text.substr(text.find('\n', section) + 1));
    std::string line;
    std::vector<std::size_t> widths;
    while (std::getline(lines, line) && !line.empty()) widths.push_back(line.size());
    ASSERT_EQ(widths.size(), 3u) << text;  // header and two kernels
    EXPECT_EQ(widths[1], widths[0]) << text;
    EXPECT_EQ(widths[2], widths[0]) << text;
}

TEST(WhatIfCompare, SeveralVariantsInOneReport) {
    // The chip what-if of docs/what-if.md: one BASE against two edits of the chip, in one report.
    TempDir base, slow, slower;
    const fs::path baseDir = simulateElementwise(base.path(), {});
    const fs::path slowDir = simulateElementwise(slow.path(), {"hbm.bandwidth_gbps=800"});
    const fs::path slowerDir = simulateElementwise(slower.path(), {"hbm.bandwidth_gbps=200"});
    const fs::path html = base.path() / "compare.html";
    std::ostringstream out, err;
    ASSERT_EQ(runCompareCommand(baseDir.string(), std::vector<std::string>{slowDir.string(), slowerDir.string()}, 10,
                                out, err, html.string()),
              0)
        << err.str();
    const std::string text = out.str();
    const auto first = text.find("=== VARIANT 1 of 2: " + slowDir.string());
    const auto second = text.find("=== VARIANT 2 of 2: " + slowerDir.string());
    ASSERT_NE(first, std::string::npos) << text;
    ASSERT_NE(second, std::string::npos) << text;
    EXPECT_LT(first, second);
    const auto charts = html_test::checkHtmlStructure(readFile(html));
    EXPECT_EQ(charts.at("step-split"), 9u);  // base and two variants, three bars each
    EXPECT_TRUE(charts.count("top-changes-1"));
    EXPECT_TRUE(charts.count("top-changes-2"));
    EXPECT_FALSE(charts.count("top-changes"));
    const std::string page = readFile(html);
    EXPECT_NE(page.find("change 2"), std::string::npos);  // the op-type table has a column pair per variant
}

TEST(WhatIfCompare, MissingResultDirectoryIsAClearError) {
    TempDir empty, other;
    std::ostringstream out, err;
    EXPECT_EQ(runCompareCommand(empty.path().string(), (other.path() / "absent").string(), 10, out, err), 2);
    EXPECT_NE(err.str().find(empty.path().string() + ": no ASCEND_PROFILER_OUTPUT folder"), std::string::npos)
        << err.str();
    std::ostringstream out2, err2;
    EXPECT_EQ(runCompareCommand(simulateElementwise(other.path(), {}).string(), (other.path() / "absent").string(),
                                10, out2, err2),
              2);
    EXPECT_NE(err2.str().find("absent: not a directory"), std::string::npos) << err2.str();
}

}  // namespace
}  // namespace ascendsim::e2e

// --quirks end to end on a 2-rank data-parallel run (workloads/unit/allreduce.yaml, Level1): each
// quirk changes exactly the files it names, on the ranks it names, and none changes the numbers.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <regex>

#include "sim/engine/e2e_support.h"

namespace ascendsim::e2e {
namespace {

class QuirksRun : public ::testing::Test {
  protected:
    // Runs allreduce.yaml at Level1 with `quirks` into a fresh folder; returns the rank directories.
    std::vector<fs::path> run(const std::string& quirks, const std::string& export_type = "text") {
        SimulationOptions options = commandOptions(unitWorkload("allreduce.yaml"), dir_.path() / quirks);
        options.level = "Level1";
        options.exportType = export_type;
        options.quirks = quirks;
        const CommandOutcome outcome = runCommand(options);
        EXPECT_EQ(outcome.exitCode, 0) << outcome.err;
        return entriesOf(dir_.path() / quirks);
    }
    static fs::path output(const fs::path& rankDir) { return rankDir / "ASCEND_PROFILER_OUTPUT"; }

    TempDir dir_;
};

TEST_F(QuirksRun, CutRanksLeavesOddRanksOnlyWhatTheClusterAnalysisReads) {
    const auto plain = run("", "text,db");
    const auto cut = run("cut-ranks", "text,db");
    ASSERT_EQ(cut.size(), 2u);
    EXPECT_EQ(relativeFiles(cut[0]), relativeFiles(plain[0]));  // rank 0 untouched
    for (const std::string& f : relativeFiles(cut[1])) {
        EXPECT_TRUE(std::regex_match(f, std::regex("profiler_info_1\\.json|profiler_metadata\\.json|ASCEND_PROFILER_OUTPUT/"
                                                   "(.*\\.db|communication(_matrix)?\\.json|step_trace_time\\.csv)")))
            << f;
    }
    EXPECT_TRUE(fs::exists(output(cut[1]) / "step_trace_time.csv"));
    EXPECT_TRUE(fs::exists(output(cut[1]) / "communication.json"));
    EXPECT_EQ(readFile(output(cut[1]) / "communication.json"), readFile(output(plain[1]) / "communication.json"));
}

TEST_F(QuirksRun, LfEndingsAndNoOpStatisticAndMissingInfoJsonTouchOnlyTheirFiles) {
    const auto plain = run("");
    const auto odd = run("lf-endings,no-op-statistic,missing-info-json");
    for (std::size_t rank = 0; rank < 2; ++rank) {
        EXPECT_FALSE(fs::exists(output(odd[rank]) / "op_statistic.csv"));
        EXPECT_FALSE(fs::exists(odd[rank] / ("profiler_info_" + std::to_string(rank) + ".json")));
        const std::string kernels = readFile(output(odd[rank]) / "kernel_details.csv");
        EXPECT_EQ(kernels.find('\r'), std::string::npos);
        std::string expected = readFile(output(plain[rank]) / "kernel_details.csv");
        ASSERT_NE(expected.find("\r\n"), std::string::npos);
        expected = std::regex_replace(expected, std::regex("\r\n"), "\n");
        EXPECT_EQ(kernels, expected);
        EXPECT_EQ(readFile(output(odd[rank]) / "trace_view.json"), readFile(output(plain[rank]) / "trace_view.json"));
    }
}

TEST_F(QuirksRun, EmptyCommunicationKeepsTheStepsButNoOperator) {
    const auto ranks = run("empty-communication");
    const std::string text = readFile(output(ranks[0]) / "communication.json");
    EXPECT_NE(text.find("\"p2p\": {}, \"collective\": {}"), std::string::npos) << text.substr(0, 200);
    EXPECT_EQ(text.find("hcom_"), std::string::npos);
}

TEST_F(QuirksRun, ClockSkewMovesRankOneTimestampsBackBySevenMicroseconds) {
    const auto plain = run("");
    const auto skewed = run("clock-skew");
    // Start times have 16 digits before the point: compared as integer nanoseconds, since a double
    // resolves them only to 0.25 us.
    auto firstStart = [](const fs::path& kernelDetails) {
        const std::string text = readFile(kernelDetails);
        std::smatch m;
        EXPECT_TRUE(std::regex_search(text, m, std::regex(",(1[0-9]{15})\\.([0-9]{3})\t?,")));
        return std::stoll(m[1].str() + m[2].str());
    };
    EXPECT_EQ(firstStart(output(skewed[0]) / "kernel_details.csv"), firstStart(output(plain[0]) / "kernel_details.csv"));
    EXPECT_EQ(firstStart(output(plain[1]) / "kernel_details.csv") - firstStart(output(skewed[1]) / "kernel_details.csv"),
              7096);
}

TEST_F(QuirksRun, InterruptedStepEndsTheLastStepEarlyWithFewerHostOps) {
    const auto plain = run("");
    const auto cut = run("interrupted-step");
    const auto count = [](const std::string& text, const std::string& what) {
        std::size_t n = 0;
        for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
        return n;
    };
    const std::string plainTrace = readFile(output(plain[0]) / "trace_view.json");
    const std::string cutTrace = readFile(output(cut[0]) / "trace_view.json");
    EXPECT_LT(count(cutTrace, "\"cat\": \"cpu_op\""), count(plainTrace, "\"cat\": \"cpu_op\""));
    EXPECT_GT(count(cutTrace, "\"cat\": \"cpu_op\""), 0u);
}

// spreadsheet-timestamps, as e5a31957 test_rank_1's memory_record.csv shows it: Timestamp(us) in
// General format (six significant digits, "1.69512E+15"), LF endings, no trailing tab; every other
// column and every other file as written without the quirk.
TEST_F(QuirksRun, SpreadsheetTimestampsRoundOnlyMemoryRecordTimestamps) {
    const fs::path workload = dir_.path() / "matmul_memory.yaml";
    std::ofstream(workload) << readFile(unitWorkload("matmul.yaml"))
                            << "profiler:\n  profile_memory: true\n"
                               "  experimental_config: {profiler_level: Level1}\n";
    auto runMatmul = [&](const std::string& quirks) {
        SimulationOptions options = commandOptions(workload, dir_.path() / ("mm" + quirks));
        options.quirks = quirks;
        const CommandOutcome outcome = runCommand(options);
        EXPECT_EQ(outcome.exitCode, 0) << outcome.err;
        return entriesOf(dir_.path() / ("mm" + quirks)).at(0);
    };
    const fs::path plain = runMatmul("");
    const fs::path rounded = runMatmul("spreadsheet-timestamps");
    const CsvTable before = readCsv(output(plain) / "memory_record.csv");
    const std::string roundedText = readFile(output(rounded) / "memory_record.csv");
    const CsvTable after = readCsv(output(rounded) / "memory_record.csv");
    ASSERT_GT(before.rows.size(), 0u);
    ASSERT_EQ(after.rows.size(), before.rows.size());
    EXPECT_EQ(roundedText.find('\r'), std::string::npos);
    EXPECT_EQ(roundedText.find('\t'), std::string::npos);
    const std::size_t ts = after.column("Timestamp(us)");
    for (std::size_t r = 0; r < after.rows.size(); ++r) {
        const std::string& value = after.rows[r][ts];
        EXPECT_TRUE(std::regex_match(value, std::regex("[1-9](\\.[0-9]{1,5})?E\\+15"))) << value;
        // Six significant digits of the written timestamp: within half a unit of the last one.
        const double exact = numberCell(before.rows[r][ts]);
        EXPECT_LE(std::abs(std::stod(value) - exact), 0.5e10) << value << " vs " << before.rows[r][ts];
        for (std::size_t c = 0; c < after.rows[r].size(); ++c) {
            std::string expected = before.rows[r][c];
            if (!expected.empty() && expected.back() == '\t') expected.pop_back();
            if (c != ts) {
                EXPECT_EQ(after.rows[r][c], expected) << "column " << c;
            }
        }
    }
    EXPECT_EQ(readFile(output(rounded) / "kernel_details.csv"), readFile(output(plain) / "kernel_details.csv"));
}

TEST_F(QuirksRun, UnknownQuirkIsBadInputAndWritesNothing) {
    SimulationOptions options = commandOptions(unitWorkload("allreduce.yaml"), dir_.path() / "bad");
    options.quirks = "lf-endings,tabs";
    const CommandOutcome outcome = runCommand(options);
    EXPECT_EQ(outcome.exitCode, 2);
    EXPECT_NE(outcome.err.find("unknown quirk 'tabs'"), std::string::npos) << outcome.err;
    EXPECT_FALSE(fs::exists(dir_.path() / "bad"));
}

}  // namespace
}  // namespace ascendsim::e2e

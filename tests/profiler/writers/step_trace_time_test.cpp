#include "profiler/writers/summary/step_trace_time.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "profiler/assembly/sample_run.h"
#include "profiler/format/number_format.h"
#include "profiler/format/time_format.h"
#include "profiler/writers/csv_table_test_support.h"
#include "profiler/writers/timeline/msprof_timeline.h"

namespace ascendsim {
namespace {

using testing_support::joinHeader;
using testing_support::referenceHeader;
using testing_support::sampleRun;

TEST(StepTraceTime, HeadersMatchTheRealSamplesOfEachEra) {
    const auto current = referenceHeader(
        "msinsight/ef63bc64/test/st/level2/rank_0_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv");
    const auto early = referenceHeader(
        "msinsight/e5a31957/test/data/pytorch/text/level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv");
    if (current.empty() || early.empty()) GTEST_SKIP() << "reference samples not available";
    EXPECT_EQ(joinHeader(stepTraceTimeHeader(FormatVersion::Cann83)), current);
    EXPECT_EQ(joinHeader(stepTraceTimeHeader(FormatVersion::Cann80)), early);
}

// The torch_npu algorithm, restated independently: per step, sum the Overlap Analysis durations
// of events starting in [step start, step end), in file order, as Python floats.
TEST(StepTraceTime, ValuesAreTheAlgorithmAppliedToOurOverlapEvents) {
    ProfilerConfig config;
    const auto run = sampleRun(3);
    const auto timeline = buildMsprofTimeline(run, config);
    const auto steps = computeStepRanges(run);
    ASSERT_EQ(steps.size(), 3u);
    const auto table = buildStepTraceTime(buildMsprofTraceEvents(run, config), steps, std::nullopt, config.formatVersion);
    ASSERT_EQ(table.rows.size(), 3u);
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const double start = std::strtod(nsToUsString(steps[i].startNs).c_str(), nullptr);
        const double end = std::strtod(nsToUsString(steps[i].endNs).c_str(), nullptr);
        double computing = 0.0, free = 0.0, first = -1.0, e2eStart = -1.0, e2eEnd = -1.0;
        bool anyComputing = false, anyFree = false;
        for (const auto& e : timeline) {
            const std::string name = e["name"];
            if (name != "Computing" && name != "Free") continue;
            const double ts = std::strtod(e["ts"].get<std::string>().c_str(), nullptr);
            if (!(start <= ts && ts < end)) continue;
            const double dur = e["dur"].get<double>();
            if (name == "Computing") {
                computing += dur;
                anyComputing = true;
                if (first < 0 || ts < first) first = ts;
            } else {
                free += dur;
                anyFree = true;
            }
            if (e2eStart < 0 || ts < e2eStart) e2eStart = ts;
            if (e2eEnd < 0 || ts + dur > e2eEnd) e2eEnd = ts + dur;
        }
        const auto& row = table.rows[i];
        EXPECT_EQ(row[0], "0");  // Device_id from the "NPU 0" label
        EXPECT_EQ(row[1], steps[i].stepId);
        ASSERT_TRUE(anyComputing);
        EXPECT_EQ(row[2], pythonFloatRepr(computing));
        EXPECT_EQ(row[3], "0");  // no communication: the int 0 of an empty bucket
        EXPECT_EQ(row[6], anyFree ? pythonFloatRepr(free) : "0");
        EXPECT_EQ(row[7], pythonFloatRepr(e2eEnd - e2eStart));
        EXPECT_EQ(row[8], "0");
        const double fwkStart = std::strtod(nsToUsString(steps[i].fwkStartNs).c_str(), nullptr);
        EXPECT_EQ(row[10], pythonFloatRepr(first - fwkStart));
    }
}

TEST(StepTraceTime, NoOverlapEventsMeansNoRows) {
    const auto table = buildStepTraceTime({}, {}, std::nullopt, FormatVersion::Cann83);
    EXPECT_TRUE(table.rows.empty());
}

TEST(StepTraceTime, WithoutStepsOneStepLessRowMeasuresPreparingFromTheFirstOp) {
    ProfilerConfig config;
    auto run = sampleRun(1);
    run.steps.clear();
    const auto timeline = buildMsprofTraceEvents(run, config);
    const std::uint64_t firstOp = run.epochNs + run.hostOps.front().startNs;
    const auto table = buildStepTraceTime(timeline, computeStepRanges(run), firstOp, FormatVersion::Cann83);
    ASSERT_EQ(table.rows.size(), 1u);
    EXPECT_EQ(table.rows[0][1], "");
    const double firstTask = std::strtod(nsToUsString(run.epochNs + run.kernels.front().device.startNs).c_str(), nullptr);
    EXPECT_EQ(table.rows[0][10], pythonFloatRepr(firstTask - std::strtod(nsToUsString(firstOp).c_str(), nullptr)));
}

TEST(StepTraceTime, StepRangeStartsAtTheFirstKernelAndEndsAtTheLaterOfKernelAndStep) {
    auto run = sampleRun(1);
    run.kernels.back().device.endNs = run.steps[0].endNs + 5'000;  // runs past the host step
    const auto steps = computeStepRanges(run);
    ASSERT_EQ(steps.size(), 1u);
    EXPECT_EQ(steps[0].startNs, run.epochNs + run.kernels.front().device.startNs);
    EXPECT_EQ(steps[0].endNs, run.epochNs + run.steps[0].endNs + 5'000);
    EXPECT_EQ(steps[0].fwkStartNs, run.epochNs + run.steps[0].startNs);
}

TEST(StepTraceTime, CsvUsesTheTorchNpuDialect) {
    ProfilerConfig config;
    const auto run = sampleRun(1);
    const auto text = renderCsv(buildStepTraceTime(buildMsprofTraceEvents(run, config), computeStepRanges(run),
                                                   std::nullopt, config.formatVersion),
                                CsvDialect::TorchNpu);
    EXPECT_NE(text.find("Preparing\r\n"), std::string::npos);
    EXPECT_EQ(text.substr(text.size() - 2), "\r\n");
}

}  // namespace
}  // namespace ascendsim

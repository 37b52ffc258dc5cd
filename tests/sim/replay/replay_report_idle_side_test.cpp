// A kernel whose model runs a core side the real row records as idle (total_cycles 0, docs/fidelity.md
// §89): its ratios there are not compared, and the summary counts such kernels instead of hiding them.
#include <gtest/gtest.h>

#include "sim/replay/report/replay_report.h"

namespace ascendsim {
namespace {

// A kernel the chip ran on its AICs alone (AI_CORE, aiv_total_cycles 0) whose model also runs AIVs.
ReplayedKernel cubeOnlyOnTheChip(bool modelRunsAiv) {
    ReplayedKernel k;
    k.sample.name = "Conv2DBackpropFilter";
    k.sample.type = "Conv2DBackpropFilter";
    k.sample.acceleratorCore = "AI_CORE";
    k.sample.idleSides = {"aiv_"};
    k.family = "Conv";
    k.occurrences = 1;
    k.realUs = 10.0;
    k.realPipes = {{"aic_mac_ratio", 0.5}};
    k.simulated = SimulatedKernel{9.0, {{"aic_mac_ratio", 0.4}}};
    if (modelRunsAiv) k.simulated->pipeRatios["aiv_scalar_ratio"] = 0.3;
    return k;
}

TEST(ReplayReportIdleSide, TheSummaryCountsKernelsThatRunASideTheChipDidNot) {
    ReplayReport report;
    report.kernels = {cubeOnlyOnTheChip(true), cubeOnlyOnTheChip(false), cubeOnlyOnTheChip(true)};
    const std::string summary = renderReplaySummary(report);
    EXPECT_NE(summary.find("not compared: 2 kernels run a core side the chip did not"), std::string::npos) << summary;
    EXPECT_NE(summary.find("aic_mac_ratio"), std::string::npos);
    EXPECT_EQ(summary.find("aiv_scalar_ratio"), std::string::npos);  // no real ratio to compare with

    report.kernels = {cubeOnlyOnTheChip(false)};
    EXPECT_EQ(renderReplaySummary(report).find("not compared"), std::string::npos);
}

}  // namespace
}  // namespace ascendsim

// Steps after the profiler schedule's last recorded step are not simulated (nothing observes
// them): the step count the run stops at, and that the profiler directories do not change.
#include <gtest/gtest.h>

#include "sim/engine/e2e_support.h"
#include "sim/engine/simulation.h"

namespace ascendsim::e2e {
namespace {

// resnet50.yaml's schedule is wait 1, warmup 1, active 2, repeat 1: steps 2 and 3 are recorded.
SimulationOptions smallResNet(std::uint32_t steps, const fs::path& output) {
    auto options = commandOptions(sourceDir() / "workloads" / "resnet50.yaml", output);
    options.setOverrides = {"batch=1", "image=32", "classes=10"};
    options.steps = steps;
    options.level = "Level1";
    return options;
}

TEST(UnobservedSteps, RunStopsAfterTheLastRecordedStep) {
    EXPECT_EQ(runSimulation(smallResNet(6, "")).stepsSimulated, 4u);
    EXPECT_EQ(runSimulation(smallResNet(3, "")).stepsSimulated, 3u);  // step 2 is recorded
}

TEST(UnobservedSteps, EveryStepRunsWhenNoneIsRecordedOrAChromeTraceIsWrittenOrAllAreAskedFor) {
    EXPECT_EQ(runSimulation(smallResNet(1, "")).stepsSimulated, 1u);  // the wait step only
    TempDir trace;
    auto options = smallResNet(6, "");
    options.chromeTracePath = (trace.path() / "trace.json").string();
    EXPECT_EQ(runSimulation(options).stepsSimulated, 6u);
    options.chromeTracePath.clear();
    options.simulateUnobservedSteps = true;
    EXPECT_EQ(runSimulation(options).stepsSimulated, 6u);
}

TEST(UnobservedSteps, NoStepRecorded_WarnsThatNoDirectoryWasWritten) {
    TempDir out;
    const auto oneStep = runCommand(smallResNet(1, out.path()));  // the schedule's wait step only
    EXPECT_EQ(oneStep.exitCode, 0) << oneStep.err;
    EXPECT_TRUE(entriesOf(out.path()).empty());
    EXPECT_NE(oneStep.err.find("records none of the 1 simulated steps"), std::string::npos) << oneStep.err;
    const auto recorded = runCommand(smallResNet(3, out.path()));
    EXPECT_EQ(recorded.err.find("warning"), std::string::npos) << recorded.err;
}

TEST(UnobservedSteps, EveryStepRunsWithoutASchedule) {
    auto options = commandOptions(unitWorkload("elementwise_chain.yaml"), "");
    options.steps = 3;
    const SimulationResult result = runSimulation(options);
    EXPECT_EQ(result.stepsSimulated, 3u);
    EXPECT_EQ(result.record.steps.size(), 3u);
}

TEST(UnobservedSteps, ProfilerOutputEqualsARunOfOnlyTheStepsUpToTheLastRecorded) {
    TempDir six, four;
    auto allSteps = smallResNet(6, six.path());
    allSteps.simulateUnobservedSteps = true;
    const auto longRun = runCommand(allSteps);
    const auto shortRun = runCommand(smallResNet(4, four.path()));
    ASSERT_EQ(longRun.exitCode, 0) << longRun.err;
    ASSERT_EQ(shortRun.exitCode, 0) << shortRun.err;
    const fs::path a = onlyProfilerDir(six.path()), b = onlyProfilerDir(four.path());
    EXPECT_EQ(a.filename(), b.filename());
    const auto files = relativeFiles(a);
    ASSERT_EQ(files, relativeFiles(b));
    ASSERT_FALSE(files.empty());
    for (const auto& file : files) EXPECT_EQ(readFile(a / file), readFile(b / file)) << file;
}

}  // namespace
}  // namespace ascendsim::e2e

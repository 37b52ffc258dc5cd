#include "profiler/assembly/output_assembly.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <map>
#include <set>

#include "profiler/assembly/output_permissions.h"
#include "profiler/assembly/profiling_schedule.h"
#include "profiler/assembly/sample_run.h"

namespace fs = std::filesystem;

namespace ascendsim {
namespace {

using testing_support::sampleRun;

class OutputAssemblyTest : public ::testing::Test {
protected:
    void SetUp() override {
        root_ = fs::temp_directory_path() /
                ("ascendsim_assembly_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        fs::remove_all(root_);
        fs::create_directories(root_);
    }
    void TearDown() override { fs::remove_all(root_); }

    OutputOptions options(const std::string& sub = "out") const {
        OutputOptions o;
        o.parentDirectory = root_ / sub;
        return o;
    }
    static std::vector<fs::path> entries(const fs::path& dir) {
        std::vector<fs::path> out;
        if (!fs::exists(dir)) return out;
        for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path());
        std::sort(out.begin(), out.end());
        return out;
    }
    static std::map<std::string, std::string> allFiles(const fs::path& dir) {
        std::map<std::string, std::string> files;
        for (const auto& e : fs::recursive_directory_iterator(dir)) {
            if (!e.is_regular_file()) continue;
            std::ifstream in(e.path(), std::ios::binary);
            files[fs::relative(e.path(), dir).string()] =
                std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        }
        return files;
    }

    fs::path root_;
};

ProfilerConfig textConfig() {
    ProfilerConfig c;
    c.level = ProfilerLevel::Level1;
    c.profileMemory = true;
    c.recordShapes = true;
    c.withStack = true;
    return c;
}

TEST(ProfilingSchedule, ActionsFollowTorchProfilerSchedule) {
    const ProfilerSchedule s{1, 1, 2, 2, 3};  // wait 1, warmup 1, active 2, repeat 2, skip_first 3
    EXPECT_EQ(scheduleAction(s, 2), StepAction::None);
    EXPECT_EQ(scheduleAction(s, 3), StepAction::None);
    EXPECT_EQ(scheduleAction(s, 4), StepAction::Warmup);
    EXPECT_EQ(scheduleAction(s, 5), StepAction::Record);
    EXPECT_EQ(scheduleAction(s, 6), StepAction::Record);
    EXPECT_EQ(scheduleAction(s, 10), StepAction::Record);
    EXPECT_EQ(scheduleAction(s, 11), StepAction::None);  // repeat exhausted
}

TEST(ProfilingSchedule, OneCycleWithoutSchedule) {
    const auto run = sampleRun(3);
    const auto cycles = profilingCycles(std::nullopt, run.steps);
    ASSERT_EQ(cycles.size(), 1u);
    EXPECT_EQ(cycles[0].recordedSteps, (std::vector<std::uint32_t>{0, 1, 2}));
}

TEST_F(OutputAssemblyTest, ScheduleGivesOneDirectoryPerActiveCycle) {
    auto config = textConfig();
    config.schedule = ProfilerSchedule{0, 1, 1, 0, 0};  // warmup 1, active 1, repeat forever
    const auto run = sampleRun(6);
    const auto result = writeProfilerOutput(run, config, options());
    ASSERT_EQ(result.directories.size(), 3u);
    EXPECT_EQ(entries(root_ / "out").size(), 3u);
    for (const auto& dir : result.directories) {
        const std::string name = dir.filename().string();
        EXPECT_TRUE(name.starts_with("simhost_3096504_")) << name;
        EXPECT_TRUE(name.ends_with("_ascend_pt")) << name;
        EXPECT_EQ(name.size(), std::string("simhost_3096504_").size() + 17 + std::string("_ascend_pt").size());
    }
}

// record_op_args: each cycle's {dir}_op_args/ holds CANN's op-info files (op_args_files.h), numbered
// on across cycles as one process does; the directory list names only the *_ascend_pt ones.
TEST_F(OutputAssemblyTest, RecordOpArgsWritesTheOpInfoFilesBesideEachCycle) {
    auto config = textConfig();
    config.recordOpArgs = true;
    config.schedule = ProfilerSchedule{0, 0, 1, 2, 0};  // two cycles of one step
    const auto result = writeProfilerOutput(sampleRun(2), config, options());
    ASSERT_EQ(result.directories.size(), 2u);
    std::uint32_t files = 0;
    std::set<std::string> names;
    for (const auto& dir : result.directories) {
        const fs::path opArgs = dir.string() + "_op_args";
        ASSERT_TRUE(fs::is_directory(opArgs)) << opArgs;
        for (const auto& [path, text] : allFiles(opArgs)) {
            ++files;
            EXPECT_TRUE(names.insert(path).second) << path << " repeats a number";  // folder kind + name
            EXPECT_EQ(text.substr(0, 2), "{\n") << path;
        }
    }
    EXPECT_GT(files, 0u);
}

TEST_F(OutputAssemblyTest, EachCycleHoldsOnlyItsSteps) {
    auto config = textConfig();
    config.schedule = ProfilerSchedule{0, 0, 1, 0, 2};  // skip 2, then every step
    const auto result = writeProfilerOutput(sampleRun(4), config, options());
    ASSERT_EQ(result.directories.size(), 2u);
    std::ifstream in(result.directories[0] / "ASCEND_PROFILER_OUTPUT" / "step_trace_time.csv", std::ios::binary);
    std::string header, row;
    std::getline(in, header);
    std::getline(in, row);
    EXPECT_TRUE(row.starts_with("0,2,")) << row;
    EXPECT_FALSE(std::getline(in, row));
}

TEST_F(OutputAssemblyTest, TimestampIsLocalTimeWithMilliseconds) {
    auto run = sampleRun(1);
    run.epochNs = 1'736'408'883'000'000'000ULL;  // 2025-01-09 07:48:03 UTC
    run.utcOffsetSeconds = 8 * 3600;
    EXPECT_EQ(localTimestamp17(run, 123'456'789), "20250109154803123");
}

TEST_F(OutputAssemblyTest, TextLevel1FileSet) {
    const auto result = writeProfilerOutput(sampleRun(2), textConfig(), options());
    ASSERT_EQ(result.directories.size(), 1u);
    const auto dir = result.directories[0];
    for (const char* f : {"profiler_info.json", "profiler_metadata.json", "FRAMEWORK/torch.op_range",
                          "FRAMEWORK/torch.op_mark", "FRAMEWORK/torch.memory_usage", "FRAMEWORK/torch.python_tracer_func",
                          "ASCEND_PROFILER_OUTPUT/trace_view.json", "ASCEND_PROFILER_OUTPUT/step_trace_time.csv",
                          "ASCEND_PROFILER_OUTPUT/operator_details.csv", "ASCEND_PROFILER_OUTPUT/memory_record.csv",
                          "ASCEND_PROFILER_OUTPUT/operator_memory.csv", "ASCEND_PROFILER_OUTPUT/npu_module_mem.csv",
                          "ASCEND_PROFILER_OUTPUT/kernel_details.csv", "ASCEND_PROFILER_OUTPUT/analyse.done"}) {
        EXPECT_TRUE(fs::is_regular_file(dir / f)) << f;
    }
    EXPECT_TRUE(fs::is_directory(dir / "logs"));
}

TEST_F(OutputAssemblyTest, NpuActivityAddsTheProfDirectory) {
    const auto dir = writeProfilerOutput(sampleRun(1), textConfig(), options()).directories.at(0);
    int profDirs = 0;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.is_directory() && e.path().filename().string().starts_with("PROF_")) ++profDirs;
    EXPECT_EQ(profDirs, 1);
}

TEST_F(OutputAssemblyTest, DbExportWritesDatabasesInsteadOfTextViews) {
    auto config = textConfig();
    config.exportTypes = {ExportType::Db};
    const auto dir = writeProfilerOutput(sampleRun(1), config, options()).directories.at(0);
    EXPECT_TRUE(fs::exists(dir / "ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler.db"));
    EXPECT_TRUE(fs::exists(dir / "ASCEND_PROFILER_OUTPUT/analysis.db"));
    EXPECT_FALSE(fs::exists(dir / "ASCEND_PROFILER_OUTPUT/trace_view.json"));
    EXPECT_FALSE(fs::exists(dir / "ASCEND_PROFILER_OUTPUT/step_trace_time.csv"));
}

TEST_F(OutputAssemblyTest, LevelNoneWritesNoDeviceViews) {
    auto config = textConfig();
    config.level = ProfilerLevel::LevelNone;
    const auto dir = writeProfilerOutput(sampleRun(1), config, options()).directories.at(0);
    EXPECT_TRUE(fs::exists(dir / "ASCEND_PROFILER_OUTPUT/trace_view.json"));
    EXPECT_FALSE(fs::exists(dir / "ASCEND_PROFILER_OUTPUT/step_trace_time.csv"));
    EXPECT_FALSE(fs::exists(dir / "ASCEND_PROFILER_OUTPUT/kernel_details.csv"));
    EXPECT_FALSE(fs::exists(dir / "ASCEND_PROFILER_OUTPUT/npu_module_mem.csv"));
}

TEST_F(OutputAssemblyTest, WithoutProfileMemoryNoMemoryFiles) {
    auto config = textConfig();
    config.profileMemory = false;
    const auto dir = writeProfilerOutput(sampleRun(1), config, options()).directories.at(0);
    EXPECT_FALSE(fs::exists(dir / "ASCEND_PROFILER_OUTPUT/memory_record.csv"));
    EXPECT_FALSE(fs::exists(dir / "ASCEND_PROFILER_OUTPUT/operator_memory.csv"));
    EXPECT_FALSE(fs::exists(dir / "FRAMEWORK/torch.memory_usage"));
}

TEST_F(OutputAssemblyTest, WithoutCpuActivityNoFrameworkDirectory) {
    auto config = textConfig();
    config.activityCpu = false;
    const auto dir = writeProfilerOutput(sampleRun(1), config, options()).directories.at(0);
    EXPECT_FALSE(fs::exists(dir / "FRAMEWORK"));
    EXPECT_FALSE(fs::exists(dir / "ASCEND_PROFILER_OUTPUT/operator_details.csv"));
}

TEST_F(OutputAssemblyTest, RecordOpArgsCreatesASiblingDirectory) {
    auto config = textConfig();
    config.recordOpArgs = true;
    const auto dir = writeProfilerOutput(sampleRun(1), config, options()).directories.at(0);
    EXPECT_TRUE(fs::is_directory(dir.string() + "_op_args"));
}

TEST_F(OutputAssemblyTest, RankNamesTheInfoFile) {
    auto opts = options();
    opts.rank = 2;
    const auto dir = writeProfilerOutput(sampleRun(1), textConfig(), opts).directories.at(0);
    EXPECT_TRUE(fs::exists(dir / "profiler_info_2.json"));
    EXPECT_FALSE(fs::exists(dir / "profiler_info.json"));
}

TEST_F(OutputAssemblyTest, FilesAre0640AndDirectories0750) {
    const auto dir = writeProfilerOutput(sampleRun(1), textConfig(), options()).directories.at(0);
    EXPECT_EQ(fs::status(dir).permissions() & fs::perms::all, kOutputDirectoryPerms);
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
        const auto perms = fs::status(e.path()).permissions() & fs::perms::all;
        EXPECT_EQ(perms, e.is_directory() ? kOutputDirectoryPerms : kOutputFilePerms) << e.path();
    }
}

TEST_F(OutputAssemblyTest, AForcedFailureLeavesNothingBehind) {
    auto config = textConfig();
    config.schedule = ProfilerSchedule{0, 0, 1, 0, 0};
    auto opts = options();
    int built = 0;
    opts.faultInjection = [&built](std::string_view stage) {
        if (stage == "cycle-built" && ++built == 2) throw std::runtime_error("injected failure");
    };
    EXPECT_THROW(writeProfilerOutput(sampleRun(3), config, opts), std::runtime_error);
    EXPECT_TRUE(entries(root_ / "out").empty());
}

TEST_F(OutputAssemblyTest, AnExistingTargetFailsWithoutPartialOutput) {
    auto config = textConfig();
    const auto first = writeProfilerOutput(sampleRun(1), config, options()).directories.at(0);
    EXPECT_THROW(writeProfilerOutput(sampleRun(1), config, options()), std::runtime_error);
    EXPECT_EQ(entries(root_ / "out"), std::vector<fs::path>{first});
}

TEST_F(OutputAssemblyTest, SameInputGivesTheSameBytes) {
    auto config = textConfig();
    config.schedule = ProfilerSchedule{0, 0, 2, 0, 0};
    const auto a = writeProfilerOutput(sampleRun(4), config, options("a")).directories;
    const auto b = writeProfilerOutput(sampleRun(4), config, options("b")).directories;
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].filename(), b[i].filename());
        EXPECT_EQ(allFiles(a[i]), allFiles(b[i]));
    }
}

}  // namespace
}  // namespace ascendsim

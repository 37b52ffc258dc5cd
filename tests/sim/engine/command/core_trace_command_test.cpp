// `ascendsim --core-trace FILE [--core-trace-op NAME] [--core-trace-step N]` (docs/core-trace.md):
// the timeline file of one kernel launch, its summary, and the option errors.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <set>

#include "sim/engine/e2e_support.h"

namespace ascendsim::e2e {
namespace {

using nlohmann::json;

SimulationOptions withCoreTrace(const TempDir& out, const fs::path& workload, const fs::path& traceFile) {
    SimulationOptions options = commandOptions(workload, out.path() / "profiles");
    options.level = "Level1";
    options.coreTracePath = traceFile.string();
    return options;
}

std::set<int> pipeRowsWithWork(const json& trace) {
    std::set<int> rows;
    for (const json& e : trace["traceEvents"])
        if (e["ph"] == "X" && e["cat"] == "execute") rows.insert(e["tid"].get<int>());
    return rows;
}

TEST(CoreTraceCommand, MatMul_TimelineOfEveryCoreAndPipeWithinTheKernel) {
    TempDir out;
    const fs::path file = out.path() / "matmul_core_trace.json";
    const auto outcome = runCommand(withCoreTrace(out, unitWorkload("matmul.yaml"), file));
    ASSERT_EQ(outcome.exitCode, 0) << outcome.err;
    const json trace = json::parse(readFile(file));
    const json& about = trace["otherData"];
    EXPECT_EQ(about["op"], "matmul");
    EXPECT_EQ(about["task_type"], "AI_CORE");
    const double durationUs = about["duration_us"].get<double>();
    EXPECT_GT(durationUs, 0.0);

    std::set<int> pids;
    std::size_t mmads = 0;
    for (const json& e : trace["traceEvents"]) {
        if (e["ph"] != "X") continue;
        pids.insert(e["pid"].get<int>());
        EXPECT_GE(e["ts"].get<double>(), 0.0);
        EXPECT_LE(e["ts"].get<double>() + e["dur"].get<double>(), durationUs + 1e-3) << e.dump();
        // PIPE_S (tid 0) also shows each instruction it issues: the scalar unit's work per
        // instruction (chip key pipes.scalar_cycles_per_instruction*), named after the instruction.
        if (e["tid"] != 0 && e["name"].get<std::string>().rfind("Mmad ", 0) == 0) {
            ++mmads;
            EXPECT_EQ(e["tid"], 3) << "mmad runs on the cube pipe";
            EXPECT_GT(e["args"]["m"].get<int>(), 0);
        }
    }
    EXPECT_EQ(pids.size(), about["block_dim"].get<std::size_t>()) << "one process per core that ran a block";
    EXPECT_GT(mmads, 0u);
    // Scalar, MTE2 (GM->L1), MTE1 (L1->L0A/B), cube and FixPipe all did work.
    EXPECT_EQ(pipeRowsWithWork(trace), (std::set<int>{0, 1, 2, 3, 4}));
    EXPECT_NE(outcome.out.find("core trace: matmul (aclnnMatmul"), std::string::npos) << outcome.out;
    EXPECT_NE(outcome.out.find("PIPE_M "), std::string::npos) << outcome.out;
    // The data paths of a matmul: A and B from GM into L1, on into L0A/L0B, results out of L0C.
    for (const char* path : {"data moved", "GM->L1 ", "L1->L0A ", "L1->L0B ", "L0C->GM "})
        EXPECT_NE(outcome.out.find(path), std::string::npos) << path << "\n" << outcome.out;
}

TEST(CoreTraceCommand, ChosenOpAndStep_VectorKernelOnVectorPipes_Deterministic) {
    TempDir out;
    const fs::path first = out.path() / "first.json", second = out.path() / "second.json";
    auto options = withCoreTrace(out, unitWorkload("elementwise_chain.yaml"), first);
    options.setOverrides = {"batch=8", "cols=256"};
    options.steps = 3;
    options.coreTraceOp = "relu";
    options.coreTraceStep = 1;
    ASSERT_EQ(runCommand(options).exitCode, 0);
    options.coreTracePath = second.string();
    options.outputParent = (out.path() / "again").string();
    ASSERT_EQ(runCommand(options).exitCode, 0);
    const std::string text = readFile(first);
    EXPECT_EQ(text, readFile(second));

    const json trace = json::parse(text);
    EXPECT_EQ(trace["otherData"]["op"], "relu");
    EXPECT_EQ(trace["otherData"]["step"], 1);
    EXPECT_EQ(trace["otherData"]["task_type"], "AI_VECTOR_CORE");
    bool sawRelu = false;
    for (const json& e : trace["traceEvents"]) {
        if (e["ph"] == "M" && e["name"] == "process_name") {
            EXPECT_EQ(e["args"]["name"].get<std::string>().rfind("AIV ", 0), 0u) << e.dump();
        }
        if (e["ph"] == "X" && e["name"] == "vrelu" && e["tid"] != 0) {  // tid 0: the scalar unit issuing it
            sawRelu = true;
            EXPECT_EQ(e["tid"], 5) << "vector pipe row";
        }
    }
    EXPECT_TRUE(sawRelu);
}

TEST(CoreTraceCommand, BadSelections_ClearErrorNoOutput) {
    struct Case {
        std::optional<std::string> op;
        std::optional<std::uint32_t> step;
        bool withFile;
        std::string expected;
    };
    const std::vector<Case> cases = {
        {"no_such_op", std::nullopt, true, "--core-trace-op: no op named 'no_such_op'"},
        {"rel", std::nullopt, true, "e.g. 'relu')"},  // names containing what was typed are suggested
        {"relu", 99, true, "--core-trace-step: step 99 is not simulated"},
        {"relu", std::nullopt, false, "needs --core-trace FILE"},
    };
    for (const Case& c : cases) {
        TempDir out;
        const fs::path file = out.path() / "trace.json";
        auto options = withCoreTrace(out, unitWorkload("elementwise_chain.yaml"), file);
        if (!c.withFile) options.coreTracePath.clear();
        options.coreTraceOp = c.op;
        options.coreTraceStep = c.step;
        const auto outcome = runCommand(options);
        EXPECT_EQ(outcome.exitCode, 2) << c.expected;
        EXPECT_NE(outcome.err.find(c.expected), std::string::npos) << outcome.err;
        EXPECT_FALSE(fs::exists(file));
        EXPECT_TRUE(entriesOf(out.path() / "profiles").empty()) << "no partial output directory";
    }
}

}  // namespace
}  // namespace ascendsim::e2e

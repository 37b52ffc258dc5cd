// The structural rules msprof-analyze depends on when it reads our trace_view.json (issue #11;
// scripts/check_with_msprof_analyze.sh runs the real tool, which CI cannot). Its compare backend
// nests a record under the previous one unless it starts strictly after that one's end, so two
// sibling host records that touch nest as a chain; its module tree comes from the nn.Module
// python_function events alone.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "sim/engine/e2e_support.h"
#include "profiler/writers/db_query_test_support.h"

namespace ascendsim {
namespace {

using namespace e2e;

// A small training model: Net > blocks(Sequential) > Block > conv(Conv2d) / act(ReLU), then
// Net > head(Linear); backward and an SGD-style optimizer; stacks with parameters.
constexpr const char* kWorkload = R"(
name: client_structure
parameters: {torch: /py/site-packages/torch, n: 2}
steps: 3
base_stack:
  - "$torch/nn/modules/module.py(1527): _call_impl"
  - "train.py(20): step"
  - "train.py(40): <module>"
module_classes:
  "blocks": Sequential
  "blocks/*": Block
  "conv": Conv2d
  "act": ReLU
  "head": Linear
tensors:
  - {name: x, shape: [$n, 16, 8, 8], dtype: fp16, format: NCHW, kind: input}
  - {name: w0, shape: [16, 16, 3, 3], dtype: fp16, format: NCHW, kind: weight}
  - {name: w1, shape: [16, 16, 3, 3], dtype: fp16, format: NCHW, kind: weight}
  - {name: fc.weight, shape: [10, 1024], dtype: fp16, kind: weight}
  - {name: flat, shape: [$n, 1024], dtype: fp16, view_of: a1}
ops:
  - {name: conv0, type: Conv2D, inputs: [x, w0], outputs: [c0], attrs: {pads: [1, 1, 1, 1]}, aten: aten::conv2d, module: Net/blocks/0/conv, stack: ["$torch/nn/modules/conv.py(456): _conv_forward", "model.py(10): forward"]}
  - {name: act0, type: Relu, inputs: [c0], outputs: [a0], aten: aten::relu, module: Net/blocks/0/act, stack: ["$torch/nn/functional.py(1469): relu", "model.py(11): forward"]}
  - {name: conv1, type: Conv2D, inputs: [a0, w1], outputs: [c1], attrs: {pads: [1, 1, 1, 1]}, aten: aten::conv2d, module: Net/blocks/1/conv, stack: ["$torch/nn/modules/conv.py(456): _conv_forward", "model.py(10): forward"]}
  - {name: act1, type: Relu, inputs: [c1], outputs: [a1], aten: aten::relu, module: Net/blocks/1/act, stack: ["$torch/nn/functional.py(1469): relu", "model.py(11): forward"]}
  - {name: fc, type: MatMul, inputs: [flat, fc.weight], outputs: [logits], attrs: {transpose_b: true}, aten: aten::linear, module: Net/head, stack: ["$torch/nn/modules/linear.py(114): forward", "model.py(14): forward"]}
  - {name: fc.grad_input, type: MatMul, inputs: [logits, fc.weight], outputs: [grad.flat], phase: backward, forward: fc, aten: aten::mm}
  - {name: fc.grad_weight, type: MatMul, inputs: [logits, flat], outputs: [fc.weight_grad], attrs: {transpose_a: true}, phase: backward, forward: fc, aten: aten::mm}
  - {name: sgd, type: Mul, inputs: [fc.weight_grad, fc.weight_grad], outputs: [fc.weight_step], phase: optimizer, aten: aten::mul}
profiler:
  activities: [CPU, NPU]
  schedule: {wait: 0, warmup: 1, active: 2, repeat: 1}
  record_shapes: true
  with_stack: true
  with_modules: true
  experimental_config: {profiler_level: Level1, export_type: text}
)";

struct Interval {
    std::int64_t startNs;
    std::int64_t endNs;
    std::string name;
};

// trace_view "ts" is a decimal string in us with 3 decimals: exact ns, no floating point.
std::int64_t tsNs(const nlohmann::json& ts) {
    std::string text = ts.is_string() ? ts.get<std::string>() : ts.dump();
    const std::size_t dot = text.find('.');
    std::string frac = dot == std::string::npos ? "" : text.substr(dot + 1);
    frac.resize(3, '0');
    return std::stoll(text.substr(0, dot)) * 1000 + std::stoll(frac);
}
std::int64_t durNs(const nlohmann::json& dur) { return std::llround(dur.get<double>() * 1000.0); }

class ClientStructure : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        dir_ = new TempDir();
        const fs::path yaml = dir_->path() / "client_structure.yaml";
        std::ofstream(yaml) << kWorkload;
        SimulationOptions options = commandOptions(yaml, dir_->path() / "out");
        options.exportType = "text,db";
        const CommandOutcome outcome = runCommand(options);
        ASSERT_EQ(outcome.exitCode, 0) << outcome.err;
        profilerDir_ = new fs::path(onlyProfilerDir(dir_->path() / "out"));
        trace_ = new nlohmann::json(nlohmann::json::parse(
            readFile(*profilerDir_ / "ASCEND_PROFILER_OUTPUT" / "trace_view.json")));
    }
    static void TearDownTestSuite() {
        delete trace_;
        delete profilerDir_;
        delete dir_;
    }

    // X events of one category, per thread, sorted as the compare backend sorts them.
    static std::map<std::int64_t, std::vector<Interval>> eventsOf(const std::string& category,
                                                                  const std::string& prefix = "") {
        std::map<std::int64_t, std::vector<Interval>> byThread;
        for (const auto& e : *trace_) {
            if (e.value("ph", "") != "X" || e.value("cat", "") != category) continue;
            const std::string name = e.value("name", "");
            if (name.rfind(prefix, 0) != 0) continue;
            const std::int64_t start = tsNs(e["ts"]);
            byThread[e["tid"].get<std::int64_t>()].push_back({start, start + durNs(e["dur"]), name});
        }
        for (auto& [tid, events] : byThread) {
            std::stable_sort(events.begin(), events.end(), [](const Interval& a, const Interval& b) {
                return a.startNs != b.startNs ? a.startNs < b.startNs : a.endNs > b.endNs;
            });
        }
        return byThread;
    }

    // Walks the events of one thread as a forest: every event lies inside the open one or starts
    // strictly after it ends. Returns the maximum depth.
    static std::size_t checkForest(const std::vector<Interval>& events, const std::string& what) {
        std::vector<const Interval*> open;
        std::size_t depth = 0;
        for (const Interval& e : events) {
            while (!open.empty() && open.back()->endNs <= e.startNs) {
                EXPECT_NE(open.back()->endNs, e.startNs)
                    << what << ": '" << e.name << "' starts exactly where '" << open.back()->name
                    << "' ends";
                open.pop_back();
            }
            if (!open.empty()) {
                EXPECT_LE(e.endNs, open.back()->endNs)
                    << what << ": '" << e.name << "' overlaps the end of '" << open.back()->name << "'";
            }
            open.push_back(&e);
            depth = std::max(depth, open.size());
        }
        return depth;
    }

    static TempDir* dir_;
    static fs::path* profilerDir_;
    static nlohmann::json* trace_;
};

TempDir* ClientStructure::dir_ = nullptr;
fs::path* ClientStructure::profilerDir_ = nullptr;
nlohmann::json* ClientStructure::trace_ = nullptr;

TEST_F(ClientStructure, HostRecordSiblingsNeverTouchOrOverlap) {
    const auto ops = eventsOf("cpu_op");
    ASSERT_GE(ops.size(), 2u);  // the Python thread and the autograd thread
    for (const auto& [tid, events] : ops) checkForest(events, "cpu_op thread " + std::to_string(tid));
    for (const auto& [tid, events] : eventsOf("python_function"))
        checkForest(events, "python_function thread " + std::to_string(tid));
}

TEST_F(ClientStructure, HostRecordDepthIsTheCallDepthNotTheOpCount) {
    // ProfilerStep > aten::conv2d > aten::convolution > aten::_convolution > aclnnConvolution:
    // never more than a handful, however many ops a step runs (touching siblings would chain).
    for (const auto& [tid, events] : eventsOf("cpu_op")) EXPECT_LE(checkForest(events, "cpu_op"), 6u);
}

TEST_F(ClientStructure, ModuleEventsSpanEachCallAndNestAsTheModel) {
    const auto modules = eventsOf("python_function", "nn.Module: ");
    ASSERT_EQ(modules.size(), 1u);  // the Python thread only: backward runs no modules
    const auto& events = modules.begin()->second;
    // Net > Sequential > Block > Conv2d: the model's depth, not the op count.
    EXPECT_EQ(checkForest(events, "nn.Module"), 4u);
    // One event per module call per step (2 recorded steps): Net, blocks, 2 Block, 2 Conv2d,
    // 2 ReLU, head. Instances are numbered per class in first-call order.
    std::map<std::string, int> count;
    for (const auto& e : events) ++count[e.name];
    const std::map<std::string, int> expected = {
        {"nn.Module: Net_0", 2},        {"nn.Module: Sequential_0", 2}, {"nn.Module: Block_0", 2},
        {"nn.Module: Block_1", 2},      {"nn.Module: Conv2d_0", 2},     {"nn.Module: Conv2d_1", 2},
        {"nn.Module: ReLU_0", 2},       {"nn.Module: ReLU_1", 2},       {"nn.Module: Linear_0", 2}};
    EXPECT_EQ(count, expected);
}

TEST_F(ClientStructure, ModuleEventsCarryTheirInstanceNumberAsModuleId) {
    for (const auto& e : *trace_) {
        if (e.value("cat", "") != "python_function") continue;
        const std::string name = e.value("name", "");
        if (name.rfind("nn.Module: ", 0) != 0) {
            EXPECT_FALSE(e["args"].contains("Python module id")) << name;
            continue;
        }
        const std::string number = name.substr(name.rfind('_') + 1);
        EXPECT_EQ(e["args"]["Python module id"].get<std::int64_t>(), std::stoll(number)) << name;
    }
}

TEST_F(ClientStructure, NoWorkloadPlaceholderSurvivesIntoAnyOutputFile) {
    std::size_t scanned = 0;
    for (const auto& file : relativeFiles(*profilerDir_)) {
        const std::string text = readFile(*profilerDir_ / file);
        ++scanned;
        for (const char* placeholder : {"$torch", "$tv", "$n"})
            EXPECT_EQ(text.find(placeholder), std::string::npos) << file << " holds " << placeholder;
    }
    EXPECT_GT(scanned, 10u);
    const std::string trace = trace_->dump();
    EXPECT_NE(trace.find("/py/site-packages/torch/nn/modules/module.py(1527): _call_impl"),
              std::string::npos);
}

// The input batch's H2D copy and loss.item()'s D2H read are MEMCPY_ASYNC tasks on the compute
// stream in every file that lists device tasks (cluster_time_summary reads them from the DB).
TEST_F(ClientStructure, MemcpyTasksAppearInEveryFileListingTasks) {
    std::size_t traced = 0;
    for (const auto& e : *trace_) {
        if (e.value("name", "") != "MEMCPY_ASYNC" || e.value("ph", "") != "X") continue;
        ++traced;
        EXPECT_EQ(e["args"]["Task Type"], "PCIE_DMA_SQE");
        EXPECT_GT(durNs(e["dur"]), 0);
    }
    EXPECT_EQ(traced, 4u);  // 2 recorded steps x (H2D input, D2H loss)
    const e2e::CsvTable taskTime = readCsv(*profilerDir_ / "ASCEND_PROFILER_OUTPUT" / "task_time.csv");
    std::size_t listed = 0;
    for (std::size_t r = 0; r < taskTime.rows.size(); ++r)
        listed += taskTime.cell(r, "kernel_type") == "MEMCPY_ASYNC";
    EXPECT_EQ(listed, 4u);
    fs::path db;
    for (const auto& f : relativeFiles(*profilerDir_))
        if (f.find("ascend_pytorch_profiler") != std::string::npos && f.ends_with(".db")) db = *profilerDir_ / f;
    ASSERT_FALSE(db.empty());
    const auto rows = testing_support::query(db,
        "SELECT COUNT(*) FROM TASK t JOIN STRING_IDS s ON s.id = t.taskType WHERE s.value = 'MEMCPY_ASYNC' "
        "AND t.endNs > t.startNs AND t.connectionId IN (SELECT connectionId FROM CANN_API)");
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0], "4");
}

}  // namespace
}  // namespace ascendsim

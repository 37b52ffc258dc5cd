#include "profiler/writers/timeline/trace_view.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <set>

#include "profiler/assembly/sample_run.h"
#include "profiler/format/time_format.h"
#include "profiler/writers/timeline/msprof_timeline.h"
#include "support/scratch_dir.h"

namespace ascendsim {
namespace {

using testing_support::sampleRun;

ProfilerConfig level1Config() {
    ProfilerConfig c;
    c.level = ProfilerLevel::Level1;
    c.recordShapes = true;
    c.withStack = true;
    return c;
}

nlohmann::json parse(const std::string& text) { return nlohmann::json::parse(text); }

TEST(TraceView, IsACompactJsonListWithoutTrailingNewline) {
    const auto run = sampleRun();
    const auto text = renderTraceView(run, level1Config(), buildMsprofTraceEvents(run, level1Config()));
    ASSERT_FALSE(text.empty());
    EXPECT_EQ(text.front(), '[');
    EXPECT_EQ(text.back(), ']');
    EXPECT_TRUE(parse(text).is_array());
    EXPECT_NE(text.find("{\"ph\": \"X\", \"name\": \"ProfilerStep#0\""), std::string::npos);
    EXPECT_EQ(text.find("\":\""), std::string::npos);  // never the separator without a space
}

TEST(TraceView, EveryCompleteEventHasANumericDuration) {
    const auto run = sampleRun();
    const auto events = parse(renderTraceView(run, level1Config(), buildMsprofTraceEvents(run, level1Config())));
    std::size_t complete = 0;
    for (const auto& e : events) {
        if (e["ph"] != "X") continue;
        ++complete;
        ASSERT_TRUE(e.contains("dur")) << e.dump();
        EXPECT_TRUE(e["dur"].is_number()) << e.dump();
        EXPECT_TRUE(e["ts"].is_string()) << e.dump();
    }
    EXPECT_GT(complete, run.hostOps.size() + run.kernels.size());
}

TEST(TraceView, EveryKernelAppearsOnceWithItsStartAndDuration) {
    const auto run = sampleRun();
    const auto events = parse(renderTraceView(run, level1Config(), buildMsprofTraceEvents(run, level1Config())));
    const auto hwPid = ascendHardwarePid(run, FormatVersion::Cann83);
    for (const auto& k : run.kernels) {
        int found = 0;
        for (const auto& e : events) {
            if (e["ph"] != "X" || e["pid"] != hwPid || e["name"] != k.name) continue;
            if (e["ts"] != nsToUsString(run.epochNs + k.device.startNs)) continue;
            ++found;
            EXPECT_DOUBLE_EQ(e["dur"].get<double>(), static_cast<double>(k.device.endNs - k.device.startNs) / 1000.0);
            EXPECT_EQ(e["args"]["Task Type"], hardwareTaskTypeArg(k.device.type, level1Config()));
            EXPECT_EQ(e["args"]["connection_id"], k.correlationId);
        }
        EXPECT_EQ(found, 1) << k.name;
    }
}

TEST(TraceView, TorchToNpuFlowEndsOnTheKernelsPidTidAndTs) {
    const auto run = sampleRun();
    const auto events = parse(renderTraceView(run, level1Config(), buildMsprofTraceEvents(run, level1Config())));
    std::set<std::tuple<std::uint64_t, std::uint64_t, std::string>> kernelSlots;
    for (const auto& e : events)
        if (e["ph"] == "X" && e["args"].contains("Task Type"))
            kernelSlots.insert({e["pid"].get<std::uint64_t>(), e["tid"].get<std::uint64_t>(), e["ts"].get<std::string>()});
    std::size_t ends = 0, starts = 0;
    for (const auto& e : events) {
        if (e.value("name", "") != "torch_to_npu") continue;
        EXPECT_EQ(e["cat"], "async_npu");
        if (e["ph"] == "s") {
            ++starts;
            EXPECT_EQ(e["pid"], testing_support::kSamplePid);
            continue;
        }
        ++ends;
        EXPECT_TRUE(kernelSlots.contains({e["pid"].get<std::uint64_t>(), e["tid"].get<std::uint64_t>(),
                                          e["ts"].get<std::string>()}))
            << e.dump();
    }
    EXPECT_EQ(ends, run.kernels.size());
    EXPECT_EQ(starts, run.kernels.size());
}

TEST(TraceView, ShapesAndStacksUseSemicolonCrLf) {
    const auto run = sampleRun(1);
    const auto events = traceEventsJson(buildFrameworkTraceEvents(run, level1Config()));
    bool seen = false;
    for (const auto& e : events) {
        if (e.value("name", "") != "aten::conv2d") continue;
        seen = true;
        EXPECT_EQ(e["args"]["Input Dims"], "[32, 3, 224, 224];\r\n[64, 3, 7, 7]");
        EXPECT_EQ(e["args"]["Input type"], "float;\r\nfloat");
        EXPECT_EQ(e["args"]["Call stack"], "train.py(10): step;\r\ntrain.py(3): <module>");
        std::vector<std::string> keys;
        for (const auto& [k, v] : e["args"].items()) keys.push_back(k);
        EXPECT_EQ(keys, (std::vector<std::string>{"Sequence number", "Fwd thread id", "Input Dims", "Input type",
                                                  "Call stack"}));
    }
    EXPECT_TRUE(seen);
}

TEST(TraceView, Level0DropsCannApiEventsButKeepsHostToDeviceFlows) {
    auto config = level1Config();
    config.level = ProfilerLevel::Level0;
    const auto run = sampleRun(1);
    const auto events = parse(renderTraceView(run, config, buildMsprofTraceEvents(run, config)));
    std::size_t flows = 0;
    for (const auto& e : events) {
        const std::string name = e.value("name", "");
        EXPECT_FALSE(name.starts_with("AscendCL@") || name.starts_with("Node@") || name.starts_with("Runtime@")) << name;
        if (e.contains("args") && e["args"].contains("name")) {
            EXPECT_NE(e["args"]["name"], "CANN");
        }
        if (name.starts_with("HostToDevice") && e["ph"] == "s") ++flows;
    }
    EXPECT_EQ(flows, run.kernels.size());
}

TEST(TraceView, TaskQueueAndFwdBwdFlowsPairUp) {
    const auto run = sampleRun(2);
    const auto events = traceEventsJson(buildFrameworkTraceEvents(run, level1Config()));
    std::map<std::string, int> balance;
    for (const auto& e : events) {
        const std::string name = e.value("name", "");
        if (name != "enqueue_to_dequeue" && name != "fwdbwd") continue;
        const std::string key = name + "#" + e["id"].dump();
        balance[key] += e["ph"] == "s" ? 1 : -1;
    }
    EXPECT_EQ(balance.size(), run.taskQueue.size() + run.steps.size());
    for (const auto& [key, b] : balance) EXPECT_EQ(b, 0) << key;
}

// torch_npu's pairing: start = latest forward-thread op (Fwd thread id 0) with the sequence
// number, end = latest op with a non-zero Fwd thread id (a small RecordFunction thread number,
// e.g. 1, never the OS tid), as in the e5a31957 trace (s on the main tid, f on the autograd tid).
TEST(TraceView, FwdBwdFlowStartsOnTheInnermostForwardOpAndEndsOnTheAutogradNode) {
    RunRecord run = sampleRun(1);
    const auto inner = std::find_if(run.hostOps.begin(), run.hostOps.end(),
                                    [](const HostOpRecord& op) { return op.name == "aten::convolution"; });
    ASSERT_NE(inner, run.hostOps.end());
    inner->sequenceNumber = 40;  // the autograd node is created here (Take); conv2d only peeks
    const auto events = traceEventsJson(buildFrameworkTraceEvents(run, level1Config()));
    std::vector<OrderedJson> flows;
    for (const auto& e : events)
        if (e.value("name", "") == "fwdbwd") flows.push_back(e);
    ASSERT_EQ(flows.size(), 2U);
    EXPECT_EQ(flows[0]["ph"], "s");
    EXPECT_EQ(flows[0]["id"], 40);
    EXPECT_EQ(flows[0]["tid"], testing_support::kMainTid);
    EXPECT_EQ(flows[0]["ts"], traceTimestamp(run, inner->startNs));
    EXPECT_EQ(flows[1]["ph"], "f");
    EXPECT_EQ(flows[1]["tid"], testing_support::kBackwardTid);
}

TEST(TraceView, DequeueThreadSortsAfterAllOpThreads) {
    const auto run = sampleRun(1);
    const auto events = traceEventsJson(buildFrameworkTraceEvents(run, level1Config()));
    for (const auto& e : events) {
        if (e["ph"] == "M" && e["name"] == "thread_sort_index" && e["tid"] == testing_support::kDequeueTid) {
            EXPECT_EQ(e["args"]["sort_index"], testing_support::kBackwardTid + 1);
        }
    }
}

TEST(TraceView, WithoutCpuActivityOnlyCannEventsRemain) {
    auto config = level1Config();
    config.activityCpu = false;
    const auto run = sampleRun(1);
    const auto events = parse(renderTraceView(run, config, buildMsprofTraceEvents(run, config)));
    for (const auto& e : events) EXPECT_NE(e["pid"], testing_support::kSamplePid) << e.dump();
}

TEST(TraceView, ChromeTraceWritesTheSameBytes) {
    const auto run = sampleRun(1);
    const auto path = testing_scratch::scratchDir("chrome_trace_test") / "trace.json";
    writeChromeTrace(path, run, level1Config());
    std::ifstream in(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto mode = std::filesystem::status(path).permissions();
    std::filesystem::remove(path);
    EXPECT_EQ(bytes, renderTraceView(run, level1Config(), buildMsprofTraceEvents(run, level1Config())));
    EXPECT_EQ(mode, std::filesystem::perms(0640));  // rw-r-----, as every other profiler file
}

}  // namespace
}  // namespace ascendsim

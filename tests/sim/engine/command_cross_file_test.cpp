// The files of one `ascendsim` run agree with each other: kernel_details.csv, op_statistic.csv and
// trace_view.json describe the same kernels with the same times, the torch→NPU and host→device
// flows land on real kernels, and the PMU columns are self-consistent (formats.md §3.1, §3.2, §3.5).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>

#include "sim/engine/e2e_support.h"

namespace ascendsim::e2e {
namespace {

using nlohmann::json;

// Cube and vector kernels, an op type launched twice per step, and two recorded steps.
constexpr const char* kMixedWorkload =
    "name: mixed_cube_vector\n"
    "steps: 2\n"
    "tensors:\n"
    "  - {name: a, shape: [128, 512], dtype: fp16, kind: input}\n"
    "  - {name: w1, shape: [512, 512], dtype: fp16, kind: weight}\n"
    "  - {name: w2, shape: [512, 128], dtype: fp16, kind: weight}\n"
    "  - {name: bias, shape: [512], dtype: fp16, kind: weight}\n"
    "ops:\n"
    "  - {name: mm1, type: MatMul, inputs: [a, w1], outputs: [h], aten: aten::mm}\n"
    "  - {name: add1, type: Add, inputs: [h, bias], outputs: [hb], aten: aten::add}\n"
    "  - {name: relu, type: Relu, inputs: [hb], outputs: [r], aten: aten::relu}\n"
    "  - {name: add2, type: Add, inputs: [r, bias], outputs: [rb], aten: aten::add}\n"
    "  - {name: mm2, type: MatMul, inputs: [rb, w2], outputs: [y], aten: aten::mm}\n";

std::string stripTab(std::string s) {
    if (!s.empty() && s.back() == '\t') s.pop_back();
    return s;
}

class CrossFile : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        scratch_ = new TempDir;
        dir_ = new fs::path(scratch_->path() / "setup-failed");
        const fs::path workload = scratch_->path() / "mixed.yaml";
        std::ofstream(workload) << kMixedWorkload;
        const fs::path out = scratch_->path() / "out";
        fs::create_directory(out);
        auto options = commandOptions(workload, out);
        options.level = "Level2";
        const auto outcome = runCommand(options);
        ASSERT_EQ(outcome.exitCode, 0) << outcome.err;
        *dir_ = onlyProfilerDir(out) / "ASCEND_PROFILER_OUTPUT";
    }
    static void TearDownTestSuite() {
        delete dir_;
        delete scratch_;
    }

    static CsvTable kernels() { return readCsv(*dir_ / "kernel_details.csv"); }
    static json trace() { return json::parse(readFile(*dir_ / "trace_view.json")); }

    // pid of the trace process whose process_name metadata is `name`.
    static std::int64_t pidOf(const json& events, const std::string& name) {
        for (const auto& e : events)
            if (e.value("ph", "") == "M" && e.value("name", "") == "process_name" && e["args"].value("name", "") == name)
                return e["pid"].get<std::int64_t>();
        ADD_FAILURE() << "no process named " << name;
        return -1;
    }

    static std::vector<json> eventsWhere(const json& events, const std::function<bool(const json&)>& keep) {
        std::vector<json> kept;
        for (const auto& e : events)
            if (keep(e)) kept.push_back(e);
        return kept;
    }

    static std::vector<json> hardwareKernels(const json& events) {
        const auto pid = pidOf(events, "Ascend Hardware");
        return eventsWhere(events, [&](const json& e) { return e.value("ph", "") == "X" && e["pid"] == pid; });
    }

    static inline TempDir* scratch_ = nullptr;
    static inline fs::path* dir_ = nullptr;
};

TEST_F(CrossFile, TraceView_IsAJsonListWithDurOnEveryCompleteEvent) {
    const json events = trace();
    ASSERT_TRUE(events.is_array());
    std::size_t complete = 0;
    for (const auto& e : events) {
        if (e.value("ph", "") != "X") continue;
        ++complete;
        ASSERT_TRUE(e.contains("dur")) << e.dump();
        EXPECT_TRUE(e["dur"].is_number()) << e.dump();
        EXPECT_GE(e["dur"].get<double>(), 0.0) << e.dump();
        EXPECT_TRUE(e["ts"].is_string()) << e.dump();
    }
    EXPECT_GT(complete, 10u);
}

TEST_F(CrossFile, KernelDetails_EveryDurationNumericAndStartTabbed) {
    const CsvTable table = kernels();
    ASSERT_EQ(table.rows.size(), 10u);  // 5 kernels × 2 steps
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        EXPECT_GT(numberCell(table.cell(r, "Duration(us)")), 0.0);
        EXPECT_EQ(table.cell(r, "Start Time(us)").back(), '\t');
        EXPECT_NO_FATAL_FAILURE(numberCell(table.cell(r, "Wait Time(us)")));
    }
}

TEST_F(CrossFile, EveryKernelRow_IsAnAscendHardwareEventWithSameStartAndDuration) {
    const CsvTable table = kernels();
    const auto hardware = hardwareKernels(trace());
    EXPECT_EQ(hardware.size(), table.rows.size());
    std::map<std::pair<std::string, std::string>, double> durationByNameAndTs;
    for (const auto& e : hardware) durationByNameAndTs[{e["name"].get<std::string>(), e["ts"].get<std::string>()}] = e["dur"].get<double>();
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        const std::string start = stripTab(table.cell(r, "Start Time(us)"));
        const auto it = durationByNameAndTs.find({table.cell(r, "Name"), start});
        ASSERT_NE(it, durationByNameAndTs.end()) << table.cell(r, "Name") << " at " << start;
        EXPECT_NEAR(it->second, numberCell(table.cell(r, "Duration(us)")), 5e-4) << table.cell(r, "Name");
    }
}

TEST_F(CrossFile, OpStatistic_IsTheAggregationOfKernelDetails) {
    struct Aggregate {
        int count = 0;
        double total = 0, min = 1e300, max = 0;
    };
    std::map<std::pair<std::string, std::string>, Aggregate> expected;
    const CsvTable k = kernels();
    double grandTotal = 0;
    for (std::size_t r = 0; r < k.rows.size(); ++r) {
        auto& a = expected[{k.cell(r, "Type"), k.cell(r, "Accelerator Core")}];
        const double d = numberCell(k.cell(r, "Duration(us)"));
        ++a.count, a.total += d, a.min = std::min(a.min, d), a.max = std::max(a.max, d);
        grandTotal += d;
    }
    const CsvTable s = readCsv(*dir_ / "op_statistic.csv");
    ASSERT_EQ(s.rows.size(), expected.size());
    double previousTotal = 1e300, ratioSum = 0;
    for (std::size_t r = 0; r < s.rows.size(); ++r) {
        const auto key = std::make_pair(s.cell(r, "OP Type"), s.cell(r, "Core Type"));
        ASSERT_TRUE(expected.count(key)) << key.first << "/" << key.second;
        const Aggregate& a = expected[key];
        const double tolerance = 1e-3 * a.count;  // kernel_details rounds each duration to 3 decimals
        EXPECT_EQ(numberCell(s.cell(r, "Count")), a.count) << key.first;
        EXPECT_NEAR(numberCell(s.cell(r, "Total Time(us)")), a.total, tolerance) << key.first;
        EXPECT_NEAR(numberCell(s.cell(r, "Min Time(us)")), a.min, 1e-3) << key.first;
        EXPECT_NEAR(numberCell(s.cell(r, "Max Time(us)")), a.max, 1e-3) << key.first;
        EXPECT_NEAR(numberCell(s.cell(r, "Avg Time(us)")), a.total / a.count, 1e-3) << key.first;
        EXPECT_NEAR(numberCell(s.cell(r, "Ratio(%)")), 100.0 * a.total / grandTotal, 2e-3) << key.first;
        const double total = numberCell(s.cell(r, "Total Time(us)"));
        EXPECT_LE(total, previousTotal) << "rows sorted by Total Time descending";
        previousTotal = total;
        ratioSum += numberCell(s.cell(r, "Ratio(%)"));
    }
    EXPECT_NEAR(ratioSum, 100.0, 0.01);
    EXPECT_EQ((expected[{"Add", "AI_VECTOR_CORE"}].count), 4);  // two Adds per step
}

TEST_F(CrossFile, EveryKernel_HasOneTorchToNpuFlowFromTheLaunchingTorchOp) {
    const json events = trace();
    const auto pythonPid = pidOf(events, "Python");
    std::map<std::uint64_t, json> starts, finishes;
    for (const auto& e : events) {
        if (e.value("name", "") != "torch_to_npu") continue;
        EXPECT_EQ(e.value("cat", ""), "async_npu");
        auto& slot = e["ph"] == "s" ? starts : finishes;
        EXPECT_FALSE(slot.count(e["id"].get<std::uint64_t>())) << "duplicate flow id " << e.dump();
        slot[e["id"].get<std::uint64_t>()] = e;
    }
    std::set<std::tuple<std::int64_t, std::string>> torchOpStarts;  // (tid, ts) of Python cpu_ops
    for (const auto& e : events)
        if (e.value("ph", "") == "X" && e["pid"] == pythonPid && e.value("cat", "") == "cpu_op")
            torchOpStarts.insert({e["tid"].get<std::int64_t>(), e["ts"].get<std::string>()});

    const auto hardware = hardwareKernels(events);
    ASSERT_EQ(finishes.size(), hardware.size());
    for (const auto& kernel : hardware) {
        const std::string ts = kernel["ts"];
        const auto id = static_cast<std::uint64_t>(std::llround(std::stold(ts) * 1000.0L));  // kernel ts in ns
        ASSERT_TRUE(finishes.count(id)) << "no torch_to_npu flow ends at " << kernel.dump();
        const json& f = finishes[id];
        EXPECT_EQ(f["pid"], kernel["pid"]);
        EXPECT_EQ(f["tid"], kernel["tid"]);
        EXPECT_EQ(f["ts"], kernel["ts"]);
        ASSERT_TRUE(starts.count(id)) << "flow " << id << " has no start";
        const json& s = starts[id];
        EXPECT_EQ(s["pid"].get<std::int64_t>(), pythonPid);
        EXPECT_TRUE(torchOpStarts.count({s["tid"].get<std::int64_t>(), s["ts"].get<std::string>()}))
            << "flow start is not at a torch op: " << s.dump();
    }
}

TEST_F(CrossFile, EveryNodeLaunch_HasAHostToDeviceFlowToItsKernel) {
    const json events = trace();
    const auto hardware = hardwareKernels(events);
    std::map<std::string, json> flowStarts, flowEnds;  // HostToDevice by id
    for (const auto& e : events)
        if (e.value("cat", "") == "HostToDevice") (e["ph"] == "s" ? flowStarts : flowEnds)[e["id"].get<std::string>()] = e;
    const auto launches = eventsWhere(events, [](const json& e) { return e.value("name", "") == "Node@launch"; });
    ASSERT_EQ(launches.size(), hardware.size());
    for (const auto& launch : launches) {
        const json* start = nullptr;
        for (const auto& [id, s] : flowStarts)
            if (s["pid"] == launch["pid"] && s["tid"] == launch["tid"] && s["ts"] == launch["ts"]) start = &s;
        ASSERT_NE(start, nullptr) << "no HostToDevice flow starts at " << launch.dump();
        const std::string id = (*start)["id"].get<std::string>();
        ASSERT_TRUE(flowEnds.count(id)) << start->dump();
        const json& end = flowEnds[id];
        int landed = 0;
        for (const auto& k : hardware)
            if (k["pid"] == end["pid"] && k["tid"] == end["tid"] && k["ts"] == end["ts"]) {
                ++landed;
                EXPECT_EQ(k["args"]["connection_id"], launch["args"]["connection_id"]) << k.dump();
            }
        EXPECT_EQ(landed, 1) << end.dump();
    }
}

TEST_F(CrossFile, PmuColumns_RatiosInUnitRangeAndPipeTimesWithinCoreTime) {
    const CsvTable k = kernels();
    const std::size_t aicTime = k.column("aicore_time(us)"), aivTime = k.column("aiv_time(us)");
    const std::size_t duration = k.column("Duration(us)");
    int checkedRatios = 0;
    for (const auto& row : k.rows) {
        const double durationUs = numberCell(row[duration]);
        // Core time is the mean block time × waves: within the kernel's span up to 3-decimal rounding.
        EXPECT_LE(numberCell(row[aicTime]), durationUs + 1.5e-3) << row[k.column("Name")];
        EXPECT_LE(numberCell(row[aivTime]), durationUs + 1.5e-3) << row[k.column("Name")];
        for (std::size_t c = 0; c < k.header.size(); ++c) {
            const std::string& name = k.header[c];
            const bool ratio = name.ends_with("_ratio") || name.ends_with("_rate");
            if (ratio) {
                const double v = numberCell(row[c]);
                EXPECT_GE(v, 0.0) << name;
                EXPECT_LE(v, 1.0) << name;
                ++checkedRatios;
            }
            if (name.ends_with("_time(us)") && c != aicTime && c != aivTime) {
                const std::size_t whole = name.starts_with("aic_") ? aicTime : aivTime;
                EXPECT_LE(numberCell(row[c]), numberCell(row[whole]) + 1e-3) << name << " in " << row[k.column("Name")];
            }
        }
    }
    EXPECT_EQ(checkedRatios, 10 * 11);  // 10 rows × (6 aic + 5 aiv ratio/rate columns)
}

TEST_F(CrossFile, VectorKernels_RunOnAivAndCubeKernelsOnAic) {
    const CsvTable k = kernels();
    for (std::size_t r = 0; r < k.rows.size(); ++r) {
        const bool cube = k.cell(r, "Type") == "MatMul";
        EXPECT_EQ(k.cell(r, "Accelerator Core"), cube ? "AI_CORE" : "AI_VECTOR_CORE");
        EXPECT_GT(numberCell(k.cell(r, cube ? "aicore_time(us)" : "aiv_time(us)")), 0.0);
        EXPECT_EQ(numberCell(k.cell(r, cube ? "aiv_time(us)" : "aicore_time(us)")), 0.0);
    }
}

}  // namespace
}  // namespace ascendsim::e2e

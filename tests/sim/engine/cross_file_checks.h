#pragma once
// Cross-file consistency checks of one ASCEND_PROFILER_OUTPUT directory (formats.md §3.1, §3.2,
// §3.5): kernel_details.csv, op_statistic.csv and trace_view.json describe the same kernels with
// the same times, the torch→NPU and host→device flows land on real kernels, and the PMU columns
// are self-consistent. Used on small workloads in the CI tier and on full-size runs in the long one.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>

#include "sim/engine/e2e_support.h"

namespace ascendsim::e2e {

// The files the checks read, parsed once.
struct ProfilerOutputFiles {
    explicit ProfilerOutputFiles(const fs::path& outputDir)
        : dir(outputDir),
          kernels(readCsv(outputDir / "kernel_details.csv")),
          trace(nlohmann::json::parse(readFile(outputDir / "trace_view.json"))) {}
    fs::path dir;
    CsvTable kernels;
    nlohmann::json trace;
};

inline std::string withoutTrailingTab(std::string s) {
    if (!s.empty() && s.back() == '\t') s.pop_back();
    return s;
}

// pid of the trace process whose process_name metadata is `name`.
inline std::int64_t tracePidOf(const nlohmann::json& events, const std::string& name) {
    for (const auto& e : events)
        if (e.value("ph", "") == "M" && e.value("name", "") == "process_name" && e["args"].value("name", "") == name)
            return e["pid"].get<std::int64_t>();
    ADD_FAILURE() << "no process named " << name;
    return -1;
}

inline std::vector<nlohmann::json> traceEventsWhere(const nlohmann::json& events,
                                                    const std::function<bool(const nlohmann::json&)>& keep) {
    std::vector<nlohmann::json> kept;
    for (const auto& e : events)
        if (keep(e)) kept.push_back(e);
    return kept;
}

// The Ascend Hardware process's complete events: kernels (and, with collectives, HCCL tasks).
// The kernels of the Ascend Hardware process: every task but the copies (MEMCPY_ASYNC, Task Type
// PCIE_DMA_SQE), which real trace_views show there too while kernel_details leaves them out.
inline std::vector<nlohmann::json> hardwareKernelEvents(const nlohmann::json& events) {
    const auto pid = tracePidOf(events, "Ascend Hardware");
    return traceEventsWhere(events, [&](const nlohmann::json& e) {
        return e.value("ph", "") == "X" && e["pid"] == pid &&
               e.value("args", nlohmann::json::object()).value("Task Type", "") != "PCIE_DMA_SQE";
    });
}

// A JSON list; every complete event has a numeric, non-negative dur and a string ts.
inline std::size_t expectTraceViewWellFormed(const ProfilerOutputFiles& files) {
    const nlohmann::json& events = files.trace;
    EXPECT_TRUE(events.is_array());
    std::size_t complete = 0;
    for (const auto& e : events) {
        if (e.value("ph", "") != "X") continue;
        ++complete;
        EXPECT_TRUE(e.contains("dur")) << e.dump();
        if (!e.contains("dur")) continue;
        EXPECT_TRUE(e["dur"].is_number()) << e.dump();
        EXPECT_GE(e["dur"].get<double>(), 0.0) << e.dump();
        EXPECT_TRUE(e["ts"].is_string()) << e.dump();
    }
    return complete;
}

// Every Duration(us) and Wait Time(us) numeric and positive, every start tab-terminated.
inline void expectKernelDetailsValueShapes(const ProfilerOutputFiles& files) {
    const CsvTable& table = files.kernels;
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        EXPECT_GT(numberCell(table.cell(r, "Duration(us)")), 0.0);
        EXPECT_EQ(table.cell(r, "Start Time(us)").back(), '\t');
        EXPECT_NO_FATAL_FAILURE(numberCell(table.cell(r, "Wait Time(us)")));
    }
}

// Every kernel_details row is an Ascend Hardware event with the same name, start and duration.
inline void expectKernelRowsInTrace(const ProfilerOutputFiles& files) {
    const CsvTable& table = files.kernels;
    const auto hardware = hardwareKernelEvents(files.trace);
    EXPECT_EQ(hardware.size(), table.rows.size());
    std::map<std::pair<std::string, std::string>, double> durationByNameAndTs;
    for (const auto& e : hardware) durationByNameAndTs[{e["name"].get<std::string>(), e["ts"].get<std::string>()}] = e["dur"].get<double>();
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        const std::string start = withoutTrailingTab(table.cell(r, "Start Time(us)"));
        const auto it = durationByNameAndTs.find({table.cell(r, "Name"), start});
        ASSERT_NE(it, durationByNameAndTs.end()) << table.cell(r, "Name") << " at " << start;
        EXPECT_NEAR(it->second, numberCell(table.cell(r, "Duration(us)")), 5e-4) << table.cell(r, "Name");
    }
}

// op_statistic.csv is exactly the aggregation of kernel_details.csv by (Type, Accelerator Core),
// sorted by total time. Returns the kernel count per (type, core).
inline std::map<std::pair<std::string, std::string>, int> expectOpStatisticAggregatesKernels(
    const ProfilerOutputFiles& files) {
    struct Aggregate {
        int count = 0;
        double total = 0, min = 1e300, max = 0;
    };
    std::map<std::pair<std::string, std::string>, Aggregate> expected;
    const CsvTable& k = files.kernels;
    double grandTotal = 0;
    for (std::size_t r = 0; r < k.rows.size(); ++r) {
        auto& a = expected[{k.cell(r, "Type"), k.cell(r, "Accelerator Core")}];
        const double d = numberCell(k.cell(r, "Duration(us)"));
        ++a.count, a.total += d, a.min = std::min(a.min, d), a.max = std::max(a.max, d);
        grandTotal += d;
    }
    std::map<std::pair<std::string, std::string>, int> counts;
    for (const auto& [key, a] : expected) counts[key] = a.count;
    const CsvTable s = readCsv(files.dir / "op_statistic.csv");
    EXPECT_EQ(s.rows.size(), expected.size());
    double previousTotal = 1e300, ratioSum = 0;
    for (std::size_t r = 0; r < s.rows.size(); ++r) {
        const auto key = std::make_pair(s.cell(r, "OP Type"), s.cell(r, "Core Type"));
        EXPECT_TRUE(expected.count(key)) << key.first << "/" << key.second;
        if (!expected.count(key)) continue;
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
    return counts;
}

// Every kernel has one async_npu torch_to_npu flow: its end on the kernel (same pid, tid, ts
// string), its start at a Python cpu_op.
inline void expectTorchToNpuFlowPerKernel(const ProfilerOutputFiles& files) {
    const nlohmann::json& events = files.trace;
    const auto pythonPid = tracePidOf(events, "Python");
    std::map<std::uint64_t, nlohmann::json> starts, finishes;
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

    const auto hardware = hardwareKernelEvents(events);
    EXPECT_EQ(finishes.size(), hardware.size());
    for (const auto& kernel : hardware) {
        const std::string ts = kernel["ts"];
        const auto id = static_cast<std::uint64_t>(std::llround(std::stold(ts) * 1000.0L));  // kernel ts in ns
        ASSERT_TRUE(finishes.count(id)) << "no torch_to_npu flow ends at " << kernel.dump();
        const nlohmann::json& f = finishes[id];
        EXPECT_EQ(f["pid"], kernel["pid"]);
        EXPECT_EQ(f["tid"], kernel["tid"]);
        EXPECT_EQ(f["ts"], kernel["ts"]);
        ASSERT_TRUE(starts.count(id)) << "flow " << id << " has no start";
        const nlohmann::json& s = starts[id];
        EXPECT_EQ(s["pid"].get<std::int64_t>(), pythonPid);
        EXPECT_TRUE(torchOpStarts.count({s["tid"].get<std::int64_t>(), s["ts"].get<std::string>()}))
            << "flow start is not at a torch op: " << s.dump();
    }
}

// Every Node@launch has a HostToDevice flow that lands on exactly one kernel with its connection id.
inline void expectHostToDeviceFlowPerLaunch(const ProfilerOutputFiles& files) {
    const nlohmann::json& events = files.trace;
    const auto hardware = hardwareKernelEvents(events);
    std::map<std::string, nlohmann::json> flowStarts, flowEnds;  // HostToDevice by id
    std::map<std::tuple<std::int64_t, std::int64_t, std::string>, const nlohmann::json*> startAt;
    for (const auto& e : events)
        if (e.value("cat", "") == "HostToDevice") (e["ph"] == "s" ? flowStarts : flowEnds)[e["id"].get<std::string>()] = e;
    for (const auto& [id, s] : flowStarts)
        startAt[{s["pid"].get<std::int64_t>(), s["tid"].get<std::int64_t>(), s["ts"].get<std::string>()}] = &s;
    std::map<std::tuple<std::int64_t, std::int64_t, std::string>, std::vector<const nlohmann::json*>> kernelsAt;
    for (const auto& k : hardware)
        kernelsAt[{k["pid"].get<std::int64_t>(), k["tid"].get<std::int64_t>(), k["ts"].get<std::string>()}].push_back(&k);
    const auto launches = traceEventsWhere(events, [](const nlohmann::json& e) { return e.value("name", "") == "Node@launch"; });
    EXPECT_EQ(launches.size(), hardware.size());
    for (const auto& launch : launches) {
        const auto start = startAt.find({launch["pid"].get<std::int64_t>(), launch["tid"].get<std::int64_t>(),
                                         launch["ts"].get<std::string>()});
        ASSERT_NE(start, startAt.end()) << "no HostToDevice flow starts at " << launch.dump();
        const std::string id = (*start->second)["id"].get<std::string>();
        ASSERT_TRUE(flowEnds.count(id)) << start->second->dump();
        const nlohmann::json& end = flowEnds[id];
        const auto landed = kernelsAt.find({end["pid"].get<std::int64_t>(), end["tid"].get<std::int64_t>(),
                                            end["ts"].get<std::string>()});
        ASSERT_NE(landed, kernelsAt.end()) << end.dump();
        EXPECT_EQ(landed->second.size(), 1u) << end.dump();
        for (const nlohmann::json* k : landed->second)
            EXPECT_EQ((*k)["args"]["connection_id"], launch["args"]["connection_id"]) << k->dump();
    }
}

// PMU ratio/rate columns in [0, 1]; pipe times within their core's time, core time within the
// kernel's duration. Returns the number of ratio cells checked.
inline int expectPmuColumnsConsistent(const ProfilerOutputFiles& files) {
    const CsvTable& k = files.kernels;
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
            if (name.ends_with("_ratio") || name.ends_with("_rate")) {
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
    return checkedRatios;
}

}  // namespace ascendsim::e2e

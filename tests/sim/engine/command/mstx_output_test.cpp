// mstx markers end to end (issue 14 item 4): a workload's `mstx:` block with msprof_tx gives
// MsprofTx events in trace_view.json and MSTX_EVENTS rows in the DB, at the host times of their op
// boundaries, identically in two --deterministic runs; without msprof_tx there are none.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sim/engine/e2e_support.h"
#include "profiler/writers/db_query_test_support.h"

namespace ascendsim {
namespace {

using namespace e2e;

constexpr const char* kWorkload = R"(
name: mstx_markers
steps: 2
tensors:
  - {name: x, shape: [64, 256], dtype: fp16, kind: input}
  - {name: w, shape: [256, 256], dtype: fp16, kind: weight}
ops:
  - {name: mm, type: MatMul, inputs: [x, w], outputs: [y], aten: aten::mm}
  - {name: act, type: Relu, inputs: [y], outputs: [z], aten: aten::relu}
  - {name: out, type: Mul, inputs: [z, z], outputs: [o], aten: aten::mul}
mstx:
  - {range: forward, from: mm, to: act}
  - {mark: done, after: out, domain: train}
profiler:
  experimental_config: {profiler_level: Level1, export_type: [text, db], msprof_tx: MSPROF_TX}
)";

struct MarkedRun {
    nlohmann::json trace;
    fs::path db;
    std::vector<std::string> files;
    fs::path root;
};

MarkedRun simulate(const TempDir& dir, const std::string& name, bool msprofTx) {
    std::string text = kWorkload;
    text.replace(text.find("MSPROF_TX"), 9, msprofTx ? "true" : "false");
    const fs::path yaml = dir.path() / (name + ".yaml");
    std::ofstream(yaml) << text;
    const CommandOutcome outcome = runCommand(commandOptions(yaml, dir.path() / name));
    EXPECT_EQ(outcome.exitCode, 0) << outcome.err;
    MarkedRun run;
    run.root = onlyProfilerDir(dir.path() / name);
    run.trace = nlohmann::json::parse(readFile(run.root / "ASCEND_PROFILER_OUTPUT" / "trace_view.json"));
    run.db = run.root / "ASCEND_PROFILER_OUTPUT" / "ascend_pytorch_profiler.db";
    return run;
}

std::int64_t pidOf(const nlohmann::json& trace, const std::string& process) {
    for (const auto& e : trace)
        if (e.value("ph", "") == "M" && e.value("name", "") == "process_name" && e["args"]["name"] == process)
            return e["pid"].get<std::int64_t>();
    return -1;
}

TEST(MstxOutput, MarkersAppearInTraceViewAndTheDbAtTheirOpBoundariesDeterministically) {
    TempDir dir;
    const MarkedRun a = simulate(dir, "a", true);
    const std::int64_t pid = pidOf(a.trace, "MsprofTx");
    ASSERT_GE(pid, 0);
    std::vector<nlohmann::json> markers;
    for (const auto& e : a.trace)
        if (e.value("ph", "") == "X" && e["pid"] == pid) markers.push_back(e);
    ASSERT_EQ(markers.size(), 4u);  // two steps of one range and one mark
    EXPECT_EQ(markers[0]["name"], "forward");
    EXPECT_EQ(markers[0]["args"]["event_type"], "start/end");
    EXPECT_GT(markers[0]["dur"].get<double>(), 0.0);
    EXPECT_EQ(markers[1]["name"], "done");
    EXPECT_EQ(markers[1]["args"]["event_type"], "marker_ex");
    EXPECT_EQ(markers[1]["args"]["domain"], "train");
    EXPECT_EQ(markers[1]["dur"].get<double>(), 0.0);
    // The range ends where aten::relu ends and starts before aten::mm starts, on their thread.
    const nlohmann::json* mm = nullptr;
    const nlohmann::json* relu = nullptr;
    for (const auto& e : a.trace) {
        if (e.value("ph", "") != "X") continue;
        if (!mm && e.value("name", "") == "aten::mm") mm = &e;
        if (!relu && e.value("name", "") == "aten::relu") relu = &e;
    }
    ASSERT_TRUE(mm && relu);
    EXPECT_EQ(markers[0]["tid"], (*mm)["tid"]);
    EXPECT_LE(markers[0]["ts"].get<std::string>(), (*mm)["ts"].get<std::string>());
    EXPECT_NEAR(std::stod(markers[0]["ts"].get<std::string>()) + markers[0]["dur"].get<double>(),
                std::stod((*relu)["ts"].get<std::string>()) + (*relu)["dur"].get<double>(), 0.002);
    using testing_support::query;
    EXPECT_EQ(query(a.db, "SELECT count(*), sum(eventType = 3), sum(eventType = 2) FROM MSTX_EVENTS"),
              std::vector<std::string>{"4|2|2"});
    EXPECT_EQ(query(a.db, "SELECT s.value FROM MSTX_EVENTS m JOIN STRING_IDS s ON s.id = m.message "
                          "ORDER BY m.startNs LIMIT 2"),
              (std::vector<std::string>{"forward", "done"}));
    // --deterministic: the same bytes again.
    const MarkedRun b = simulate(dir, "b", true);
    EXPECT_EQ(readFile(a.root / "ASCEND_PROFILER_OUTPUT" / "trace_view.json"),
              readFile(b.root / "ASCEND_PROFILER_OUTPUT" / "trace_view.json"));
    EXPECT_EQ(query(a.db, "SELECT * FROM MSTX_EVENTS"), query(b.db, "SELECT * FROM MSTX_EVENTS"));
}

TEST(MstxOutput, WithoutMsprofTxThereAreNoMarkers) {
    TempDir dir;
    const MarkedRun off = simulate(dir, "off", false);
    EXPECT_EQ(pidOf(off.trace, "MsprofTx"), -1);
    for (const auto& e : off.trace) EXPECT_NE(e.value("cat", ""), "MsTx");
    EXPECT_TRUE(testing_support::query(off.db, "SELECT name FROM sqlite_master WHERE name = 'MSTX_EVENTS'").empty());
}

}  // namespace
}  // namespace ascendsim

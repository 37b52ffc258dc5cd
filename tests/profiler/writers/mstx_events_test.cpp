// MsprofTx markers in the writers: the msprof timeline's MsprofTx process (hence trace_view.json
// and the 2023 era's timeline) and the DB's MSTX_EVENTS table, as msprof writes mstx "ex" data
// (msprof_tx_assembler.cpp, msproftx_viewer.py, db_assembler.cpp SaveMsprofTxData).
#include <gtest/gtest.h>
#include <unistd.h>

#include "profiler/writers/csv_table_test_support.h"
#include "profiler/writers/db/db_export.h"
#include "profiler/writers/db_query_test_support.h"
#include "profiler/writers/timeline/msprof_timeline.h"

namespace ascendsim {
namespace {

using namespace testing_support;
namespace fs = std::filesystem;

RunRecord markedRun(const ChipConfig& chip) {
    RunRecord run = threeKernelRun(chip);
    run.processId = 3136493;
    run.rankId = 0;
    run.endNs = 10000000;
    run.mstxEvents.push_back({MstxEventKind::Range, "forward", "default", 2000, 4001000, 7, 0});
    run.mstxEvents.push_back({MstxEventKind::Mark, "loss ready", "train", 4001000, 4001000, 7, 1});
    return run;
}

std::uint32_t msprofTxPid(const std::vector<OrderedJson>& events) {
    for (const auto& e : events)
        if (e.value("ph", "") == "M" && e.value("name", "") == "process_name" && e["args"]["name"] == "MsprofTx")
            return e["pid"].get<std::uint32_t>();
    return 0;
}

TEST(MstxEvents, MsprofTimelineHasAMsprofTxProcessWithOneEventPerMarker) {
    static const ChipConfig chip = splitChip();
    const RunRecord run = markedRun(chip);
    const std::vector<OrderedJson> events = buildMsprofTimeline(run, ProfilerConfig{});
    const std::uint32_t pid = msprofTxPid(events);
    ASSERT_EQ(pid, formatTracePid(run.processId, 6, 31));  // framework layer, host device 31
    std::vector<const OrderedJson*> markers, flows;
    for (const auto& e : events) {
        if (e.value("pid", 0U) != pid) continue;
        if (e.value("ph", "") == "X") markers.push_back(&e);
        if (e.value("ph", "") == "s") flows.push_back(&e);
    }
    ASSERT_EQ(markers.size(), 2u);
    const OrderedJson& range = *markers[0];
    EXPECT_EQ(range["name"], "forward");
    EXPECT_EQ(range["tid"], 7);
    EXPECT_EQ(range["ts"], traceTimestamp(run, 2000));
    EXPECT_DOUBLE_EQ(range["dur"].get<double>(), 3999.0);
    EXPECT_EQ(range["args"].dump(), R"({"event_type":"start/end","domain":"default"})");
    EXPECT_EQ((*markers[1])["args"].dump(), R"({"event_type":"marker_ex","domain":"train"})");
    EXPECT_DOUBLE_EQ((*markers[1])["dur"].get<double>(), 0.0);
    // One MsTx flow start per marker, id = mark id + 4000000001.
    ASSERT_EQ(flows.size(), 2u);
    EXPECT_EQ((*flows[1])["name"], "MsTx_4000000002");
    EXPECT_EQ((*flows[1])["cat"], "MsTx");
    EXPECT_EQ((*flows[1])["id"], "4000000002");
    // Python msprof (2024, 2023 eras), as its export of ascendsim's raw MsprofTx data writes them:
    // the same args, flow ids = mark ids with "bp": "e".
    ProfilerConfig python;
    python.formatVersion = FormatVersion::Era2023;
    const std::vector<OrderedJson> old = buildMsprofTimeline(run, python);
    const std::uint32_t oldPid = msprofTxPid(old);
    ASSERT_NE(oldPid, 0u);
    std::vector<std::string> oldEvents;
    for (const auto& e : old)
        if (e.value("pid", 0U) == oldPid && e.value("ph", "") != "M") oldEvents.push_back(e.dump());
    ASSERT_EQ(oldEvents.size(), 4u);
    EXPECT_NE(oldEvents[0].find(R"("args":{"event_type":"start/end","domain":"default"})"), std::string::npos);
    EXPECT_EQ(oldEvents[1], R"({"name":"MsTx_0","ph":"s","id":"0","ts":")" + traceTimestamp(run, 2000) +
                                R"(","cat":"MsTx","pid":)" + std::to_string(oldPid) + R"(,"tid":7,"bp":"e"})");
}

TEST(MstxEvents, WithoutMarkersThereIsNoMsprofTxProcess) {
    static const ChipConfig chip = splitChip();
    EXPECT_EQ(msprofTxPid(buildMsprofTimeline(threeKernelRun(chip), ProfilerConfig{})), 0u);
}

TEST(MstxEvents, DbHasOneMstxEventsRowPerMarkerOnlyWithMarkers) {
    static const ChipConfig chip = splitChip();
    const fs::path dir = fs::temp_directory_path() / ("ascendsim_mstx_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const RunRecord run = markedRun(chip);
    ASSERT_TRUE(writeAscendPytorchProfilerDb(dir, run, ProfilerConfig{}));
    const fs::path db = dir / ascendPytorchProfilerDbName(run);
    const std::string tid = std::to_string((std::int64_t{3136493} << 32) | 7);
    const std::string epoch = std::to_string(run.epochNs);
    EXPECT_EQ(query(db, "SELECT m.startNs - " + epoch + ", m.endNs - " + epoch +
                            ", m.eventType, m.rangeId, m.category, s.value, m.globalTid, m.endGlobalTid, d.value,"
                            " m.connectionId FROM MSTX_EVENTS m JOIN STRING_IDS s ON s.id = m.message"
                            " JOIN STRING_IDS d ON d.id = m.domainId ORDER BY m.startNs"),
              (std::vector<std::string>{
                  "2000|4001000|2|4294967295|4294967295|forward|" + tid + "|" + tid + "|default|4000000001",
                  "4001000|4001000|3|4294967295|4294967295|loss ready|" + tid + "|" + tid + "|train|4000000002"}));
    // msprof-analyze's mstx_sum reads marks by eventType 3 and ranges by 2 (ENUM_MSTX_EVENT_TYPE).
    EXPECT_EQ(query(db, "SELECT name FROM ENUM_MSTX_EVENT_TYPE WHERE id IN (2, 3) ORDER BY id"),
              (std::vector<std::string>{"start/end", "marker_ex"}));
    RunRecord unmarked = run;
    unmarked.mstxEvents.clear();
    ASSERT_TRUE(writeAscendPytorchProfilerDb(dir, unmarked, ProfilerConfig{}));
    EXPECT_TRUE(query(db, "SELECT name FROM sqlite_master WHERE name = 'MSTX_EVENTS'").empty());
    fs::remove_all(dir);
}

}  // namespace
}  // namespace ascendsim

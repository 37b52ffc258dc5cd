// The stream events around a collective (issue #11), as torch_npu's ProcessGroupHCCL makes them
// and the e5a31957 Level0/1/2 samples show them: the compute stream records that the input is
// ready (EVENT_RECORD), the HCCL stream waits for it (EVENT_WAIT) and records twice after the op,
// and the compute stream waits for the op before the optimizer uses its result. They are device
// tasks in every file that lists tasks: trace_view's Ascend Hardware, task_time.csv and the DB
// TASK table, each tied to its AscendCL call by the connection id. msprof-analyze's compare tells
// the compute stream by its EVENT_WAIT tasks (the streams with EVENT_WAIT_SQE and AI core ops).
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "profiler/writers/db_query_test_support.h"
#include "sim/engine/rank_directories_run.h"

namespace ascendsim::e2e {
namespace {

constexpr std::int64_t kComputeStream = 2;
constexpr std::int64_t kHcclStream = 4;

// trace_view "ts" is a decimal string in us with 3 decimals: exact ns.
std::int64_t tsNs(const nlohmann::ordered_json& ts) {
    const std::string text = ts.get<std::string>();
    const std::size_t dot = text.find('.');
    std::string frac = dot == std::string::npos ? "" : text.substr(dot + 1);
    frac.resize(3, '0');
    return std::stoll(text.substr(0, dot)) * 1000 + std::stoll(frac);
}
std::int64_t durNs(const nlohmann::ordered_json& dur) { return std::llround(dur.get<double>() * 1000.0); }

struct DeviceTask {
    std::string name;
    std::string taskType;
    std::int64_t stream = 0;
    std::int64_t startNs = 0, endNs = 0;
    std::int64_t taskId = 0;
    std::int64_t connection = 0;
};

class StreamEventTasks : public RankDirectoriesRun {
  protected:
    static void SetUpTestSuite() {
        scratch_ = new TempDir;
        const fs::path out = scratch_->path() / "out";
        fs::create_directory(out);
        SimulationOptions options = commandOptions(unitWorkload("allreduce.yaml"), out);
        options.exportType = "text,db";
        const auto outcome = runCommand(options);
        ASSERT_EQ(outcome.exitCode, 0) << outcome.err;
        dirs_ = new std::vector<fs::path>(entriesOf(out));
        trace_ = new json(readJson(output(0) / "trace_view.json"));
    }
    static void TearDownTestSuite() {
        delete trace_;
        trace_ = nullptr;
        RankDirectoriesRun::TearDownTestSuite();
    }

    // Ascend Hardware rows (kernels, copies, events; the HCCL tasks' SQEs on the HCCL stream).
    static std::vector<DeviceTask> hardwareTasks() {
        const std::int64_t pid = processPid(*trace_, "Ascend Hardware");
        std::vector<DeviceTask> tasks;
        for (const auto& e : *trace_) {
            if (e["ph"] != "X" || e["pid"] != pid) continue;
            const auto& args = e["args"];
            tasks.push_back({e["name"], args["Task Type"], e["tid"], tsNs(e["ts"]), tsNs(e["ts"]) + durNs(e["dur"]),
                             args["Task Id"], args["connection_id"]});
        }
        return tasks;
    }
    static std::vector<DeviceTask> eventTasks(const std::string& name, std::int64_t stream) {
        std::vector<DeviceTask> out;
        for (const auto& t : hardwareTasks())
            if (t.name == name && t.stream == stream) out.push_back(t);
        std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.startNs < b.startNs; });
        return out;
    }
    // The collectives' spans (HCCL process, Group 0 Communication rows), in start order.
    static std::vector<std::pair<std::int64_t, std::int64_t>> collectiveSpans() {
        const std::int64_t pid = processPid(*trace_, "HCCL");
        std::vector<std::pair<std::int64_t, std::int64_t>> spans;
        for (const auto& e : *trace_)
            if (e["ph"] == "X" && e["pid"] == pid && e["tid"] == 0)
                spans.push_back({tsNs(e["ts"]), tsNs(e["ts"]) + durNs(e["dur"])});
        std::sort(spans.begin(), spans.end());
        return spans;
    }
    static fs::path database(std::size_t rank) {
        for (const auto& f : relativeFiles(dirs_->at(rank)))
            if (f.find("ascend_pytorch_profiler") != std::string::npos && f.ends_with(".db")) return dirs_->at(rank) / f;
        return {};
    }

    static inline json* trace_ = nullptr;
};

TEST_F(StreamEventTasks, EachCollectiveHasTheSamplesFiveEventTasksOnTheirStreams) {
    const auto spans = collectiveSpans();
    ASSERT_EQ(spans.size(), 2u);  // one allreduce per step, 2 steps
    const auto inputRecords = eventTasks("EVENT_RECORD", kComputeStream);
    const auto hcclWaits = eventTasks("EVENT_WAIT", kHcclStream);
    const auto hcclRecords = eventTasks("EVENT_RECORD", kHcclStream);
    const auto resultWaits = eventTasks("EVENT_WAIT", kComputeStream);
    ASSERT_EQ(inputRecords.size(), 2u);
    ASSERT_EQ(hcclWaits.size(), 2u);
    ASSERT_EQ(hcclRecords.size(), 4u);
    ASSERT_EQ(resultWaits.size(), 2u);
    for (std::size_t i = 0; i < spans.size(); ++i) {
        const auto [opStart, opEnd] = spans[i];
        // The HCCL stream waits for the compute stream's record, then runs the op.
        EXPECT_LE(inputRecords[i].endNs, hcclWaits[i].endNs);
        EXPECT_LE(hcclWaits[i].endNs, opStart);
        // It records twice after the op; the compute stream's wait ends after the first record.
        EXPECT_GE(hcclRecords[2 * i].startNs, opEnd);
        EXPECT_LE(hcclRecords[2 * i].endNs, hcclRecords[2 * i + 1].startNs);
        EXPECT_GE(resultWaits[i].endNs, hcclRecords[2 * i].endNs);
    }
    for (const auto& t : hardwareTasks()) {
        if (t.name != "EVENT_RECORD" && t.name != "EVENT_WAIT") continue;
        EXPECT_EQ(t.taskType, t.name + "_SQE");
        EXPECT_GT(t.endNs, t.startNs);
    }
}

TEST_F(StreamEventTasks, AWaitHoldsItsStreamUntilItEnds) {
    const auto waits = eventTasks("EVENT_WAIT", kComputeStream);
    for (const auto& t : hardwareTasks()) {
        if (t.stream != kComputeStream || t.name.rfind("EVENT_", 0) == 0) continue;
        for (const auto& w : waits)
            EXPECT_TRUE(t.endNs <= w.startNs || t.startNs >= w.endNs)
                << t.name << " runs during the compute stream's EVENT_WAIT";
    }
    // The optimizer's update runs after each wait.
    for (const auto& w : waits) {
        std::size_t after = 0;
        for (const auto& t : hardwareTasks())
            after += t.stream == kComputeStream && t.startNs >= w.endNs && t.name.rfind("EVENT_", 0) != 0;
        EXPECT_GE(after, 1u);
    }
}

TEST_F(StreamEventTasks, EventTasksCarryTheirAscendClCallsConnectionAndTheirStreamsTaskIds) {
    const std::int64_t cann = processPid(*trace_, "CANN");
    std::map<std::int64_t, std::string> apiByConnection;
    for (const auto& e : *trace_)
        if (e["ph"] == "X" && e["pid"] == cann && e.contains("args") && e["args"].contains("connection_id"))
            apiByConnection[e["args"]["connection_id"]] = e["name"];
    std::map<std::int64_t, std::set<std::int64_t>> taskIdsByStream;
    std::size_t events = 0;
    for (const auto& t : hardwareTasks()) {
        if (t.name == "EVENT_RECORD" || t.name == "EVENT_WAIT") {
            ++events;
            ASSERT_TRUE(apiByConnection.contains(t.connection)) << t.name << " connection " << t.connection;
            EXPECT_EQ(apiByConnection[t.connection],
                      t.name == "EVENT_RECORD" ? "AscendCL@aclrtRecordEvent" : "AscendCL@aclrtStreamWaitEvent");
        }
        // The HCCL tasks' SQEs repeat their collective's task id; every other task has its own.
        if (t.stream == kHcclStream && t.name.rfind("EVENT_", 0) != 0) continue;
        EXPECT_TRUE(taskIdsByStream[t.stream].insert(t.taskId).second)
            << t.name << " reuses task id " << t.taskId << " of stream " << t.stream;
    }
    EXPECT_EQ(events, 10u);
    // msprof-analyze's compare: compute streams = streams with EVENT_WAIT_SQE and AI core ops.
    std::set<std::int64_t> waitStreams, kernelStreams;
    for (const auto& t : hardwareTasks()) {
        if (t.taskType == "EVENT_WAIT_SQE") waitStreams.insert(t.stream);
        if (t.taskType.rfind("AI_", 0) == 0 || t.taskType.rfind("MIX_", 0) == 0) kernelStreams.insert(t.stream);
    }
    EXPECT_TRUE(waitStreams.contains(kComputeStream));
    EXPECT_TRUE(kernelStreams.contains(kComputeStream));
}

TEST_F(StreamEventTasks, TaskTimeAndTheDbTaskTableListThem) {
    const CsvTable taskTime = readCsv(output(0) / "task_time.csv");
    std::map<std::string, std::size_t> listed;
    for (std::size_t r = 0; r < taskTime.rows.size(); ++r) ++listed[taskTime.cell(r, "kernel_type")];
    EXPECT_EQ(listed["EVENT_RECORD"], 6u);
    EXPECT_EQ(listed["EVENT_WAIT"], 4u);

    const fs::path db = database(0);
    ASSERT_FALSE(db.empty());
    const auto rows = testing_support::query(db,
        "SELECT s.value, COUNT(*), MIN(t.contextId), MAX(t.contextId) FROM TASK t "
        "JOIN STRING_IDS s ON s.id = t.taskType "
        "JOIN CANN_API a ON a.connectionId = t.connectionId JOIN STRING_IDS n ON n.id = a.name "
        "WHERE s.value LIKE 'EVENT_%' AND t.endNs > t.startNs AND "
        "n.value = CASE s.value WHEN 'EVENT_RECORD' THEN 'aclrtRecordEvent' ELSE 'aclrtStreamWaitEvent' END "
        "GROUP BY s.value ORDER BY s.value");
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0], "EVENT_RECORD|6|4294967295|4294967295");
    EXPECT_EQ(rows[1], "EVENT_WAIT|4|4294967295|4294967295");
}

}  // namespace
}  // namespace ascendsim::e2e

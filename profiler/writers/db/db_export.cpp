#include "profiler/writers/db/db_export.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include "profiler/metrics/task_metrics.h"
#include "profiler/writers/timeline/ascend_tasks.h"
#include "profiler/writers/db/db_aicore_freq.h"
#include "profiler/writers/db/db_cann_enums.h"
#include "profiler/writers/db/db_communication.h"
#include "profiler/writers/db/db_framework_api.h"
#include "profiler/writers/db/db_framework_memory.h"
#include "profiler/writers/db/db_global_tid.h"
#include "profiler/writers/db/db_hardware_samples.h"
#include "profiler/writers/db/db_mstx_events.h"
#include "profiler/writers/db/db_npu_memory.h"
#include "profiler/writers/db/db_sqlite.h"
#include "profiler/writers/db/db_string_ids.h"
#include "profiler/writers/tree/profiler_metadata.h"

namespace ascendsim {

namespace {

// UINT32_MAX: "no model" / "no context" in CANN tables (formats.md §2.4).
constexpr std::int64_t kInvalidId = 4294967295LL;
// torch_npu's STRING_IDS range for framework strings (1 << 28) [PT DbConstant].
constexpr std::int64_t kTorchStringIdBase = 268435456LL;
// torch_npu's STRING_IDS range for its memory tables (1 << 29) [PT DbConstant START_STRING_ID_MEMORY].
constexpr std::int64_t kTorchMemoryStringIdBase = 536870912LL;

// ENUM_API_TYPE: CANN ids plus torch_npu's (formats.md §5.1).
struct ApiTypeName {
    std::int64_t id;
    const char* name;
};

std::int64_t apiTypeId(ApiLevel level) {
    switch (level) {
    case ApiLevel::Acl: return 20000;
    case ApiLevel::Model: return 15000;
    case ApiLevel::Node: return 10000;
    case ApiLevel::Communication: return 5500;
    case ApiLevel::Runtime: return 5000;
    }
    return 20000;
}

// NPU_INFO name: the SoC family of CANN's chip table.
std::string npuFamilyName(const ChipConfig& chip) {
    for (const char* family : {"Ascend910B", "Ascend910_93", "Ascend310P"}) {
        if (chip.name.rfind(family, 0) == 0) return family;
    }
    return chip.name;
}

std::string joined(const std::vector<TensorDescription>& tensors, std::string TensorDescription::*field,
                   bool quoted) {
    if (tensors.empty()) return "N/A";
    std::string text = quoted ? "\"" : "";
    for (std::size_t i = 0; i < tensors.size(); ++i) {
        if (i != 0) text += ';';
        text += tensors[i].*field;
    }
    if (quoted) text += '"';
    return text;
}

std::string metricDbName(const MetricColumn& column, CoreSide side) {
    const std::string prefix = side == CoreSide::Aic ? "aic_" : side == CoreSide::Aiv ? "aiv_" : "";
    return prefix + std::string(column.name);
}

}  // namespace

std::string ascendPytorchProfilerDbName(const RunRecord& run) {
    if (run.rankId < 0) return "ascend_pytorch_profiler.db";
    return "ascend_pytorch_profiler_" + std::to_string(run.rankId) + ".db";
}

bool writeAscendPytorchProfilerDb(const std::filesystem::path& outputDir, const RunRecord& run,
                                  const ProfilerConfig& config) {
    if (run.chip == nullptr || (run.kernels.empty() && run.apis.empty() && run.hostOps.empty())) return false;
    const bool era83 = config.formatVersion == FormatVersion::Cann83;
    const ChipConfig& chip = *run.chip;
    DbStringIds cann(0);
    DbStringIds torch(kTorchStringIdBase);
    std::vector<std::vector<DbValue>> task, compute, pmu, cannApi;

    std::vector<std::size_t> order(run.kernels.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return run.kernels[a].device.startNs < run.kernels[b].device.startNs;
    });
    const AicMetrics group = config.effectiveAicMetrics();
    std::int64_t globalTaskId = 0;
    for (std::size_t index : order) {
        const KernelRecord& k = run.kernels[index];
        const TaskResult& d = k.device;
        task.push_back({static_cast<std::int64_t>(run.epochNs + d.startNs), static_cast<std::int64_t>(run.epochNs + d.endNs),
                        static_cast<std::int64_t>(run.deviceId), static_cast<std::int64_t>(k.correlationId), globalTaskId,
                        static_cast<std::int64_t>(run.processId), cann.id(kernelAscendTaskType(d.type)),
                        static_cast<std::int64_t>(kernelContextId(d.type)), static_cast<std::int64_t>(d.streamId),
                        static_cast<std::int64_t>(k.taskId), kInvalidId});
        std::vector<DbValue> info = {cann.id(k.name), globalTaskId, static_cast<std::int64_t>(d.blockDim),
                                     static_cast<std::int64_t>(d.mixBlockDim), cann.id(std::string(taskTypeName(d.type))),
                                     cann.id(k.opType.empty() ? "N/A" : k.opType),
                                     cann.id(joined(k.inputs, &TensorDescription::format, false)),
                                     cann.id(joined(k.inputs, &TensorDescription::dtype, false)),
                                     cann.id(joined(k.inputs, &TensorDescription::shape, true)),
                                     cann.id(joined(k.outputs, &TensorDescription::format, false)),
                                     cann.id(joined(k.outputs, &TensorDescription::dtype, false)),
                                     cann.id(joined(k.outputs, &TensorDescription::shape, true)), cann.id("N/A")};
        if (era83) {
            info.push_back(cann.id("dynamic"));
            info.push_back(cann.id(k.hf32Eligible ? "YES" : "NO"));
            info.push_back(DbNull{});
            info.push_back(DbNull{});
        }
        compute.push_back(std::move(info));
        if (d.type != TaskType::AiCpu) {
            for (CoreSide side : chipCoreSides(chip)) {
                const SideCounters counters = sideCounters(d, chip, side);
                for (const MetricColumn& column : metricColumns(group, side)) {
                    pmu.push_back({globalTaskId, cann.id(metricDbName(column, side)),
                                   evaluateMetric(column, counters, chip)});
                }
            }
        }
        ++globalTaskId;
    }
    // Collectives after the kernels: their TASK rows continue the global task ids.
    const CommunicationDbRows communication =
        buildCommunicationDbRows(run, config, cann, globalTaskId);
    task.insert(task.end(), communication.tasks.begin(), communication.tasks.end());
    // Host<->device copies (MEMCPY_ASYNC) and stream events (EVENT_RECORD / EVENT_WAIT) last; no
    // COMPUTE_TASK_INFO row, as in the real DB.
    std::int64_t runtimeTaskId = globalTaskId;  // already past the collectives' rows
    for (const RuntimeTask& runtime : runtimeTasksOf(run)) {
        task.push_back({static_cast<std::int64_t>(run.epochNs + runtime.startNs),
                        static_cast<std::int64_t>(run.epochNs + runtime.endNs), static_cast<std::int64_t>(run.deviceId),
                        static_cast<std::int64_t>(runtime.correlationId), runtimeTaskId++,
                        static_cast<std::int64_t>(run.processId), cann.id(runtime.ascendType),
                        static_cast<std::int64_t>(kNoContextId), static_cast<std::int64_t>(runtime.streamId),
                        static_cast<std::int64_t>(runtime.taskId), kInvalidId});
    }

    std::set<std::int64_t> usedConnections;
    std::int64_t nextConnection = 0;
    for (const ApiRecord& api : run.apis) {
        nextConnection = std::max(nextConnection, static_cast<std::int64_t>(api.connectionId) + 1);
    }
    for (const ApiRecord& api : run.apis) {
        std::int64_t connection = static_cast<std::int64_t>(api.connectionId);
        if (connection == 0 || !usedConnections.insert(connection).second) {
            connection = nextConnection++;
            usedConnections.insert(connection);
        }
        cannApi.push_back({static_cast<std::int64_t>(run.epochNs + api.startNs),
                           static_cast<std::int64_t>(run.epochNs + api.endNs), apiTypeId(api.level),
                           dbGlobalTid(run, api.threadId), connection, cann.id(api.name)});
    }
    std::vector<DbNodeLaunch> nodeLaunches;
    std::int64_t cannConnectionOffset = 0;
    for (const auto& row : cannApi) {
        const std::int64_t connection = std::get<std::int64_t>(row[4]);
        cannConnectionOffset = std::max(cannConnectionOffset, connection + 1);
    }
    for (std::size_t i = 0; i < run.apis.size(); ++i) {
        if (run.apis[i].level == ApiLevel::Node && run.apis[i].name == "launch") {
            nodeLaunches.push_back({std::get<std::int64_t>(cannApi[i][0]), std::get<std::int64_t>(cannApi[i][1]),
                                    std::get<std::int64_t>(cannApi[i][4])});
        }
    }
    std::stable_sort(nodeLaunches.begin(), nodeLaunches.end(),
                     [](const DbNodeLaunch& a, const DbNodeLaunch& b) { return a.startNs < b.startNs; });
    const FrameworkApiTables framework = buildFrameworkApiTables(run, torch, cannConnectionOffset, nodeLaunches);

    DbFile db(outputDir / ascendPytorchProfilerDbName(run));
    db.execute("CREATE TABLE STRING_IDS (id INTEGER PRIMARY KEY,value TEXT)");
    db.execute("CREATE TABLE SESSION_TIME_INFO (startTimeNs INTEGER,endTimeNs INTEGER)");
    db.execute("CREATE TABLE NPU_INFO (id INTEGER,name TEXT)");
    db.execute("CREATE TABLE HOST_INFO (hostUid TEXT,hostName TEXT)");
    db.execute(era83 ? "CREATE TABLE COMPUTE_TASK_INFO (name INTEGER,globalTaskId INTEGER PRIMARY KEY,blockNum INTEGER,"
                       "mixBlockNum INTEGER,taskType INTEGER,opType INTEGER,inputFormats INTEGER,inputDataTypes INTEGER,"
                       "inputShapes INTEGER,outputFormats INTEGER,outputDataTypes INTEGER,outputShapes INTEGER,"
                       "attrInfo INTEGER,opState INTEGER,hf32Eligible INTEGER,gridDim INTEGER,blockDim INTEGER)"
                     : "CREATE TABLE COMPUTE_TASK_INFO (name INTEGER,globalTaskId INTEGER PRIMARY KEY,blockDim INTEGER,"
                       "mixBlockDim INTEGER,taskType INTEGER,opType INTEGER,inputFormats INTEGER,inputDataTypes INTEGER,"
                       "inputShapes INTEGER,outputFormats INTEGER,outputDataTypes INTEGER,outputShapes INTEGER,"
                       "attrInfo INTEGER)");
    db.execute("CREATE TABLE TASK (startNs INTEGER,endNs INTEGER,deviceId INTEGER,connectionId INTEGER,"
               "globalTaskId INTEGER,globalPid INTEGER,taskType INTEGER,contextId INTEGER,streamId INTEGER,"
               "taskId INTEGER,modelId INTEGER)");
    db.execute("CREATE INDEX TaskIndex ON TASK (startNs,globalTaskId)");
    db.execute("CREATE TABLE CANN_API (startNs INTEGER,endNs INTEGER,type INTEGER,globalTid INTEGER,"
               "connectionId INTEGER PRIMARY KEY,name INTEGER)");
    // Level0 has no PMU data and the real Level0 DBs no TASK_PMU_INFO table.
    if (!pmu.empty()) db.execute("CREATE TABLE TASK_PMU_INFO (globalTaskId INTEGER,name INTEGER,value NUMERIC)");
    db.execute("CREATE TABLE META_DATA (name TEXT,value TEXT)");
    db.execute("CREATE TABLE ENUM_API_TYPE (id INTEGER PRIMARY KEY,name TEXT)");
    db.execute("CREATE TABLE RANK_DEVICE_MAP (rankId INTEGER, deviceId INTEGER)");
    db.execute("CREATE TABLE STEP_TIME (id INTEGER, startNs INTEGER, endNs INTEGER)");
    db.execute("CREATE TABLE PYTORCH_API (startNs TEXT, endNs TEXT, globalTid INTEGER, connectionId INTEGER, "
               "name INTEGER, sequenceNumber INTEGER, fwdThreadId INTEGER, inputDtypes INTEGER, inputShapes INTEGER, "
               "callchainId INTEGER, type INTEGER)");

    db.insertRows("SESSION_TIME_INFO", {{static_cast<std::int64_t>(run.epochNs),
                                         static_cast<std::int64_t>(run.epochNs + run.endNs)}});
    db.insertRows("NPU_INFO", {{static_cast<std::int64_t>(run.deviceId), npuFamilyName(chip)}});
    db.insertRows("HOST_INFO", {{std::to_string(std::hash<std::string>{}(run.hostName) >> 1), run.hostName}});
    db.insertRows("COMPUTE_TASK_INFO", compute);
    db.insertRows("TASK", task);
    db.insertRows("CANN_API", cannApi);
    if (!run.communicationOps.empty())
        writeCommunicationDbTables(db, communication, config.formatVersion);
    if (!pmu.empty()) db.insertRows("TASK_PMU_INFO", pmu);
    const std::string version = era83 ? "1.2.0" : "1.0.0";
    db.insertRows("META_DATA", {{"SCHEMA_VERSION_MICRO", "0"},
                                {"SCHEMA_VERSION_MINOR", era83 ? "2" : "0"},
                                {"SCHEMA_VERSION_MAJOR", "1"},
                                {"SCHEMA_VERSION", version},
                                {"ENV_VARIABLES", dumpPythonJson(profilerEnvironmentVariables(config.formatVersion), false)}});
    const std::vector<ApiTypeName> apiTypes = {{5000, "runtime"}, {5500, era83 ? "communication" : "hccl"},
                                               {10000, "node"},   {15000, "model"},
                                               {20000, "acl"},    {50001, "op"},
                                               {50002, "queue"},  {50003, "trace"},
                                               {50004, "mstx"}};
    std::vector<std::vector<DbValue>> enumRows;
    for (const ApiTypeName& t : apiTypes) enumRows.push_back({t.id, std::string(t.name)});
    db.insertRows("ENUM_API_TYPE", enumRows);
    db.insertRows("RANK_DEVICE_MAP", {{run.rankId < 0 ? std::int64_t{-1} : run.rankId,
                                       static_cast<std::int64_t>(run.deviceId)}});
    std::vector<std::vector<DbValue>> steps;
    for (const StepRecord& step : run.steps) {
        steps.push_back({static_cast<std::int64_t>(step.stepNumber), static_cast<std::int64_t>(run.epochNs + step.startNs),
                         static_cast<std::int64_t>(run.epochNs + step.endNs)});
    }
    db.insertRows("STEP_TIME", steps);
    db.insertRows("PYTORCH_API", framework.pytorchApi);
    // torch_npu creates these two only when they have rows.
    if (!framework.connectionIds.empty()) {
        db.execute("CREATE TABLE CONNECTION_IDS (id INTEGER, connectionId INTEGER)");
        db.insertRows("CONNECTION_IDS", framework.connectionIds);
    }
    if (!framework.callchains.empty()) {
        db.execute("CREATE TABLE PYTORCH_CALLCHAINS (id INTEGER, stack INTEGER, stackDepth INTEGER)");
        db.insertRows("PYTORCH_CALLCHAINS", framework.callchains);
    }
    writeHardwareSampleTables(db, run, config, cann);
    writeMstxEventsTable(db, run, cann);
    writeCannEnumTables(db, config.formatVersion);
    // msprof collects device memory and the AI Core clock with the NPU activity at a level.
    const bool cannData = config.activityNpu && config.level != ProfilerLevel::LevelNone;
    if (cannData && !predates2025(config.formatVersion)) writeAiCoreFreqTable(db, run);
    DbStringIds memoryStrings(kTorchMemoryStringIdBase);
    if (config.profileMemory) {
        const std::vector<GeMemoryEvent> geEvents = cannData ? geMemoryEvents(run) : std::vector<GeMemoryEvent>{};
        if (cannData) writeNpuMemoryTables(db, run, geEvents, cann);
        writeFrameworkMemoryTables(db, run, geEvents, cann, memoryStrings);
    }
    std::vector<std::vector<DbValue>> strings;
    cann.appendRows(strings);
    torch.appendRows(strings);
    memoryStrings.appendRows(strings);
    db.insertRows("STRING_IDS", strings);
    return true;
}

bool writeAnalysisDb(const std::filesystem::path& outputDir, const CsvTable& stepTraceTime,
                     const CommunicationAnalysisRows* communication) {
    const bool withCommunication = communication != nullptr && !communication->empty();
    if (stepTraceTime.rows.empty() && !withCommunication) return false;
    // CSV header → DB column (formats.md §5.2).
    static const std::map<std::string, std::pair<std::string, std::string>> kColumns = {
        {"Device_id", {"deviceId", "INTEGER"}},
        {"Step", {"step", "TEXT"}},
        {"Computing", {"computing", "NUMERIC"}},
        {"Communication(Not Overlapped)", {"communication_not_overlapped", "NUMERIC"}},
        {"Overlapped", {"overlapped", "NUMERIC"}},
        {"Communication", {"communication", "NUMERIC"}},
        {"Free", {"free", "NUMERIC"}},
        {"Stage", {"stage", "NUMERIC"}},
        {"Bubble", {"bubble", "NUMERIC"}},
        {"Communication(Not Overlapped and Exclude Receive)",
         {"communication_not_overlapped_and_exclude_receive", "NUMERIC"}},
        {"Preparing", {"preparing", "NUMERIC"}},
    };
    // The columns follow the CSV header: the 8.3 era has deviceId first, earlier eras none.
    std::string create = "CREATE TABLE StepTraceTime (";
    std::vector<std::string> types;
    for (std::size_t i = 0; i < stepTraceTime.header.size(); ++i) {
        const auto& [name, type] = kColumns.at(stepTraceTime.header[i]);
        create += (i == 0 ? "" : ", ") + name + " " + type;
        types.push_back(type);
    }
    create += ")";
    std::vector<std::vector<DbValue>> rows;
    for (const CsvRow& row : stepTraceTime.rows) {
        std::vector<DbValue> values;
        for (const std::string& cell : row) {
            const std::string& type = types[values.size()];
            if (type == "TEXT") values.emplace_back(cell);
            else if (type == "INTEGER") values.emplace_back(static_cast<std::int64_t>(std::stoll(cell)));
            else values.emplace_back(cell.empty() ? 0.0 : std::stod(cell));
        }
        rows.push_back(std::move(values));
    }
    DbFile db(outputDir / "analysis.db");
    if (!rows.empty()) {
        db.execute(create);
        db.insertRows("StepTraceTime", rows);
    }
    if (withCommunication) writeCommunicationAnalysisTables(db, *communication);
    return true;
}

}  // namespace ascendsim

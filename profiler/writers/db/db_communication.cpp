#include "profiler/writers/db/db_communication.h"

#include <limits>

#include "profiler/writers/timeline/ascend_tasks.h"
#include "profiler/writers/communication/communication_timeline.h"
#include "profiler/writers/db/db_cann_enums.h"

namespace ascendsim {

namespace {

constexpr std::int64_t kInvalidId = 4294967295;  // UINT32_MAX: model id, "no context"

std::int64_t asInt(std::uint64_t v) {
    // SQLite integers are signed 64-bit: msprof stores UINT64_MAX (Memcpy's notify id) as
    // INT64_MAX.
    return v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())
               ? std::numeric_limits<std::int64_t>::max()
               : static_cast<std::int64_t>(v);
}

}  // namespace

CommunicationDbRows buildCommunicationDbRows(const RunRecord& run, const ProfilerConfig& config,
                                             DbStringIds& cann, std::int64_t& nextGlobalTaskId) {
    CommunicationDbRows rows;
    const bool era83 = config.formatVersion == FormatVersion::Cann83;
    const bool withTasks =
        config.level == ProfilerLevel::Level1 || config.level == ProfilerLevel::Level2;
    const auto globalPid = static_cast<std::int64_t>(run.processId);
    std::int64_t opId = 1;
    for (const CommunicationOpRecord& op : run.communicationOps) {
        const std::int64_t name = cann.id(op.name);
        const std::int64_t group = cann.id(op.groupName);
        const auto connection = static_cast<std::int64_t>(op.correlationId);
        const auto stream = static_cast<std::int64_t>(op.streamId);
        const auto taskId = static_cast<std::int64_t>(op.taskId);
        // The op itself is one task on the HCCL stream; the sample's TASK row calls it AI_CORE.
        rows.tasks.push_back({asInt(run.epochNs + op.startNs), asInt(run.epochNs + op.endNs),
                              static_cast<std::int64_t>(run.deviceId), connection,
                              nextGlobalTaskId++, globalPid, cann.id(kCollectiveAscendTaskType), kInvalidId, stream,
                              taskId, kInvalidId});
        std::vector<DbValue> opRow = {name,
                                      asInt(run.epochNs + op.startNs),
                                      asInt(run.epochNs + op.endNs),
                                      connection,
                                      group,
                                      opId,
                                      std::int64_t{0},
                                      std::int64_t{0},
                                      hcclDataTypeId(op.dataType),
                                      cann.id(op.algorithm),
                                      static_cast<std::int64_t>(op.count),
                                      cann.id(op.opType)};
        if (era83) {
            opRow.emplace_back(static_cast<std::int64_t>(run.deviceId));
            opRow.emplace_back(static_cast<std::int64_t>(op.rankSize));
        }
        rows.ops.push_back(std::move(opRow));
        if (withTasks) {
            for (const HcclTask& t : op.tasks) {
                const std::int64_t globalTaskId = nextGlobalTaskId++;
                const std::uint64_t start = run.epochNs + op.startNs + t.startNs;
                rows.tasks.push_back({asInt(start), asInt(start + t.durationNs),
                                      static_cast<std::int64_t>(run.deviceId), connection,
                                      globalTaskId, globalPid, cann.id(hcclSqeTypeName(t.kind)),
                                      static_cast<std::int64_t>(t.contextId), stream, taskId,
                                      kInvalidId});
                const bool reduces = t.kind == HcclTaskKind::ReduceInline;
                std::vector<DbValue> info = {
                    name,
                    globalTaskId,
                    cann.id(hcclTaskName(t.kind)),
                    static_cast<std::int64_t>(t.plane),
                    group,
                    asInt(hcclNotifyId(t)),
                    hcclNoRdmaTypeId(),
                    static_cast<std::int64_t>(t.srcRank),
                    static_cast<std::int64_t>(t.dstRank),
                    hcclTransportTypeId(hcclTransportTypeName(t)),
                    static_cast<std::int64_t>(t.sizeBytes),
                    hcclDataTypeId(reduces ? op.dataType : "INVALID_TYPE"),
                    hcclLinkTypeId(hcclLinkTypeName(t.link)),
                    opId};
                if (era83) {
                    // formats.md §5.1 (8.3): isMaster (the op's main stream) and the task's
                    // bandwidth.
                    info.emplace_back(static_cast<std::int64_t>(t.plane == 0 ? 1 : 0));
                    info.emplace_back(t.durationNs > 0 && t.sizeBytes > 0
                                          ? static_cast<double>(t.sizeBytes) /
                                                static_cast<double>(t.durationNs)
                                          : 0.0);
                }
                rows.taskInfo.push_back(std::move(info));
            }
        }
        ++opId;
    }
    return rows;
}

void writeCommunicationDbTables(DbFile& db, const CommunicationDbRows& rows,
                                FormatVersion version) {
    const bool era83 = version == FormatVersion::Cann83;
    db.execute(
        std::string(
            "CREATE TABLE COMMUNICATION_TASK_INFO (name INTEGER,globalTaskId INTEGER,taskType "
            "INTEGER,"
            "planeId INTEGER,groupName INTEGER,notifyId INTEGER,rdmaType INTEGER,srcRank INTEGER,"
            "dstRank INTEGER,transportType INTEGER,size INTEGER,dataType INTEGER,linkType INTEGER,"
            "opId INTEGER") +
        (era83 ? ",isMaster INTEGER,bandwidth NUMERIC)" : ")"));
    db.execute("CREATE INDEX CommunicationTaskIndex ON COMMUNICATION_TASK_INFO (globalTaskId)");
    db.execute(
        std::string("CREATE TABLE COMMUNICATION_OP (opName INTEGER,startNs INTEGER,endNs INTEGER,"
                    "connectionId INTEGER,groupName INTEGER,opId INTEGER PRIMARY KEY,relay INTEGER,"
                    "retry INTEGER,dataType INTEGER,algType INTEGER,count NUMERIC,opType INTEGER") +
        (era83 ? ",deviceId INTEGER,rankSize INTEGER)" : ")"));
    if (!rows.taskInfo.empty()) db.insertRows("COMMUNICATION_TASK_INFO", rows.taskInfo);
    if (!rows.ops.empty()) db.insertRows("COMMUNICATION_OP", rows.ops);
}

}  // namespace ascendsim

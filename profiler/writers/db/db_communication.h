#pragma once
// The collectives in ascend_pytorch_profiler.db (formats.md §5.1): COMMUNICATION_OP, one row per
// op; COMMUNICATION_TASK_INFO, one per HCCL task; and their TASK rows (the op as one task on the
// HCCL stream, each HCCL task with its SQE type), as the e5a31957 Level0/1 DBs hold them.
#include <cstdint>
#include <vector>

#include "profiler/config/profiler_config.h"
#include "profiler/record/run_record.h"
#include "profiler/writers/db/db_sqlite.h"
#include "profiler/writers/db/db_string_ids.h"

namespace ascendsim {

struct CommunicationDbRows {
    std::vector<std::vector<DbValue>> tasks;     // TASK rows, in the TASK table's column order
    std::vector<std::vector<DbValue>> taskInfo;  // COMMUNICATION_TASK_INFO
    std::vector<std::vector<DbValue>> ops;       // COMMUNICATION_OP
};

// Global task ids continue from `nextGlobalTaskId` (advanced past the last one used). HCCL tasks
// only at Level1/2 (CANN's HCCL_TRACE); the op rows at every level.
CommunicationDbRows buildCommunicationDbRows(const RunRecord& run, const ProfilerConfig& config,
                                             DbStringIds& cann, std::int64_t& nextGlobalTaskId);

// Creates both tables (also empty: the real DBs of a distributed run always have them) and fills
// them.
void writeCommunicationDbTables(DbFile& db, const CommunicationDbRows& rows, FormatVersion version);

}  // namespace ascendsim

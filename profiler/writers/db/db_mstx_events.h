#pragma once
// MSTX_EVENTS: the mstx markers (msprof's SaveMsprofTxData, db_assembler.cpp; columns from
// msprof_db.cpp TableColumns MSTX), one row per mark or range:
//   startNs, endNs     absolute ns (a mark: equal)
//   eventType          ENUM_MSTX_EVENT_TYPE: 3 marker_ex (torch_npu mark), 2 start/end (range)
//   rangeId, category  UINT32_MAX (msprof writes UINT32_MAX for rangeId; mstx "ex" data has no
//                      category, MsprofTxHostData's default)
//   message, domainId  STRING_IDS ids of the message and the domain ("default")
//   globalTid, endGlobalTid  (pid << 32) | tid of the calling thread
//   connectionId       mark id + 4000000001 (START_CONNECTION_ID_MSTX)
// torch_npu copies the table into ascend_pytorch_profiler.db; msprof-analyze's mstx_sum recipe
// reads it (marks by eventType 3, ranges by eventType 2).
#include "profiler/record/run_record.h"
#include "profiler/writers/db/db_sqlite.h"
#include "profiler/writers/db/db_string_ids.h"

namespace ascendsim {

// Creates and fills the table when the run has markers; nothing otherwise.
void writeMstxEventsTable(DbFile& db, const RunRecord& run, DbStringIds& strings);

}  // namespace ascendsim

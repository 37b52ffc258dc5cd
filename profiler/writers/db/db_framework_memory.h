#pragma once
// torch_npu's memory tables in ascend_pytorch_profiler[_{rank}].db (its MemoryDbParser; schemas
// of the e5a31957 DBs). Strings use torch_npu's memory range of STRING_IDS (from 1 << 29),
// interned in its order: "GE" (when there are GE events), the PTA components, "PTA+GE", then the
// PTA op names. Bytes and ns throughout (memory_record.csv / operator_memory.csv print MB / µs).
//  - MEMORY_RECORD: the PTA (and WORKSPACE) records merged by time with the GE records, which
//    are the NPU_OP_MEM events (totals after the event, totalActive 0, streamPtr NULL); PTA first
//    on equal times. Each PTA or GE record is followed by a PTA+GE record adding the latest record
//    of the other component (a copy when there is none yet; streamPtr falls back to the other's);
//    WORKSPACE records have none. Unlike memory_record.csv there are no APP rows.
//  - OP_MEMORY: the PTA allocations of operator_memory.csv (same pairing), then GE's: NPU_OP_MEM
//    allocate/release pairs on (operator, addr) in release order, unreleased ones last; a GE row's
//    name is the CANN string id of the operator and its active/stream columns are NULL.
#include <vector>

#include "profiler/record/run_record.h"
#include "profiler/writers/db/db_npu_memory.h"
#include "profiler/writers/db/db_sqlite.h"
#include "profiler/writers/db/db_string_ids.h"

namespace ascendsim {

// Creates MEMORY_RECORD and OP_MEMORY, each only when it has rows.
void writeFrameworkMemoryTables(DbFile& db, const RunRecord& run,
                                const std::vector<GeMemoryEvent>& geEvents,
                                DbStringIds& cannStrings, DbStringIds& memoryStrings);

}  // namespace ascendsim

#pragma once
// The CANN memory tables of ascend_pytorch_profiler[_{rank}].db (msprof's profile_memory data,
// formats.md §5.1; schemas of the e5a31957 DBs):
//  - NPU_MEM (type, ddr, hbm, timestampNs, deviceId): the process's device memory samples, type =
//    STRING_IDS "app" (msprof interns "app" and "device" together); ddr 0, hbm in bytes. The run
//    records no whole-device samples, so there are no "device" rows.
//  - NPU_MODULE_MEM (moduleId, timestampNs, totalReserved, deviceId): per-module reservations in
//    bytes, moduleId = ENUM_MODULE id, rows in sample order (time, then module id).
//  - NPU_OP_MEM: GE's per-op allocate/release events (operatorName and type "allocate"/"release"
//    as STRING_IDS, size positive on both, totals after the event, component "GE", globalTid of
//    the launching thread).
#include <cstdint>
#include <string>
#include <vector>

#include "profiler/record/run_record.h"
#include "profiler/writers/db/db_sqlite.h"
#include "profiler/writers/db/db_string_ids.h"

namespace ascendsim {

// One NPU_OP_MEM row; times are absolute ns.
struct GeMemoryEvent {
    std::string operatorName;
    std::uint64_t addr = 0;
    bool release = false;
    std::int64_t sizeBytes = 0;
    std::int64_t timestampNs = 0;
    std::int64_t totalAllocatedBytes = 0;
    std::int64_t totalReservedBytes = 0;
};

// The GE events the run recorded (RunRecord::geMemory), in its order, named from geOpMemory.
// The run keeps no GE addresses: each buffer gets its own address in a bump-allocated range so
// that (operator, addr) pairs an allocation with its release, as CANN's consumers do.
std::vector<GeMemoryEvent> geMemoryEvents(const RunRecord& run);

// Creates NPU_MEM, NPU_MODULE_MEM and NPU_OP_MEM, each only when it has rows.
void writeNpuMemoryTables(DbFile& db, const RunRecord& run,
                          const std::vector<GeMemoryEvent>& geEvents, DbStringIds& cannStrings);

}  // namespace ascendsim

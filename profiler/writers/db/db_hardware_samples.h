#pragma once
// The sampled memory-side hardware tables of ascend_pytorch_profiler[_{rank}].db (profile_memory),
// with the schemas and row order of the e5a31957 and c1e639ee DBs:
//  - HBM (deviceId, timestampNs, bandwidth NUMERIC, hbmId, type): bandwidth in whole B/s; per
//    sample the read rows of every stack, then the write rows; type = STRING_IDS "read"/"write";
//  - LLC (deviceId, llcId, timestampNs, hitRate REAL, throughput INTEGER, mode): all samples of
//    LLC 0, then of LLC 1; hitRate in % (ratio × 100), throughput in whole B/s, mode "read".
// B/s are msprof's truncated MB/s × 2^20 (hardware_sample_rates.h).
#include "profiler/config/profiler_config.h"
#include "profiler/record/run_record.h"
#include "profiler/writers/db/db_sqlite.h"
#include "profiler/writers/db/db_string_ids.h"

namespace ascendsim {

// Creates and fills HBM and LLC when the run has samples and profile_memory is on.
void writeHardwareSampleTables(DbFile& db, const RunRecord& run, const ProfilerConfig& config,
                               DbStringIds& cannStrings);

}  // namespace ascendsim

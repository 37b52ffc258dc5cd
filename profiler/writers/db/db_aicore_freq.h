#pragma once
// AICORE_FREQ (deviceId, timestampNs, freq MHz): msprof's AI Core frequency samples. The model
// runs at the chip's nominal clock, so the table holds the two points of trace_view's "AI Core
// Freq" counter: the first kernel start and the end of collection (or the last kernel end).
// The 2024-era (910A) DBs have no such table.
#include "profiler/record/run_record.h"
#include "profiler/writers/db/db_sqlite.h"

namespace ascendsim {

// Creates and fills AICORE_FREQ; nothing when the chip has no AI Core clock.
void writeAiCoreFreqTable(DbFile& db, const RunRecord& run);

}  // namespace ascendsim

#pragma once
// operator_memory.csv (formats.md §3.7). PTA rows: each pointer's malloc grouped with its following
// free and block_free; times and durations are 3-decimal µs with a TAB, totals MB floats. GE rows
// ("cann::" + name) carry CANN's own strings, including its quirk: Duration(us) is the plain
// Python float of the µs value (no fixed decimals, no TAB), while Release = alloc + duration is a
// formatted timestamp.
#include "profiler/format/csv_writer.h"
#include "profiler/record/run_record.h"

namespace ascendsim {

CsvRow operatorMemoryHeader();

CsvTable buildOperatorMemory(const RunRecord& run);

}  // namespace ascendsim

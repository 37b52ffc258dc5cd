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

// One PTA caching-allocator allocation: its malloc grouped with the following free and block_free
// of the same pointer (either may be missing). Shared with the DB export's OP_MEMORY.
struct PtaAllocation {
    const MemoryEventRecord* malloc = nullptr;
    const MemoryEventRecord* free = nullptr;
    const MemoryEventRecord* blockFree = nullptr;
};

// In malloc order; the pointers point into run.memoryEvents.
std::vector<PtaAllocation> ptaAllocations(const RunRecord& run);

// The torch op that caused `event` (operator_memory Name), "" when unknown.
std::string causingOpName(const RunRecord& run, const MemoryEventRecord& event);

CsvTable buildOperatorMemory(const RunRecord& run);

}  // namespace ascendsim

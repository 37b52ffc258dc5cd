#pragma once
// memory_record.csv (formats.md §3.6): APP rows from the CANN npu_mem samples, then the time-merged
// PTA / GE stream where each PTA or GE row is followed by a PTA+GE row summing it with the latest
// record of the other component; workspace allocations become WORKSPACE rows with no partner.
// MB values are Python floats, timestamps 3-decimal µs with a trailing TAB, devices "NPU:<id>".
#include "profiler/format/csv_writer.h"
#include "profiler/record/run_record.h"

namespace ascendsim {

CsvRow memoryRecordHeader();

CsvTable buildMemoryRecord(const RunRecord& run);

// "NPU:<deviceId>" as torch_npu writes the Device Type column.
std::string npuDeviceText(const RunRecord& run);

}  // namespace ascendsim

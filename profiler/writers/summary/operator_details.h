#pragma once
// operator_details.csv (formats.md §3.3): one row per torch op in tree order (ProfilerStep#N
// skipped), host self/total durations and the device time of the kernels each op (self) or its
// subtree (total) launched; "With AICore" counts only kernels whose trace_view Task Type is
// "AI_CORE" (hardwareTaskTypeArg: per era and level).
#include "profiler/config/profiler_config.h"
#include "profiler/format/csv_writer.h"
#include "profiler/record/run_record.h"

namespace ascendsim {

CsvRow operatorDetailsHeader();

CsvTable buildOperatorDetails(const RunRecord& run, const ProfilerConfig& config);

}  // namespace ascendsim

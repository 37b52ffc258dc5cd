#pragma once
// DB export (formats.md §5): ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler[_{rank}].db with the
// CANN and torch_npu tables the record can fill, and analysis.db with StepTraceTime.
// Schemas are those of the real DBs (reference _derived/*.sql; 8.3 era COMPUTE_TASK_INFO and
// schema version per formats.md §5.1). Only tables with content are created, plus ENUM_API_TYPE;
// no DB is written when the run has nothing to put in it.
//
// ascend_pytorch_profiler tables: STRING_IDS (CANN strings from id 0, torch strings from 2^28),
// SESSION_TIME_INFO, NPU_INFO, RANK_DEVICE_MAP, HOST_INFO, TASK, COMPUTE_TASK_INFO, CANN_API,
// TASK_PMU_INFO (Level1/2 only: raw metric names such as aic_total_time, unrounded values),
// META_DATA, ENUM_API_TYPE, STEP_TIME, and the framework tables of db_framework_api.h:
// PYTORCH_API (startNs/endNs stored as TEXT, the torch_npu quirk), CONNECTION_IDS,
// PYTORCH_CALLCHAINS; the fixed enumerations of db_cann_enums.h; AICORE_FREQ (db_aicore_freq.h;
// NPU activity at a level, not the 2024 era); with profile_memory the CANN memory tables of
// db_npu_memory.h (NPU activity at a level) and torch_npu's MEMORY_RECORD / OP_MEMORY
// (db_framework_memory.h, strings from 2^29).
#include <filesystem>
#include <string>

#include "profiler/config/profiler_config.h"
#include "profiler/format/csv_writer.h"
#include "profiler/record/run_record.h"
#include "profiler/writers/db/db_communication_analysis.h"

namespace ascendsim {

// "ascend_pytorch_profiler_{rank}.db", or "ascend_pytorch_profiler.db" when rankId is -1.
std::string ascendPytorchProfilerDbName(const RunRecord& run);

// Writes `outputDir`/ascendPytorchProfilerDbName(run); false (no file) when there is nothing.
bool writeAscendPytorchProfilerDb(const std::filesystem::path& outputDir, const RunRecord& run,
                                  const ProfilerConfig& config);

// Writes `outputDir`/analysis.db with StepTraceTime from the step_trace_time table the timeline
// writer built (its header decides the columns: deviceId only when it has Device_id, as in the
// 8.3 sample; values are stored as numbers, Step as TEXT).
// With `communication` rows, also the CommAnalyzer* tables. False (no file) when there are
// neither step rows nor communication rows.
bool writeAnalysisDb(const std::filesystem::path& outputDir, const CsvTable& stepTraceTime,
                     const CommunicationAnalysisRows* communication = nullptr);

}  // namespace ascendsim

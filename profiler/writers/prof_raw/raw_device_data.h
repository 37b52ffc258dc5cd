#pragma once
// PROF_*/device_{id}/data/: the device's raw records. On STARS chips (910B/910_93, msprof's
// CHIP_V4_1_0) the task scheduler logs each task's start and end as 64-byte ACSQ records in
// `stars_soc.data.{id}.slice_0` (Ascend/msprof msparser/stars/acsq_task_parser.py, format
// ACSQ_TASK_FMT "4HQHH11L", decoded by profiling_bean/stars/acsq_task.py; func types 000000
// start and 000001 end, msconfig/stars_config.py):
//   u16 header   func type (bits 0-5), SQE type (bits 10-15)
//   u16 0x6BD3   the STARS magic number (stars_log_parser.py checks it)
//   u16 stream id, u16 task id
//   u64 system counter
//   u16 0, u16 acsq id (bits 6-12) | acc id (bits 0-5)
//   11 × u32     0
// A MIX kernel's FFTS+ context adds its sub-task start and end (RawStarsLog, FFTS_PLUS_LOG_FMT)
// inside the task's. The tasks' PMU counters go to `ffts_profile.data.{id}.slice_0` (raw_pmu_data.h).
// On the 910A the starts and ends go to the HWTS log, `hwts.data.{id}.slice_0` (RawHwtsLog), and
// the PMU counters to `aicore.data.{id}.slice_0` (RawAicPmu). On every chip:
// each AI CPU task's report in `aicpu.data.{id}.slice_0` (RawAicpuNode; with ACL_PROF_AICPU), the
// L2 cache records (raw_l2_cache_data.h; ACL_PROF_L2CACHE) and the step marks in
// `ts_track.data.{id}.slice_0` (raw_step_trace_data.h; ACL_PROF_TRAINING_TRACE).
// A collective's own task is logged like a kernel's; on STARS chips each of its HCCL tasks is an
// FFTS+ sub-task (its context id) of it (docs/output-formats.md "HCCL records").
#include <map>
#include <string>

#include "profiler/config/profiler_config.h"
#include "profiler/record/run_record.h"

namespace ascendsim {

// File name -> bytes; empty when nothing the records hold is collected.
std::map<std::string, std::string> rawDeviceDataFiles(const RunRecord& run, const ProfilerConfig& config);

}  // namespace ascendsim

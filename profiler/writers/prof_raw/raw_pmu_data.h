#pragma once
// PROF_*/device_{id}/data/ffts_profile.data.{id}.slice_0: the AI Core / AI Vector core PMU
// counters of each task on STARS chips (910B/910_93, msprof's CHIP_V4_1_0), one 128-byte context
// PMU record per task as the task scheduler reports it at the task's end (Ascend/msprof
// analysis/csrc/domain/services/parser/parser_item/chip4_pmu_parser_item.h ContextPmu, and the
// Python FftsPmuBean, msparser/data_struct_size_constant.py FFTS_PMU_FMT "4HQ4HQ12Q"):
//   u16  func type 0b101000 (bits 0-5, StarsConstant.FFTS_PMU_TAG), a 4-bit record counter (6-9)
//   u16  0
//   u16  stream id, u16 task id
//   u64  0
//   u16  sub-task type (bits 0-7; 0 for a plain task), overflow flag (bit 10)
//   u16  sub-task (context) id: 0 for a plain task
//   u16  FFTS type (bits 13-15): 0 a plain AI Core task; a plain AI Vector task is assumed to carry
//        its SQE type, 2 (msprof reads any value but 0, 4 and 5 as AIV: pmu_accelerator_utils.cpp)
//   u16  0, u64 0
//   u64  total cycles, summed over the task's blocks on that core side
//   u64  0
//   8 × u64  the counts of the events sample.json lists for the side (profiledEvents), 0-padded
//   2 × u64  system counter at the task's start and end
// msprof evaluates the aic_metrics formulas on these (mscalculate/stars/ffts_pmu_calculator.py),
// which are the formulas profiler/metrics evaluates, so its op_summary carries our numbers.
// Not written: MIX tasks (FFTS+ context records with GE context ids, plus the block PMU records
// of their second core side) and the 910A's aicore.data.
#include <string>

#include "profiler/config/profiler_config.h"
#include "profiler/record/run_record.h"

namespace ascendsim {

// The records of the run's AI Core and AI Vector kernels, by end time; empty on chips without
// STARS, without AI Core metrics, or when no task is collected.
std::string rawPmuRecords(const RunRecord& run, const ProfilerConfig& config);

}  // namespace ascendsim

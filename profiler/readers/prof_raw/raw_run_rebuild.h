#pragma once
// The run a PROF_* directory's raw data describes (issue 14 item 3, `ascendsim msprof --export=on
// --output=PROF_DIR`): the RunRecord and profiler settings that the 2023-era export
// (profiler/writers/era2023) turns into timeline/ and summary/. The collection writes its export
// from this same rebuild of its own raw data (msprof_collection.cpp), so an export of the raw data
// alone is byte-identical to the one written at collection time.
//
// What the raw data carries, and so what is rebuilt (docs/output-formats.md, "Raw PROF data"):
//   api_event         every API call (level, name through type_info_dic / hash_dic, thread, times);
//                     connection ids number the calls in file order from 1
//   node_basic_info   each kernel's name, op type, task type, block dims, HF32 flag (opFlag),
//                     joined to the Node@launch call it was reported in (same thread, its begin)
//   tensor_info       the kernel's input and output shapes, data types and formats
//   context_id_info   a MIX kernel's FFTS+ context id (0), checked
//   task_track        each device task's stream and task id (at the end of its launching call)
//   stars_soc         the tasks' device start and end (ACSQ), paired by stream and task id in
//                     order; a MIX kernel's FFTS+ sub-task records repeat them
//   (hwts.data)       the same on the 910A
//   ffts_profile      the AI Core / AI Vector PMU counts of the sample.json events, per side: a
//                     context record per task (a MIX task's main side) and a MIX task's block
//                     records of its second side, summed
//   aicore.data       the 910A's AI Core PMU counts
//   msproftx          the MsprofTx markers
//   aicpu.data        the AI CPU tasks' submit times
//   l2_cache.data     the tasks' L2 hits, requests and victims (raw_l2_cache_data.h)
//   ts_track.data     the profiler steps' start and end marks (raw_step_trace_data.h)
//   hccl_op_info      each collective's communicator, algorithm, data type and count, beside its
//                     node_basic_info (GE task type HCCL: name, op type)
//   hccl_info         each HCCL task's kind, plane, context, ranks, size, link; its times from the
//                     FFTS+ sub-task of that context in stars_soc
// and sample.json the collection's switches. Not carried (the run's own record supplies them at
// collection time; an export of raw data alone lacks them): the 310P's vector-core PMU counts,
// collectives on the 910A (no sub-tasks in its HWTS log) or without the HCCL trace.
#include "models/chip/chip_config.h"
#include "profiler/config/profiler_config.h"
#include "profiler/readers/prof_raw/raw_prof_reader.h"
#include "profiler/record/run_record.h"

namespace ascendsim {

struct RebuiltRun {
    RunRecord run;
    ProfilerConfig config;
};

// Whether the raw data of `run` collected with `config` carries everything the raw-data export
// reads: collectives only on STARS chips with ACL_PROF_HCCL_TRACE and ACL_PROF_TASK_TIME, and on a
// coupled chip with AI Core metrics no vector-core tasks (the 310P's aiVectorCore.data is not
// written; no kernel model places a task on its vector cores).
// Otherwise the collection exports from the run.
bool rawDataRebuildsRun(const RunRecord& run, const ProfilerConfig& config);

// `chip` is the chip the data was collected on and must outlive the result. Throws RawDataError
// when records do not fit together (an id no dictionary names, a task without its launch).
RebuiltRun rebuildRunFromRaw(const RawProfData& raw, const ChipConfig& chip);

}  // namespace ascendsim

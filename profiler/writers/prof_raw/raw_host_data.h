#pragma once
// PROF_*/host/data/: the host's raw records as CANN 7.0+ writes them (the "aging/unaging"
// compact layout; CANN 6 wrote per-module AclModule.* / Framework.* / runtime.* files instead):
//
//   unaging.api_event.data.slice_0           MsprofApi (40 B): every AscendCL, model, node,
//                                            HCCL and runtime API call
//   aging.compact.node_basic_info.slice_0    MsprofCompactInfo (64 B) + MsprofNodeBasicInfo:
//                                            each kernel's op name, op type, task type, block dim
//   aging.compact.task_track.slice_0         MsprofCompactInfo + MsprofRuntimeTrack: each device
//                                            task's stream, task id, task type, kernel name
//   unaging.additional.tensor_info.slice_0   MsprofAdditionalInfo + MsprofTensorInfo: each kernel's
//                                            input and output shapes, data types, formats
//   unaging.additional.context_id_info.slice_0  MsprofAdditionalInfo + MsprofContextIdInfo: each
//                                            MIX kernel's FFTS+ context id (0)
//
// The dictionaries that name the records' numbers are written by raw_prof_data.cpp, after every
// record is known (raw_type_dictionary.h).
// Layouts (raw_layouts.h): Ascend/msprof analysis/csrc/infrastructure/utils/prof_common.h (the structs) and the
// Python parsers' formats (msparser/data_struct_size_constant.py: API_EVENT_FMT "HHIIIQQQ",
// NODE_BASIC_INFO_FMT, TASK_TRACK_FMT), file names from common_func/file_name_manager.py.
// Which records are written follows the collection's data selection (era2023_data_selection.h).
#include <map>
#include <string>

#include "profiler/config/profiler_config.h"
#include "profiler/record/run_record.h"
#include "profiler/writers/prof_raw/raw_type_dictionary.h"

namespace ascendsim {

// File name -> bytes of every host record file with records; `dictionary` collects the names
// and ids they use.
std::map<std::string, std::string> rawHostDataFiles(const RunRecord& run, const ProfilerConfig& config,
                                                    RawTypeDictionary& dictionary);

}  // namespace ascendsim

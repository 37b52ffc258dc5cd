#pragma once
// PROF_*/host/data/: HCCL's raw records of the run's collectives (raw_hccl_layouts.h):
//
//   unaging.additional.hccl_info.slice_0   MsprofHcclInfo, one per HCCL task of every collective
//                                          (with ACL_PROF_HCCL_TRACE): plane, context, notify, ranks,
//                                          size, link, reduction, data type
//   aging.compact.hccl_op_info.slice_0     MsprofHcclOPInfo, one per collective: data type,
//                                          algorithm, count, communicator
//   unaging.additional.context_id_info.slice_0  (HCCL level) the first and last FFTS+ context of
//                                          each collective's HCCL tasks (with ACL_PROF_HCCL_TRACE)
//
// GE reports hccl_op_info with the node's basic info at the start of the collective's Node@launch;
// HCCL reports hccl_info and its context ids inside its own call (Launch_Ffts, level 5500), which
// launches the FFTS+ task within the Node@launch: msprof hangs them, and the task's task_track, on
// that HCCL-level event (tree_builder.cpp; cann_analysis_gear.py add_hccl_task), which is what
// makes its export draw the HCCL layer. An HCCL task's kind travels in the fields CANN fills for it
// (hcclTaskOf).
#include <map>
#include <optional>
#include <string>
#include <unordered_map>

#include "profiler/config/profiler_config.h"
#include "profiler/record/run_record.h"
#include "profiler/writers/prof_raw/raw_hccl_layouts.h"
#include "profiler/writers/prof_raw/raw_type_dictionary.h"

namespace ascendsim {

// The host calls that launch a collective: GE's Node@launch, and HCCL's call inside it on the same
// thread (the Communication-level API, Launch_Ffts), which builds and launches the FFTS+ task.
struct CollectiveLaunchCalls {
    const ApiRecord* node = nullptr;
    const ApiRecord* hccl = nullptr;  // null when the run recorded none inside the launch
};
std::unordered_map<const CommunicationOpRecord*, CollectiveLaunchCalls> collectiveLaunchCalls(const RunRecord& run);

// File name -> bytes of the HCCL record files with records (context_id_info's records are to be
// appended to GE's node-level ones).
std::map<std::string, std::string> rawHcclDataFiles(const RunRecord& run, const ProfilerConfig& config,
                                                    RawTypeDictionary& dictionary);

// The hccl_info record of `task` of `op` (the header's thread and time left to the caller); its
// itemId is the task's name (Memcpy, Notify_Wait, ...) in `dictionary`.
RawHcclInfo hcclInfoOf(const CommunicationOpRecord& op, const HcclTask& task, RawTypeDictionary& dictionary);
// The HCCL task an hccl_info record describes, `taskName` being its itemId's name (its times are
// the device's, not in the record); nullopt when the name or link is none ascendsim writes.
std::optional<HcclTask> hcclTaskOf(const RawHcclInfo& info, const std::string& taskName);

}  // namespace ascendsim

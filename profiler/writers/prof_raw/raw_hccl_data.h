#pragma once
// PROF_*/host/data/: HCCL's raw records of the run's collectives (raw_hccl_layouts.h):
//
//   unaging.additional.hccl_info.slice_0   MsprofHcclInfo, one per HCCL task of every collective
//                                          (with ACL_PROF_HCCL_TRACE): plane, context, notify, ranks,
//                                          size, link, reduction, data type
//   aging.compact.hccl_op_info.slice_0     MsprofHcclOPInfo, one per collective: data type,
//                                          algorithm, count, communicator
//
// Both carry the thread and the start of the collective's Node@launch call (GE and HCCL report
// them inside it). An HCCL task's kind travels in the fields CANN fills for it (hcclTaskKindOf).
#include <map>
#include <optional>
#include <string>

#include "profiler/config/profiler_config.h"
#include "profiler/record/run_record.h"
#include "profiler/writers/prof_raw/raw_hccl_layouts.h"
#include "profiler/writers/prof_raw/raw_type_dictionary.h"

namespace ascendsim {

// File name -> bytes of the HCCL record files with records.
std::map<std::string, std::string> rawHcclDataFiles(const RunRecord& run, const ProfilerConfig& config,
                                                    RawTypeDictionary& dictionary);

// The hccl_info record of `task` of `op` (header and itemId left to the caller).
RawHcclInfo hcclInfoOf(const CommunicationOpRecord& op, const HcclTask& task);
// The HCCL task an hccl_info record describes (its times are the device's, not in the record);
// nullopt when the record's fields name no kind ascendsim writes.
std::optional<HcclTask> hcclTaskOf(const RawHcclInfo& info);

}  // namespace ascendsim

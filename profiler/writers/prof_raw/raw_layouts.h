#pragma once
// The binary layouts of CANN's raw profiling records, each stated once as a field list
// (raw_host_layouts.h, raw_device_layouts.h) that the writers pack with encodeRaw and the raw-data
// reader (profiler/readers/prof_raw) unpacks with decodeRaw / decodeAll (raw_archive.h). Every
// decode checks the record's fixed fields (magic numbers, levels, func types) and throws
// RawDataError with the file and offset when they are wrong or the record is cut short.
#include <cstdint>

#include "models/task/task_result.h"
#include "profiler/writers/prof_raw/raw_device_layouts.h"
#include "profiler/writers/prof_raw/raw_hccl_layouts.h"
#include "profiler/writers/prof_raw/raw_host_layouts.h"

namespace ascendsim {

// GE's task types in node_basic_info (Ascend/msprof common_func/ms_constant/ge_enum_constant.py
// GeTaskType: AI_CORE 0, AI_CPU 1, AI_VECTOR_CORE 2, MIX_AIC 4, MIX_AIV 5).
std::uint32_t geTaskTypeOf(TaskType type);
// GeTaskType HCCL: a collective's node (GE reports it with node_basic_info like a kernel's).
inline constexpr std::uint32_t kGeTaskTypeHccl = 9;
// The task type of a GE number; false for a number ascendsim does not write.
bool taskTypeOfGe(std::uint32_t geType, TaskType& type);

}  // namespace ascendsim

#pragma once
// How a real torch_npu run names what our ops launch: the aclnn API of an op type, the kernel
// name kernel_details shows ("aclnnAdd_AddAiCore_Add"), and op_summary's tensor descriptions.
#include <string>

#include "models/kernels/op_instance.h"
#include "models/task/kernel_task.h"
#include "profiler/record/run_record.h"

namespace ascendsim {

// "Conv2D" → "aclnnConvolution". Op types without an aclnn entry point run through the aclop
// (GE) path and keep their CANN type name ("TransData").
std::string npuOpNameFor(const std::string& opType);

// "<npu op>_<type><AiCore|AiCpu><suffix>_<type>", the pattern of the 8.3.RC1 sample.
std::string kernelNameFor(const std::string& npuOpName, const std::string& opType, TaskType type,
                          const std::string& kernelSuffix);

// op_summary spelling of a dtype: FLOAT16, FLOAT, DT_BF16, INT8, INT32, INT64, ...
std::string opSummaryDtypeName(DataType dtype);

// Shape "32,3,224,224", dtype and format of one tensor as kernel_details describes it.
TensorDescription describeTensor(const TensorInfo& tensor);

}  // namespace ascendsim

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

// The aclnn API torch_npu's op plugin calls for an aten op that CANN runs as several kernels, all
// named after that one API ("aten::embedding_dense_backward" → "aclnnEmbeddingDenseBackward":
// its Casts, Sort, MemSet and EmbeddingDenseGradV2); "" when the op's type decides.
std::string aclnnNameForAten(const std::string& atenName);

// The middle of a kernel name, the kernel binary: "<type><AiCore|AiCpu><suffix>" for TBE kernels,
// the type alone for the Ascend C ones ("EmbeddingDenseGradV2").
std::string kernelBinaryFor(const std::string& opType, TaskType type, const std::string& kernelSuffix);

// "<npu op>_<kernel binary>_<type>", the pattern of the 8.3.RC1 sample.
std::string kernelNameFor(const std::string& npuOpName, const std::string& opType, TaskType type,
                          const std::string& kernelSuffix);

// The MemSet CANN launches before a kernel that accumulates into its output carries that kernel's
// binary: "aclnnEmbeddingDenseBackward_EmbeddingDenseGradV2_MemSet" (ef63bc64 level2 rank 0).
std::string memSetKernelNameFor(const std::string& npuOpName, const std::string& ownerBinary);

// op_summary spelling of a dtype: FLOAT16, FLOAT, DT_BF16, INT8, INT32, INT64, ...
std::string opSummaryDtypeName(DataType dtype);

// Shape "32,3,224,224", dtype and format of one tensor as kernel_details describes it.
TensorDescription describeTensor(const TensorInfo& tensor);

}  // namespace ascendsim

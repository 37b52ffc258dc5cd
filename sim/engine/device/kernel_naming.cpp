#include "sim/engine/device/kernel_naming.h"

#include <algorithm>
#include <array>
#include <utility>

namespace ascendsim {

namespace {
// aclnn entry points torch_npu calls for each CANN op type (torch_npu op-plugin naming).
constexpr std::array<std::pair<std::string_view, std::string_view>, 45> kAclnnNames = {{
    {"MatMul", "aclnnMatmul"},
    {"BatchMatMul", "aclnnBatchMatMul"},
    {"Conv2D", "aclnnConvolution"},
    {"Conv2DBackpropInput", "aclnnConvolutionBackward"},
    {"Conv2DBackpropFilter", "aclnnConvolutionBackward"},
    {"FlashAttentionScore", "aclnnFlashAttentionScore"},
    {"IncreFlashAttention", "aclnnIncreFlashAttentionV4"},
    {"Add", "aclnnAdd"},
    {"Sub", "aclnnSub"},
    {"Mul", "aclnnMul"},
    {"RealDiv", "aclnnDiv"},
    {"Relu", "aclnnRelu"},
    {"ReluGrad", "aclnnThresholdBackward"},
    {"Gelu", "aclnnGelu"},
    {"Swish", "aclnnSilu"},
    {"Cast", "aclnnCast"},
    {"SoftmaxV2", "aclnnSoftmax"},
    {"LayerNorm", "aclnnLayerNorm"},
    {"RmsNorm", "aclnnRmsNorm"},
    {"BNInfer", "aclnnBatchNorm"},
    {"BNTrainingReduce", "aclnnBatchNorm"},
    {"BNTrainingUpdate", "aclnnBatchNorm"},
    {"BNTrainingReduceGrad", "aclnnBatchNormBackward"},
    {"BNTrainingUpdateGrad", "aclnnBatchNormBackward"},
    {"MaxPoolV3", "aclnnMaxPool2dWithIndices"},
    {"MaxPoolGrad", "aclnnMaxPool2dWithIndicesBackward"},
    {"AvgPoolV2", "aclnnAvgPool2d"},
    {"AdaptiveAvgPool2d", "aclnnAdaptiveAvgPool2d"},
    {"ReduceSum", "aclnnReduceSum"},
    {"ReduceMean", "aclnnMean"},
    {"ReduceMax", "aclnnAmax"},
    {"Transpose", "aclnnPermute"},
    {"GatherV2", "aclnnEmbedding"},
    {"SoftmaxCrossEntropyWithLogits", "aclnnCrossEntropyLoss"},
    {"ApplyAdamW", "aclnnApplyAdamWV2"},
    {"ApplyAdamWV2", "aclnnApplyAdamWV2"},
    {"RotaryMul", "aclnnRotaryPositionEmbedding"},
    {"TensorMove", "aclnnInplaceCopy"},
    {"TopK", "aclnnTopk"},
    {"NonMaxSuppression", "aclnnNonMaxSuppression"},
    {"Unique", "aclnnUnique2"},
    {"ApplyMomentum", "ApplyMomentum"},
    {"TransData", "TransData"},
    {"ZerosLike", "aclnnInplaceZero"},
    {"Muls", "aclnnMuls"},
}};

// aten ops torch_npu's op plugin runs through one aclnn call that launches several kernels
// ([D] ef63bc64 level2 rank_0 kernel_details.csv: aclnnEmbeddingDenseBackward_CastAiCore_Cast,
// _SortAiCore_Sort, _EmbeddingDenseGradV2_MemSet, _EmbeddingDenseGradV2_EmbeddingDenseGradV2;
// api_statistic.csv: one aclnnEmbeddingDenseBackward call per step).
constexpr std::array<std::pair<std::string_view, std::string_view>, 1> kAtenAclnnNames = {{
    {"aten::embedding_dense_backward", "aclnnEmbeddingDenseBackward"},
}};

// Op types whose CANN kernel is an Ascend C binary, named by the type alone (the same sample:
// aclnnEmbeddingDenseBackward_EmbeddingDenseGradV2_EmbeddingDenseGradV2). The sample shows the
// rule for ApplyAdamWV2, LpNormV2 and FlashAttentionScore(Grad) too; those ops are modelled under
// other type names and keep their names for now.
constexpr std::array<std::string_view, 1> kAscendCKernelTypes = {"EmbeddingDenseGradV2"};

}  // namespace

std::string aclnnNameForAten(const std::string& atenName) {
    for (const auto& [aten, name] : kAtenAclnnNames)
        if (aten == atenName) return std::string(name);
    return "";
}

std::string kernelBinaryFor(const std::string& opType, TaskType type, const std::string& kernelSuffix) {
    if (std::find(kAscendCKernelTypes.begin(), kAscendCKernelTypes.end(), opType) != kAscendCKernelTypes.end())
        return opType + kernelSuffix;
    return opType + (type == TaskType::AiCpu ? "AiCpu" : "AiCore") + kernelSuffix;
}

std::string memSetKernelNameFor(const std::string& npuOpName, const std::string& ownerBinary) {
    return npuOpName + "_" + ownerBinary + "_MemSet";
}

std::string npuOpNameFor(const std::string& opType) {
    for (const auto& [type, name] : kAclnnNames)
        if (type == opType) return std::string(name);
    return opType;
}

std::string kernelNameFor(const std::string& npuOpName, const std::string& opType, TaskType type,
                          const std::string& kernelSuffix) {
    return npuOpName + "_" + kernelBinaryFor(opType, type, kernelSuffix) + "_" + opType;
}

std::string opSummaryDtypeName(DataType dtype) {
    switch (dtype) {
        case DataType::Fp16: return "FLOAT16";
        case DataType::Bf16: return "DT_BF16";
        case DataType::Fp32: return "FLOAT";
        case DataType::Hf32: return "FLOAT";
        case DataType::Int8: return "INT8";
        case DataType::Uint8: return "UINT8";
        case DataType::Int16: return "INT16";
        case DataType::Int32: return "INT32";
        case DataType::Int64: return "INT64";
        case DataType::Bool: return "BOOL";
    }
    return "UNDEFINED";
}

TensorDescription describeTensor(const TensorInfo& tensor) {
    TensorDescription d;
    for (std::size_t i = 0; i < tensor.shape.size(); ++i) {
        if (i) d.shape += ',';
        d.shape += std::to_string(tensor.shape[i]);
    }
    d.dtype = opSummaryDtypeName(tensor.dtype);
    d.format = std::string(tensorFormatName(tensor.format));
    return d;
}

}  // namespace ascendsim

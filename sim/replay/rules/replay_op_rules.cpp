#include "sim/replay/rules/replay_op_rules.h"

#include "models/kernels/cube/matmul/matmul_split_k.h"

namespace ascendsim {

namespace {

// Families follow the fidelity table: cube, elementwise, cast, copies, optimizer,
// layout, pooling, attention, normalization, reduction.
const std::vector<ReplayRule> kReplayRules = {
    {"MatMul", "MatMul", "MatMul", buildMatMul},
    {"MatMulV2", "MatMul", "MatMul", buildTbeMatMul},
    {"MatMulV3", "MatMul", "MatMul", buildMatMul},
    {"BatchMatMul", "BatchMatMul", "MatMul", buildMatMul},
    {"BatchMatMulV2", "BatchMatMul", "MatMul", buildMatMul},
    {"BatchMatMulV3", "BatchMatMul", "MatMul", buildMatMul},
    {"Conv2D", "Conv2D", "Conv", buildConv2D},
    {"Conv2DBackpropInput", "Conv2DBackpropInput", "Conv", buildConv2DBackpropInput},
    {"Conv2DBackpropInputD", "Conv2DBackpropInput", "Conv", buildConv2DBackpropInput},
    {"Conv2DBackpropFilter", "Conv2DBackpropFilter", "Conv", buildConv2DBackpropFilter},
    {"Conv2DBackpropFilterD", "Conv2DBackpropFilter", "Conv", buildConv2DBackpropFilter},
    {"Add", "Add", "elementwise", buildBinary},
    {"Sub", "Sub", "elementwise", buildBinary},
    {"Mul", "Mul", "elementwise", buildBinary},
    {"RealDiv", "RealDiv", "elementwise", buildBinary},
    {"Relu", "Relu", "elementwise", buildUnary},
    {"Gelu", "Gelu", "elementwise", buildUnary},
    {"Swish", "Swish", "elementwise", buildUnary},
    {"ReluGrad", "ReluGrad", "elementwise", buildBinary},
    {"Cast", "Cast", "Cast", buildCast},
    {"TensorMove", "TensorMove", "TensorMove", buildUnary},
    {"ApplyAdamWV2", "ApplyAdamWV2", "ApplyAdamW", buildApplyAdamWV2},
    {"Transpose", "Transpose", "Transpose / TransData", buildTranspose},
    {"TransData", "TransData", "Transpose / TransData", buildTransData},
    {"GatherV2", "GatherV2", "gather", buildGather},
    {"RmsNorm", "RmsNorm", "normalization", buildNorm},
    {"LayerNorm", "LayerNorm", "normalization", buildNorm},
    {"SoftmaxV2", "SoftmaxV2", "normalization", buildUnary},
    {"ReduceSum", "ReduceSum", "reduction", buildReduce},
    {"ReduceSumD", "ReduceSum", "reduction", buildReduce},
    {"ReduceMean", "ReduceMean", "reduction", buildReduce},
    {"ReduceMeanD", "ReduceMean", "reduction", buildReduce},
    {"ReduceMax", "ReduceMax", "reduction", buildReduce},
    {"ReduceMaxD", "ReduceMax", "reduction", buildReduce},
    {"FlashAttentionScore", "FlashAttentionScore", "FlashAttention", buildFlashAttention},
    {"FlashAttentionScoreGrad", "FlashAttentionScoreGrad", "FlashAttention", buildFlashAttentionGrad},
    // Transformer vector ops (docs/op-catalog.md; lowered once the catalog has them).
    {"SwiGlu", "SwiGlu", "elementwise", buildUnary},
    {"SwiGluGrad", "SwiGluGrad", "elementwise", buildBinary},
    {"RmsNormGrad", "RmsNormGrad", "normalization", buildAsRecorded},
    {"RotaryPositionEmbedding", "RotaryPositionEmbedding", "elementwise", buildRotary},
    {"RotaryPositionEmbeddingGrad", "RotaryPositionEmbeddingGrad", "elementwise", buildRotary},
    {"Exp", "Exp", "elementwise", buildUnary},
    {"Abs", "Abs", "elementwise", buildUnary},
    {"Sin", "Sin", "elementwise", buildUnary},
    {"Cos", "Cos", "elementwise", buildUnary},
    {"Muls", "Muls", "elementwise", buildUnary},
    {"Pows", "Pows", "elementwise", buildAsRecorded},
    {"Greater", "Greater", "elementwise", buildBinary},
    {"Less", "Less", "elementwise", buildBinary},
    {"GreaterEqual", "GreaterEqual", "elementwise", buildBinary},
    {"Equal", "Equal", "elementwise", buildBinary},
    {"NotEqual", "NotEqual", "elementwise", buildBinary},
    {"ZerosLike", "ZerosLike", "fill", buildUnary},
    {"OnesLike", "OnesLike", "fill", buildUnary},
    {"Slice", "Slice", "Slice / ConcatD", buildSlice},
    {"ConcatD", "ConcatD", "Slice / ConcatD", buildConcat},
    {"Log", "Log", "elementwise", buildUnary},
    {"LogicalNot", "LogicalNot", "elementwise", buildUnary},
    {"LogicalOr", "LogicalOr", "elementwise", buildBinary},
    {"LogicalAnd", "LogicalAnd", "elementwise", buildBinary},
    {"LpNormV2", "LpNormV2", "reduction", buildUnary},
    {"ArgMaxWithValue", "ArgMaxWithValue", "reduction", buildArgMaxWithValue},
    {"EmbeddingDenseGradV2", "EmbeddingDenseGradV2", "gather", buildEmbeddingDenseGrad},
    {"Range", "Range", "fill", buildRange},
    {"BroadcastTo", "BroadcastTo", "Slice / ConcatD", buildBroadcastTo},
    // CNN training samples (docs/op-catalog.md, "Ops of the CNN training samples").
    {"ForeachAddList", "ForeachAddList", "optimizer", buildForeach},
    {"ForeachMulScalar", "ForeachMulScalar", "optimizer", buildForeach},
    {"AxpyV2", "AxpyV2", "optimizer", buildAsRecorded},
    {"MaxPoolWithArgmaxV1", "MaxPoolWithArgmaxV1", "pooling", buildMaxPoolWithArgmax},
    {"MemSet", "MemSet", "fill", buildMemSet},
    {"DropOutDoMask", "DropOutDoMask", "elementwise", buildAsRecorded},
    {"NLLLoss", "NLLLoss", "reduction", buildAsRecorded},
    {"AdaptiveAvgPool3d", "AdaptiveAvgPool3d", "pooling", buildUnary},
    {"AdaptiveAvgPool3dGrad", "AdaptiveAvgPool3dGrad", "pooling", buildAsRecorded},
    {"NLLLossGrad", "NLLLossGrad", "reduction", buildAsRecorded},
    {"MaxPoolGradWithArgmaxV1", "MaxPoolGradWithArgmaxV1", "pooling", buildMaxPoolGradWithArgmax},
    {"LogSoftmaxV2", "LogSoftmaxV2", "normalization", buildUnary},
    {"LogSoftmaxGrad", "LogSoftmaxGrad", "normalization", buildBinary},
    // Sort and TopK on the vector unit (models/kernels/sort/), the fill of a host-shaped tensor.
    {"Sort", "Sort", "sort", buildSortOrTopK},
    {"TopKV2", "TopKV2", "sort", buildSortOrTopK},
    {"TopKD", "TopKD", "sort", buildSortOrTopK},
    {"Fill", "Fill", "fill", buildOutputOnly},
    {"StatelessDropOutGenMask", "StatelessDropOutGenMask", "dropout mask", buildOutputOnly},
    // torch's advanced indexing of single elements (models/kernels/layout/indexing/advanced_index.cpp).
    {"Index", "Index", "gather", buildAdvancedIndex},
    {"IndexPutV2", "IndexPutV2", "gather", buildAdvancedIndex},
    {"NonZero", "NonZero", "gather", buildUnary},
};

}  // namespace

const std::vector<ReplayRule>& replayRules() { return kReplayRules; }

const ReplayRule* findReplayRule(std::string_view cannType) {
    for (const auto& rule : kReplayRules)
        if (rule.cannType == cannType) return &rule;
    return nullptr;
}

std::string familyOf(std::string_view cannType) {
    const ReplayRule* rule = findReplayRule(cannType);
    return std::string(rule != nullptr ? rule->family : cannType);
}

OpInstance replayOp(const RealKernel& kernel) {
    const ReplayRule* rule = findReplayRule(kernel.type);
    if (rule == nullptr) throw UnreplayableKernel("no catalog op for type " + kernel.type);
    OpInstance op;
    op.name = kernel.name;
    op.type = std::string(rule->catalogType);
    RealTensors tensors{realInputs(kernel), realOutputs(kernel)};
    rule->build(tensors, op);
    if (kernel.acceleratorCore != "AI_CPU" && kernel.blockDim > 0) op.blockDim = kernel.blockDim;
    if (kernel.accumulatesAtomically) op.attrs[kAccumulatesAtomicallyAttr] = true;
    return op;
}

}  // namespace ascendsim

// The transformer-sample rows of the op-schema table (op_schema_transformer.h).
#include "sim/workload/schema/op_schema_transformer.h"

#include "sim/workload/schema/shape_rules_transformer.h"

namespace ascendsim {

namespace {
namespace r = shape_rules;

AttrSpec optional(std::string name, AttrType type, AttrValue value) {
    return AttrSpec{std::move(name), type, false, std::move(value), {}};
}
AttrSpec required(std::string name, AttrType type) { return AttrSpec{std::move(name), type, true, std::nullopt, {}}; }

constexpr std::size_t kMaxConcatInputs = 64;  // assumed: far above the samples' 3
constexpr std::size_t kMaxForeachTensors = 1024;  // assumed: torch groups a model's parameters (AlexNet: 16)
}  // namespace

void appendTransformerSchemas(std::vector<OpSchema>& s) {
    const char* vector = "AI_VECTOR_CORE";
    auto add = [&s](std::string type, std::size_t minIn, std::size_t maxIn, std::size_t outs, std::vector<AttrSpec> attrs,
                    const char* task, ShapeRule rule) {
        s.push_back(OpSchema{std::move(type), minIn, maxIn, outs, std::move(attrs), task, std::move(rule)});
    };
    for (const char* type : {"Exp", "Log", "Abs", "Sin", "Cos", "ZerosLike", "OnesLike"})
        add(type, 1, 1, 1, {}, vector, r::unarySame);
    add("MemSet", 1, 1, 1, {}, vector, r::unarySame);  // zeroes its tensor in place
    add("Fill", 1, 1, 1, {optional("value", AttrType::Float, 0.0)}, vector, r::unarySame);  // x: the shape donor
    add("ForeachAddList", 2, 2 * kMaxForeachTensors, 0, {optional("alpha", AttrType::Float, 1.0)}, vector, r::foreachAddList);
    add("ForeachMulScalar", 1, kMaxForeachTensors, 0, {optional("scalar", AttrType::Float, 1.0)}, vector, r::foreachSame);
    add("Muls", 1, 1, 1, {optional("value", AttrType::Float, 1.0)}, vector, r::unarySame);
    add("Pows", 1, 2, 1, {optional("exponent", AttrType::Float, 2.0)}, vector, r::pows);
    for (const char* type : {"Greater", "Less", "GreaterEqual", "Equal", "NotEqual"})
        add(type, 2, 2, 1, {}, vector, r::compare);
    add("SwiGlu", 1, 1, 1, {optional("dim", AttrType::Int, std::int64_t{-1})}, vector, r::swiGlu);
    add("SwiGluGrad", 2, 2, 1, {optional("dim", AttrType::Int, std::int64_t{-1})}, vector, r::swiGluGrad);
    add("RotaryPositionEmbedding", 3, 3, 1, {}, vector, r::rotaryPositionEmbedding);
    add("RotaryPositionEmbeddingGrad", 3, 3, 1, {}, vector, r::rotaryPositionEmbedding);
    add("Slice", 1, 1, 1, {required("offsets", AttrType::Ints), required("size", AttrType::Ints)}, vector, r::slice);
    add("ConcatD", 1, kMaxConcatInputs, 1, {required("concat_dim", AttrType::Int)}, vector, r::concatD);
    add("FlashAttentionScoreGrad", 7, 7, 3,
        {AttrSpec{"scale", AttrType::Float, false, std::nullopt, {}}, optional("causal", AttrType::Bool, false)},
        "MIX_AIC", r::flashAttentionScoreGrad);
    add("RmsNormGrad", 4, 4, 2, {}, "MIX_AIV", r::rmsNormGrad);
    add("ArgMaxWithValue", 1, 1, 2,
        {optional("dimension", AttrType::Int, std::int64_t{-1}), optional("keep_dims", AttrType::Bool, false)}, vector,
        r::argMaxWithValue);
    add("EmbeddingDenseGradV2", 3, 3, 1,
        {required("num_weights", AttrType::Int), optional("padding_idx", AttrType::Int, std::int64_t{-1}),
         optional("scale_grad_by_freq", AttrType::Bool, false)},
        "MIX_AIV", r::embeddingDenseGrad);
    add("Range", 0, 3, 1,
        {optional("start", AttrType::Float, 0.0), required("limit", AttrType::Float), optional("delta", AttrType::Float, 1.0)},
        vector, r::range);
    add("LogicalNot", 1, 1, 1, {}, vector, r::logical);
    for (const char* type : {"LogicalOr", "LogicalAnd"}) add(type, 2, 2, 1, {}, vector, r::logical);
    add("BroadcastTo", 1, 2, 1, {required("shape", AttrType::Ints)}, vector, r::broadcastTo);
    add("LpNormV2", 1, 1, 1, {optional("p", AttrType::Float, 2.0)}, "MIX_AIV", r::lpNorm);
    constexpr std::size_t kMaxIndexedDims = 8;  // torch's tensors have at most 8 dims on Ascend
    add("Index", 2, 1 + kMaxIndexedDims, 1, {}, vector, r::advancedIndex);
    add("NonZero", 1, 1, 1, {}, "MIX_AIV", r::nonZero);
    add("IndexPutV2", 3, 2 + kMaxIndexedDims, 1, {optional("accumulate", AttrType::Bool, false)}, vector, r::indexPut);
}

}  // namespace ascendsim

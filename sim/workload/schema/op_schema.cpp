// The op-schema table: one entry per row of docs/op-catalog.md.
#include "sim/workload/schema/op_schema.h"

#include <algorithm>

#include "sim/workload/schema/op_schema_cnn_training.h"
#include "sim/workload/schema/op_schema_transformer.h"
#include "sim/workload/schema/shape_rules.h"

namespace ascendsim {

namespace {

using I = std::vector<std::int64_t>;
namespace r = shape_rules;

AttrSpec optionalAttr(std::string name, AttrType type, AttrValue value) {
    return AttrSpec{std::move(name), type, false, std::move(value), {}};
}
AttrSpec optionalNoDefault(std::string name, AttrType type) {
    return AttrSpec{std::move(name), type, false, {}, {}};
}
AttrSpec requiredAttr(std::string name, AttrType type, std::vector<std::string> allowed = {}) {
    return AttrSpec{std::move(name), type, true, std::nullopt, std::move(allowed)};
}

std::vector<AttrSpec> convAttrs() {
    return {optionalAttr("strides", AttrType::Ints, I{1, 1}),
            optionalAttr("pads", AttrType::Ints, I{0, 0, 0, 0}),
            optionalAttr("dilations", AttrType::Ints, I{1, 1})};
}
std::vector<AttrSpec> with(std::vector<AttrSpec> base, std::vector<AttrSpec> more) {
    base.insert(base.end(), more.begin(), more.end());
    return base;
}
std::vector<AttrSpec> matmulAttrs() {
    return {optionalAttr("transpose_a", AttrType::Bool, false),
            optionalAttr("transpose_b", AttrType::Bool, false)};
}
std::vector<AttrSpec> poolAttrs() {
    return {requiredAttr("ksize", AttrType::Ints), requiredAttr("strides", AttrType::Ints),
            optionalAttr("pads", AttrType::Ints, I{0, 0, 0, 0})};
}
std::vector<AttrSpec> epsilon(double value) {
    return {optionalAttr("epsilon", AttrType::Float, value)};
}
std::vector<AttrSpec> reduceAttrs() {
    return {requiredAttr("axes", AttrType::Ints), optionalAttr("keep_dims", AttrType::Bool, false)};
}

const char* kCube = "AI_CORE";
const char* kMix = "MIX_AIC";
const char* kVector = "AI_VECTOR_CORE";
const char* kAiCpu = "AI_CPU";
const char* kCommunication = "COMMUNICATION";

std::vector<OpSchema> buildSchemas() {
    std::vector<OpSchema> s;
    auto add = [&s](std::string type, std::size_t minIn, std::size_t maxIn, std::size_t outs,
                    std::vector<AttrSpec> attrs, const char* task, ShapeRule rule) {
        s.push_back(
            OpSchema{std::move(type), minIn, maxIn, outs, std::move(attrs), task, std::move(rule)});
    };
    // Cube ops.
    add("MatMul", 2, 3, 1, matmulAttrs(), kCube, r::matMul);
    add("BatchMatMul", 2, 3, 1, matmulAttrs(), kCube, r::batchMatMul);
    add("Conv2D", 2, 3, 1,
        with(convAttrs(), {optionalAttr("groups", AttrType::Int, std::int64_t{1})}), kCube,
        r::conv2D);
    add("Conv2DBackpropInput", 2, 2, 1,
        with(convAttrs(), {requiredAttr("input_size", AttrType::Ints)}), kCube,
        r::conv2DBackpropInput);
    add("Conv2DBackpropFilter", 2, 2, 1,
        with(convAttrs(), {requiredAttr("filter_size", AttrType::Ints)}), kCube,
        r::conv2DBackpropFilter);
    add("FlashAttentionScore", 3, 3, 1,
        {optionalNoDefault("scale", AttrType::Float),
         optionalAttr("causal", AttrType::Bool, false),
         AttrSpec{"input_layout", AttrType::String, false, std::string("BNSD"), {"BNSD", "BSND", "BSH", "SBH"}},
         optionalNoDefault("head_num", AttrType::Int)},
        kMix, r::flashAttentionScore);
    add("IncreFlashAttention", 3, 3, 1,
        {optionalNoDefault("scale", AttrType::Float), requiredAttr("kv_len", AttrType::Int)}, kMix,
        r::increFlashAttention);
    // Vector ops.
    for (const char* type : {"Add", "Sub", "Mul", "RealDiv"})
        add(type, 2, 2, 1, {}, kVector, r::broadcastBinary);
    for (const char* type : {"Relu", "Gelu", "Swish", "TensorMove"})
        add(type, 1, 1, 1, {}, kVector, r::unarySame);
    add("ReluGrad", 2, 2, 1, {}, kVector, r::reluGrad);
    add("Cast", 1, 1, 1,
        {requiredAttr("dst_type", AttrType::String, {"fp16", "fp32", "bf16", "int32", "int8"})},
        kVector, r::cast);
    add("SoftmaxV2", 1, 1, 1, {optionalAttr("axis", AttrType::Int, std::int64_t{-1})}, kVector,
        r::softmax);
    add("LayerNorm", 3, 3, 1, epsilon(1e-5), kVector, r::layerNorm);
    add("RmsNorm", 2, 2, 1, epsilon(1e-6), kVector, r::rmsNorm);
    add("BNInfer", 5, 5, 1, epsilon(1e-5), kVector, r::bnInfer);
    add("BNTrainingReduce", 1, 1, 2, {}, kVector, r::bnTrainingReduce);
    add("BNTrainingUpdate", 5, 5, 1, epsilon(1e-5), kVector, r::bnTrainingUpdate);
    add("BNTrainingReduceGrad", 7, 7, 1, epsilon(1e-5), kVector, r::bnTrainingReduceGrad);
    add("BNTrainingUpdateGrad", 4, 4, 2, epsilon(1e-5), kVector, r::bnTrainingUpdateGrad);
    add("MaxPoolV3", 1, 1, 1, poolAttrs(), kVector, r::pool);
    add("MaxPoolGrad", 3, 3, 1, poolAttrs(), kVector, r::maxPoolGrad);
    add("AvgPoolV2", 1, 1, 1, poolAttrs(), kVector, r::pool);
    add("AdaptiveAvgPool2d", 1, 1, 1, {optionalAttr("output_size", AttrType::Ints, I{1, 1})},
        kVector, r::adaptiveAvgPool2d);
    for (const char* type : {"ReduceSum", "ReduceMean", "ReduceMax"})
        add(type, 1, 1, 1, reduceAttrs(), kVector, r::reduce);
    add("Transpose", 1, 1, 1, {requiredAttr("perm", AttrType::Ints)}, kVector, r::transpose);
    add("TransData", 1, 1, 1,
        {requiredAttr("dst_format", AttrType::String, {"NC1HWC0", "FRACTAL_NZ", "FRACTAL_Z", "ND", "NCHW"}),
         optionalAttr("c0", AttrType::Int, std::int64_t{0})},
        kVector, r::transData);
    add("GatherV2", 2, 2, 1, {optionalAttr("axis", AttrType::Int, std::int64_t{0})}, kVector,
        r::gatherV2);
    add("ScatterUpdate", 3, 3, 1, {optionalAttr("axis", AttrType::Int, std::int64_t{0})}, kVector,
        r::scatterUpdate);
    add("SoftmaxCrossEntropyWithLogits", 2, 2, 2, {}, kVector, r::softmaxCrossEntropy);
    add("ApplyMomentum", 5, 5, 2, {optionalAttr("use_nesterov", AttrType::Bool, false)}, kVector,
        r::applyMomentum);
    add("ApplyAdamW", 11, 11, 3, {}, kVector, r::applyAdamW);
    add("ApplyAdamWV2", 5, 5, 3,
        {optionalAttr("lr", AttrType::Float, 1e-3), optionalAttr("beta1", AttrType::Float, 0.9),
         optionalAttr("beta2", AttrType::Float, 0.999), optionalAttr("epsilon", AttrType::Float, 1e-8),
         optionalAttr("weight_decay", AttrType::Float, 1e-2)},
        kVector, r::applyAdamWV2);
    add("RotaryMul", 3, 3, 1, {}, kVector, r::rotaryMul);
    // AI CPU ops.
    add("TopK", 1, 2, 2,
        {requiredAttr("k", AttrType::Int), optionalAttr("sorted", AttrType::Bool, true)}, kAiCpu,
        r::topK);
    add("NonMaxSuppression", 2, 2, 1,
        {requiredAttr("max_output_size", AttrType::Int),
         optionalAttr("iou_threshold", AttrType::Float, 0.5)},
        kAiCpu, r::nonMaxSuppression);
    add("Unique", 1, 1, 2, {}, kAiCpu, r::unique);
    add("StatelessDropOutGenMask", 0, 0, 1, {requiredAttr("elements", AttrType::Int)}, kAiCpu, r::dropOutGenMask);
    // Sort and TopK on the vector unit (models/kernels/sort/).
    add("Sort", 1, 1, 2, {}, kVector, r::sortValuesIndices);
    add("TopKV2", 1, 1, 2, {requiredAttr("k", AttrType::Int)}, kVector, r::topK);
    add("TopKD", 2, 2, 2, {requiredAttr("k", AttrType::Int)}, kVector, r::topKD);
    // Collectives (HCCL): the data moves over the chip-to-chip links, not on the AI cores.
    const AttrSpec reduction{"reduction",
                             AttrType::String,
                             false,
                             AttrValue{std::string("sum")},
                             {"sum", "prod", "max", "min"}};
    // The process group of the `parallel:` block the collective spans (world: every rank).
    const AttrSpec group{"group",
                         AttrType::String,
                         false,
                         AttrValue{std::string("world")},
                         {"world", "tp", "dp", "pp", "ep", "mp"}};
    // Group ranks: root (Broadcast, Reduce), peer (Send: the receiver, Receive: the sender),
    // send_to / recv_from (BatchSendRecv).
    const AttrSpec root = optionalAttr("root", AttrType::Int, std::int64_t{0});
    add("HcomAllReduce", 1, 1, 1, {reduction, group}, kCommunication, r::collective);
    add("HcomAllGather", 1, 1, 1, {group}, kCommunication, r::allGather);
    add("HcomReduceScatter", 1, 1, 1, {reduction, group}, kCommunication, r::reduceScatter);
    add("HcomBroadcast", 1, 1, 1, {root, group}, kCommunication, r::collective);
    add("HcomReduce", 1, 1, 1, {reduction, root, group}, kCommunication, r::collective);
    add("HcomAllToAll", 1, 1, 1, {group}, kCommunication, r::allToAll);
    add("HcomAllToAllV", 1, 1, 1,
        {requiredAttr("send_counts", AttrType::Ints), requiredAttr("recv_counts", AttrType::Ints),
         group},
        kCommunication, r::allToAllV);
    // Send's output aliases the sent tensor, Receive's fills its input (dist.recv(tensor)).
    add("HcomSend", 1, 1, 1, {requiredAttr("peer", AttrType::Int), group}, kCommunication,
        r::collective);
    add("HcomReceive", 1, 1, 1, {requiredAttr("peer", AttrType::Int), group}, kCommunication,
        r::collective);
    add("HcomBatchSendRecv", 1, 1, 1,
        {requiredAttr("send_to", AttrType::Ints), requiredAttr("recv_from", AttrType::Ints), group},
        kCommunication, r::batchSendRecv);
    appendTransformerSchemas(s);
    appendCnnTrainingSchemas(s);
    std::sort(s.begin(), s.end(),
              [](const OpSchema& a, const OpSchema& b) { return a.type < b.type; });
    return s;
}

template <typename T>
const T& attrAs(const std::map<std::string, AttrValue>& values, const std::string& key) {
    auto it = values.find(key);
    if (it == values.end()) throw ShapeProblem("attrs." + key, "missing attribute");
    const T* value = std::get_if<T>(&it->second);
    if (!value) throw ShapeProblem("attrs." + key, "attribute has the wrong type");
    return *value;
}

}  // namespace

std::string_view attrTypeName(AttrType t) {
    switch (t) {
        case AttrType::Int:
            return "integer";
        case AttrType::Float:
            return "number";
        case AttrType::Bool:
            return "boolean";
        case AttrType::String:
            return "string";
        case AttrType::Ints:
            return "list of integers";
    }
    return "?";
}

std::int64_t OpAttributes::intValue(const std::string& key) const {
    return attrAs<std::int64_t>(values, key);
}
bool OpAttributes::boolValue(const std::string& key) const {
    return attrAs<bool>(values, key);
}
std::string OpAttributes::stringValue(const std::string& key) const {
    return attrAs<std::string>(values, key);
}
std::vector<std::int64_t> OpAttributes::intsValue(const std::string& key) const {
    return attrAs<std::vector<std::int64_t>>(values, key);
}

const AttrSpec* OpSchema::findAttr(std::string_view name) const {
    for (const auto& a : attrs) {
        if (a.name == name) return &a;
    }
    return nullptr;
}

const std::vector<OpSchema>& allOpSchemas() {
    static const std::vector<OpSchema> schemas = buildSchemas();
    return schemas;
}

const OpSchema* findOpSchema(std::string_view type) {
    for (const auto& s : allOpSchemas()) {
        if (s.type == type) return &s;
    }
    return nullptr;
}

std::string knownOpTypesText() {
    std::string text;
    for (const auto& s : allOpSchemas()) {
        if (!text.empty()) text += ", ";
        text += s.type;
    }
    return text;
}

}  // namespace ascendsim

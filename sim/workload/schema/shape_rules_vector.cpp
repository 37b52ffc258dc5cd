// Shape rules of the element-wise and normalisation vector ops (docs/op-catalog.md).
#include <algorithm>

#include "sim/workload/schema/shape_rules.h"

namespace ascendsim::shape_rules {

namespace {

void requireSameShape(const Inputs& in, std::size_t index, std::size_t reference) {
    requireShape(in, index, in[reference].shape, "'" + in[reference].name + "'");
}

std::int64_t lastDim(const Inputs& in, std::size_t index) {
    if (in[index].shape.empty())
        throw ShapeProblem(inputField(index), "'" + in[index].name + "' is a scalar");
    return in[index].shape.back();
}

}  // namespace

// Float inputs of different dtypes promote as torch does (the fp32 main-grad += bf16 grad Adds
// of the Qwen3 sample): fp32 with anything gives fp32, fp16 with bf16 gives fp32.
static DataType promotedFloat(const Inputs& in) {
    if (in[0].dtype == in[1].dtype) return in[0].dtype;
    if (!isFloat(in[0].dtype) || !isFloat(in[1].dtype)) requireSameDtype(in, 1, 0);
    return DataType::Fp32;
}

Outputs broadcastBinary(const Inputs& in, const OpAttributes&) {
    const DataType dtype = promotedFloat(in);
    const auto& a = in[0].shape;
    const auto& b = in[1].shape;
    std::size_t rank = std::max(a.size(), b.size());
    std::vector<std::int64_t> out(rank);
    for (std::size_t i = 0; i < rank; ++i) {
        std::int64_t da = i + a.size() >= rank ? a[i + a.size() - rank] : 1;
        std::int64_t db = i + b.size() >= rank ? b[i + b.size() - rank] : 1;
        if (da != db && da != 1 && db != 1) {
            throw ShapeProblem(inputField(1), "'" + in[1].name + "' " + shapeText(b) +
                                                  " does not broadcast with '" + in[0].name + "' " +
                                                  shapeText(a));
        }
        out[i] = std::max(da, db);
    }
    TensorFormat format = (b == out && a != out) ? in[1].format : in[0].format;
    return {InferredTensor{out, dtype, format, false}};
}

Outputs unarySame(const Inputs& in, const OpAttributes&) {
    return {sameAs(in[0])};
}

Outputs reluGrad(const Inputs& in, const OpAttributes&) {
    requireSameShape(in, 1, 0);
    requireSameDtype(in, 1, 0);
    return {sameAs(in[1])};
}

Outputs cast(const Inputs& in, const OpAttributes& attrs) {
    DataType target{};
    if (!parseDataType(attrs.stringValue("dst_type"), target)) {
        throw ShapeProblem("attrs.dst_type",
                           "unknown dtype '" + attrs.stringValue("dst_type") + "'");
    }
    return {InferredTensor{in[0].shape, target, in[0].format, false}};
}

Outputs softmax(const Inputs& in, const OpAttributes& attrs) {
    auto rank = static_cast<std::int64_t>(in[0].shape.size());
    std::int64_t axis = attrs.intValue("axis");
    if (axis < -rank || axis >= rank) {
        throw ShapeProblem("attrs.axis", "axis " + std::to_string(axis) + " is out of range for " +
                                             shapeText(in[0].shape));
    }
    return {sameAs(in[0])};
}

Outputs layerNorm(const Inputs& in, const OpAttributes&) {
    std::int64_t d = lastDim(in, 0);
    requireShape(in, 1, {d}, "gamma of the last dim");
    requireShape(in, 2, {d}, "beta of the last dim");
    return {sameAs(in[0])};
}

Outputs rmsNorm(const Inputs& in, const OpAttributes&) {
    requireShape(in, 1, {lastDim(in, 0)}, "gamma of the last dim");
    return {sameAs(in[0])};
}

Outputs rotaryMul(const Inputs& in, const OpAttributes&) {
    requireRank(in, 0, 4, "[B,N,S,D]");
    const auto& x = in[0].shape;
    requireShape(in, 1, {x[2], x[3]}, "cos [S,D]");
    requireShape(in, 2, {x[2], x[3]}, "sin [S,D]");
    return {sameAs(in[0])};
}

Outputs bnInfer(const Inputs& in, const OpAttributes&) {
    auto x = nchwOf(in, 0);
    for (std::size_t i = 1; i < 5; ++i) requireChannelVector(in, i, x[1]);
    return {sameAs(in[0])};
}

Outputs bnTrainingReduce(const Inputs& in, const OpAttributes&) {
    auto x = nchwOf(in, 0);
    InferredTensor stat{{x[1]}, DataType::Fp32, TensorFormat::ND, false};
    return {stat, stat};
}

Outputs bnTrainingUpdate(const Inputs& in, const OpAttributes&) {
    auto x = nchwOf(in, 0);
    for (std::size_t i = 1; i < 5; ++i) requireChannelVector(in, i, x[1]);
    return {sameAs(in[0])};
}

Outputs bnTrainingReduceGrad(const Inputs& in, const OpAttributes&) {
    auto x = nchwOf(in, 1);
    requireShape(in, 0, in[1].shape, "dy ≅ x");
    for (std::size_t i = 2; i < 7; ++i) requireChannelVector(in, i, x[1]);
    return {sameAs(in[1])};
}

Outputs bnTrainingUpdateGrad(const Inputs& in, const OpAttributes&) {
    auto x = nchwOf(in, 1);
    requireShape(in, 0, in[1].shape, "dy ≅ x");
    for (std::size_t i = 2; i < 4; ++i) requireChannelVector(in, i, x[1]);
    InferredTensor diff{{x[1]}, DataType::Fp32, TensorFormat::ND, false};
    return {diff, diff};
}

}  // namespace ascendsim::shape_rules

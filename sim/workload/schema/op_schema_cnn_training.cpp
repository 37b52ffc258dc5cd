// The CNN-training rows of the op-schema table (op_schema_cnn_training.h) with their shape rules.
#include "sim/workload/schema/op_schema_cnn_training.h"

#include <algorithm>

#include "sim/workload/schema/shape_rules.h"

namespace ascendsim {

namespace {

using shape_rules::Inputs;
using shape_rules::Outputs;
using shape_rules::inputField;
using shape_rules::shapeText;
using shape_rules::elementsOf;

AttrSpec optional(std::string name, AttrType type, AttrValue value) {
    return AttrSpec{std::move(name), type, false, std::move(value), {}};
}

void requireFloatInput(const Inputs& in, std::size_t index) {
    if (!isFloat(in[index].dtype))
        throw ShapeProblem(inputField(index), "'" + in[index].name + "' must be a float tensor, got " +
                                                  std::string(dataTypeName(in[index].dtype)));
}

// x1, x2 (numpy broadcasting, one float dtype), optional alpha [1] → y = x1 + alpha·x2.
Outputs axpyV2(const Inputs& in, const OpAttributes& attrs) {
    requireFloatInput(in, 0);
    shape_rules::requireSameDtype(in, 1, 0);
    if (in.size() > 2 && elementsOf(in[2]) != 1)
        throw ShapeProblem(inputField(2), "alpha must hold one element, '" + in[2].name + "' is " + shapeText(in[2].shape));
    return shape_rules::broadcastBinary(Inputs(in.begin(), in.begin() + 2), attrs);
}

// LogSoftmaxV2: x float → y ≅ x; LogSoftmaxGrad: dy, y (the forward output, same shape and dtype)
// → dx ≅ dy. The axis must be in range (the kernel models the last one).
Outputs logSoftmax(const Inputs& in, const OpAttributes& attrs) {
    requireFloatInput(in, 0);
    for (std::size_t i = 1; i < in.size(); ++i) {
        shape_rules::requireSameDtype(in, i, 0);
        if (in[i].shape != in[0].shape)
            throw ShapeProblem(inputField(i), "'" + in[i].name + "' " + shapeText(in[i].shape) + " must have the shape of '" +
                                                  in[0].name + "' " + shapeText(in[0].shape));
    }
    return shape_rules::softmax(Inputs(in.begin(), in.begin() + 1), attrs);
}

AttrSpec required(std::string name, AttrType type) { return AttrSpec{std::move(name), type, true, std::nullopt, {}}; }

constexpr std::int64_t kArgmaxC0 = 16;  // CANN's MaxPoolWithArgmax: NC1HWC0 with C0 = 16 for fp16 and fp32

struct ArgmaxWindow {
    std::int64_t n = 0, c = 0, h = 0, w = 0, kh = 0, kw = 0, outH = 0, outW = 0;
    std::vector<std::int64_t> maskShape() const { return {n, c / kArgmaxC0, kh * kw, (outH * outW + 15) / 16 + 1, 16}; }
};

// x [N,C,H,W] fp16/fp32 with C a multiple of 16; ksize, strides; pads all 0 (the samples' only form).
ArgmaxWindow argmaxWindow(const Inputs& in, const OpAttributes& attrs) {
    shape_rules::requireRank(in, 0, 4, "x [N,C,H,W]");
    if (in[0].dtype != DataType::Fp16 && in[0].dtype != DataType::Fp32)
        throw ShapeProblem(inputField(0), "'" + in[0].name + "' must be fp16 or fp32");
    const auto& x = in[0].shape;
    if (x[1] % kArgmaxC0 != 0)
        throw ShapeProblem(inputField(0), "C of '" + in[0].name + "' " + shapeText(x) + " must be a multiple of 16 (C0)");
    const auto k = shape_rules::requireLength(attrs, "ksize", 2);
    const auto s = shape_rules::requireLength(attrs, "strides", 2);
    for (auto p : shape_rules::requireLength(attrs, "pads", 4))
        if (p != 0) throw ShapeProblem("attrs.pads", "only unpadded windows are modelled");
    if (k[0] < 1 || k[1] < 1 || k[0] > x[2] || k[1] > x[3])
        throw ShapeProblem("attrs.ksize", "the window must be 1 .. H × 1 .. W, got " + shapeText(k));
    if (s[0] < 1 || s[1] < 1) throw ShapeProblem("attrs.strides", "strides must be positive");
    ArgmaxWindow win{x[0], x[1], x[2], x[3], k[0], k[1], 0, 0};
    win.outH = shape_rules::windowOutput(x[2], 0, 0, k[0], s[0], 1);
    win.outW = shape_rules::windowOutput(x[3], 0, 0, k[1], s[1], 1);
    return win;
}

// x → y [N,C,Ho,Wo], argmax [N, C/16, kh·kw, ⌈Ho·Wo/16⌉+1, 16] int16 (CANN's uint16 bit mask).
Outputs maxPoolWithArgmax(const Inputs& in, const OpAttributes& attrs) {
    const ArgmaxWindow w = argmaxWindow(in, attrs);
    return {InferredTensor{{w.n, w.c, w.outH, w.outW}, in[0].dtype, in[0].format, false},
            InferredTensor{w.maskShape(), DataType::Int16, TensorFormat::ND, false}};
}

// x, grad [N,C,Ho,Wo], argmax (the forward's) → dx ≅ x.
Outputs maxPoolGradWithArgmax(const Inputs& in, const OpAttributes& attrs) {
    const ArgmaxWindow w = argmaxWindow(in, attrs);
    shape_rules::requireShape(in, 1, {w.n, w.c, w.outH, w.outW}, "the forward's y");
    shape_rules::requireSameDtype(in, 1, 0);
    shape_rules::requireShape(in, 2, w.maskShape(), "the forward's argmax");
    if (in[2].dtype != DataType::Int16) throw ShapeProblem(inputField(2), "argmax must be int16 (CANN's uint16 mask)");
    return {shape_rules::sameAs(in[0])};
}

// x (float), mask uint8 [≥ ⌈n/8⌉] (one bit per element), optional keep_prob [1] → y ≅ x.
Outputs dropOutDoMask(const Inputs& in, const OpAttributes&) {
    requireFloatInput(in, 0);
    if (in[1].dtype != DataType::Uint8) throw ShapeProblem(inputField(1), "the mask must be uint8 (8 elements' bits per byte)");
    if (elementsOf(in[1]) * 8 < elementsOf(in[0]))
        throw ShapeProblem(inputField(1), "the mask '" + in[1].name + "' " + shapeText(in[1].shape) + " holds fewer bits than '" +
                                              in[0].name + "' has elements");
    if (in.size() > 2 && elementsOf(in[2]) != 1)
        throw ShapeProblem(inputField(2), "keep_prob must hold one element, '" + in[2].name + "' is " + shapeText(in[2].shape));
    return {shape_rules::sameAs(in[0])};
}

// x [N, C] fp32, target [N] int32/int64, weight [C] fp32 (NLLLoss; NLLLossGrad puts dy [1]
// before target and total_weight [1] after weight).
void requireNllOperands(const Inputs& in, std::size_t target, std::size_t weight) {
    shape_rules::requireRank(in, 0, 2, "x [N, C]");
    if (in[0].dtype != DataType::Fp32) throw ShapeProblem(inputField(0), "x must be fp32");
    if (in[target].dtype != DataType::Int32 && in[target].dtype != DataType::Int64)
        throw ShapeProblem(inputField(target), "target must be int32 or int64");
    shape_rules::requireShape(in, target, {in[0].shape[0]}, "one class id per row of x");
    shape_rules::requireShape(in, weight, {in[0].shape[1]}, "one weight per class");
    shape_rules::requireSameDtype(in, weight, 0);
}

void requireOneElement(const Inputs& in, std::size_t index, const char* what) {
    if (elementsOf(in[index]) != 1) throw ShapeProblem(inputField(index), std::string(what) + " must hold one element");
}

Outputs nllLoss(const Inputs& in, const OpAttributes&) {
    requireNllOperands(in, 1, 2);
    const InferredTensor scalar{{1}, DataType::Fp32, TensorFormat::ND, false};
    return {scalar, scalar};
}

Outputs nllLossGrad(const Inputs& in, const OpAttributes&) {
    requireNllOperands(in, 2, 3);
    requireOneElement(in, 1, "dy");
    requireOneElement(in, 4, "total_weight");
    return {shape_rules::sameAs(in[0])};
}

// [.., D, H, W, C] fp32 with the three spatial dims replaced by the attribute `key` (3 values).
Outputs channelsLastWindows(const Inputs& in, const OpAttributes& attrs, const std::string& key) {
    if (in[0].shape.size() < 4 || in[0].dtype != DataType::Fp32)
        throw ShapeProblem(inputField(0), "'" + in[0].name + "' must be fp32 [.., D, H, W, C], got " + shapeText(in[0].shape));
    const auto size = shape_rules::requireLength(attrs, key, 3);
    for (auto d : size)
        if (d < 1) throw ShapeProblem("attrs." + key, "sizes must be positive, got " + shapeText(size));
    auto out = in[0].shape;
    std::copy(size.begin(), size.end(), out.end() - 4);
    return {InferredTensor{out, DataType::Fp32, in[0].format, false}};
}

Outputs adaptiveAvgPool3d(const Inputs& in, const OpAttributes& attrs) { return channelsLastWindows(in, attrs, "output_size"); }
Outputs adaptiveAvgPool3dGrad(const Inputs& in, const OpAttributes& attrs) { return channelsLastWindows(in, attrs, "input_size"); }

std::vector<AttrSpec> argmaxPoolAttrs() {
    return {required("ksize", AttrType::Ints), optional("strides", AttrType::Ints, std::vector<std::int64_t>{1, 1}),
            optional("pads", AttrType::Ints, std::vector<std::int64_t>{0, 0, 0, 0})};
}

}  // namespace

void appendCnnTrainingSchemas(std::vector<OpSchema>& s) {
    const char* vector = "AI_VECTOR_CORE";
    auto add = [&s](std::string type, std::size_t minIn, std::size_t maxIn, std::size_t outs, std::vector<AttrSpec> attrs,
                    const char* task, ShapeRule rule) {
        s.push_back(OpSchema{std::move(type), minIn, maxIn, outs, std::move(attrs), task, std::move(rule)});
    };
    add("AxpyV2", 2, 3, 1, {optional("alpha", AttrType::Float, 1.0)}, vector, axpyV2);
    add("DropOutDoMask", 2, 3, 1, {}, vector, dropOutDoMask);
    const AttrSpec reduction{"reduction", AttrType::String, false, AttrValue{std::string("mean")}, {"mean", "sum"}};
    add("NLLLoss", 3, 3, 2, {reduction}, vector, nllLoss);
    add("NLLLossGrad", 5, 5, 1, {reduction}, vector, nllLossGrad);
    add("LogSoftmaxV2", 1, 1, 1, {optional("axis", AttrType::Int, std::int64_t{-1})}, vector, logSoftmax);
    add("LogSoftmaxGrad", 2, 2, 1, {optional("axis", AttrType::Int, std::int64_t{-1})}, vector, logSoftmax);
    add("AdaptiveAvgPool3d", 1, 1, 1, {required("output_size", AttrType::Ints)}, vector, adaptiveAvgPool3d);
    add("AdaptiveAvgPool3dGrad", 1, 2, 1, {required("input_size", AttrType::Ints)}, "MIX_AIV", adaptiveAvgPool3dGrad);
    add("MaxPoolWithArgmaxV1", 1, 1, 2, argmaxPoolAttrs(), vector, maxPoolWithArgmax);
    add("MaxPoolGradWithArgmaxV1", 3, 3, 1, argmaxPoolAttrs(), vector, maxPoolGradWithArgmax);
}

}  // namespace ascendsim

// Helpers shared by the shape rules.
#include "sim/workload/schema/shape_rules.h"
#include "sim/workload/tensor_text.h"

namespace ascendsim::shape_rules {

std::string shapeText(const std::vector<std::int64_t>& shape) {
    std::string text = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i) text += ",";
        text += std::to_string(shape[i]);
    }
    return text + "]";
}

std::string inputField(std::size_t index) {
    return "inputs[" + std::to_string(index) + "]";
}

void requireRank(const Inputs& in, std::size_t index, std::size_t rank, const std::string& what) {
    if (in[index].shape.size() != rank) {
        throw ShapeProblem(inputField(index), "'" + in[index].name + "' must be " +
                                                  std::to_string(rank) + "-D " + what + ", got " +
                                                  shapeText(in[index].shape));
    }
}

void requireShape(const Inputs& in, std::size_t index, const std::vector<std::int64_t>& shape,
                  const std::string& why) {
    if (in[index].shape != shape) {
        throw ShapeProblem(inputField(index), "'" + in[index].name + "' has shape " +
                                                  shapeText(in[index].shape) + " but " + why +
                                                  " requires " + shapeText(shape));
    }
}

void requireSameDtype(const Inputs& in, std::size_t index, std::size_t reference) {
    if (in[index].dtype != in[reference].dtype) {
        throw ShapeProblem(inputField(index), "'" + in[index].name + "' is " +
                                                  std::string(dataTypeName(in[index].dtype)) +
                                                  " but '" + in[reference].name + "' is " +
                                                  std::string(dataTypeName(in[reference].dtype)));
    }
}

void requireChannelVector(const Inputs& in, std::size_t index, std::int64_t channels) {
    requireShape(in, index, {channels},
                 "a per-channel vector of " + std::to_string(channels) + " channels");
}

std::array<std::int64_t, 4> nchwOf(const Inputs& in, std::size_t index) {
    const TensorInfo& t = in[index];
    if (t.shape.size() != 4) {
        throw ShapeProblem(inputField(index),
                           "'" + t.name + "' must be a 4-D activation, got " + shapeText(t.shape));
    }
    switch (t.format) {
        case TensorFormat::ND:
        case TensorFormat::NCHW:
            return {t.shape[0], t.shape[1], t.shape[2], t.shape[3]};
        case TensorFormat::NHWC:
            return {t.shape[0], t.shape[3], t.shape[1], t.shape[2]};
        default:
            throw ShapeProblem(inputField(index),
                               "'" + t.name + "' must be NCHW or NHWC, got " +
                                   std::string(workloadTensorFormatName(t.format)));
    }
}

std::vector<std::int64_t> shapeInFormat(const std::array<std::int64_t, 4>& nchw,
                                        TensorFormat format) {
    if (format == TensorFormat::NHWC) return {nchw[0], nchw[2], nchw[3], nchw[1]};
    return {nchw[0], nchw[1], nchw[2], nchw[3]};
}

InferredTensor sameAs(const TensorInfo& t) {
    return InferredTensor{t.shape, t.dtype, t.format, false};
}

std::int64_t elementsOf(const TensorInfo& t) {
    std::int64_t n = 1;
    for (const auto d : t.shape) n *= d;
    return n;
}

std::int64_t windowOutput(std::int64_t size, std::int64_t padBefore, std::int64_t padAfter,
                          std::int64_t kernel, std::int64_t stride, std::int64_t dilation) {
    return (size + padBefore + padAfter - dilation * (kernel - 1) - 1) / stride + 1;
}

std::vector<std::int64_t> requireLength(const OpAttributes& attrs, const std::string& key,
                                        std::size_t length) {
    std::vector<std::int64_t> values = attrs.intsValue(key);
    if (values.size() != length) {
        throw ShapeProblem("attrs." + key, "must have " + std::to_string(length) + " values, got " +
                                               shapeText(values));
    }
    return values;
}

}  // namespace ascendsim::shape_rules

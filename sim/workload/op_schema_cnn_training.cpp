// The CNN-training rows of the op-schema table (op_schema_cnn_training.h) with their shape rules.
#include "sim/workload/op_schema_cnn_training.h"

#include "sim/workload/shape_rules.h"

namespace ascendsim {

namespace {

using shape_rules::Inputs;
using shape_rules::Outputs;
using shape_rules::inputField;
using shape_rules::shapeText;

AttrSpec optional(std::string name, AttrType type, AttrValue value) {
    return AttrSpec{std::move(name), type, false, std::move(value), {}};
}

std::int64_t elementsOf(const TensorInfo& t) {
    std::int64_t n = 1;
    for (const auto d : t.shape) n *= d;
    return n;
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

}  // namespace

void appendCnnTrainingSchemas(std::vector<OpSchema>& s) {
    const char* vector = "AI_VECTOR_CORE";
    auto add = [&s](std::string type, std::size_t minIn, std::size_t maxIn, std::size_t outs, std::vector<AttrSpec> attrs,
                    const char* task, ShapeRule rule) {
        s.push_back(OpSchema{std::move(type), minIn, maxIn, outs, std::move(attrs), task, std::move(rule)});
    };
    add("AxpyV2", 2, 3, 1, {optional("alpha", AttrType::Float, 1.0)}, vector, axpyV2);
}

}  // namespace ascendsim

// Builders of the rules for the CNN training samples' ops (replay_op_rules.h): the optimizer's
// list updates and, below, the pooling and dropout kernels of the AlexNet exports.
#include "sim/replay/rules/replay_op_rules.h"

namespace ascendsim {

namespace {

std::string entryName(char prefix, std::size_t index) { return std::string(1, prefix) + std::to_string(index); }

}  // namespace

// ForeachAddList: x_0..x_{n−1}, y_0..y_{n−1}, alpha; ForeachMulScalar: x_0..x_{n−1}, scalar. The
// row records one output per entry (flattened: "23232" for a [64,3,11,11] weight), and the list
// scalar as a last "" input. Its value is not recorded; the kernel reads it from GM and multiplies
// by it whatever it is, so alpha is passed as −1 (assumed: SGD's param += −lr·grad direction; any
// value ≠ 1 costs the same Muls).
void buildForeach(const RealTensors& t, OpInstance& op) {
    const bool addList = op.type == "ForeachAddList";
    const std::size_t n = t.outputs.size(), lists = addList ? 2 : 1;
    if (n == 0 || t.inputs.size() < lists * n)
        throw UnreplayableKernel(op.type + " needs " + std::to_string(lists) + " inputs per output, the row has " +
                                 std::to_string(t.inputs.size()) + " inputs and " + std::to_string(n) + " outputs");
    for (std::size_t i = 0; i < lists * n; ++i) op.inputs.push_back(catalogTensor(t.inputs[i], entryName('x', i)));
    for (std::size_t i = 0; i < n; ++i) op.outputs.push_back(catalogTensor(t.outputs[i], entryName('z', i)));
    op.attrs[addList ? "alpha" : "scalar"] = -1.0;
}

}  // namespace ascendsim

// Builders of the rules for the CNN training samples' ops (replay_op_rules.h): the optimizer's
// list updates and, below, the pooling and dropout kernels of the AlexNet exports.
#include <cmath>

#include "sim/replay/rules/replay_op_rules.h"

namespace ascendsim {

namespace {

std::string entryName(char prefix, std::size_t index) { return std::string(1, prefix) + std::to_string(index); }

// The square window of kh·kw = taps (the mask's dim 2) and the strides that turn x [.., H, W]
// into y [.., Ho, Wo] without padding: ksize, strides and pads are attributes the row omits.
void setArgmaxWindow(const std::vector<std::int64_t>& x, const std::vector<std::int64_t>& y, std::int64_t taps,
                     OpInstance& op) {
    const auto k = static_cast<std::int64_t>(std::lround(std::sqrt(static_cast<double>(taps))));
    if (k * k != taps || x.size() != 4 || y.size() != 4)
        throw UnreplayableKernel("the argmax's " + std::to_string(taps) + " taps are no square window");
    std::vector<std::int64_t> strides;
    for (std::size_t d : {2u, 3u}) {
        std::int64_t stride = 0;
        for (std::int64_t s = 1; s <= k && stride == 0; ++s)
            if (x[d] >= k && (x[d] - k) / s + 1 == y[d]) stride = s;
        if (stride == 0)
            throw UnreplayableKernel("no unpadded " + std::to_string(k) + "×" + std::to_string(k) + " window maps " +
                                     shapeText(x) + " to " + shapeText(y));
        strides.push_back(stride);
    }
    op.attrs["ksize"] = std::vector<std::int64_t>{k, k};
    op.attrs["strides"] = strides;
    op.attrs["pads"] = std::vector<std::int64_t>{0, 0, 0, 0};
}

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

// MaxPoolWithArgmaxV1: x NC1HWC0 (C0 16) → y NC1HWC0, argmax [N, C1, kh·kw, ⌈Ho·Wo/16⌉+1, 16] uint16.
void buildMaxPoolWithArgmax(const RealTensors& t, OpInstance& op) {
    if (t.inputs.empty() || t.outputs.size() < 2 || t.outputs[1].physicalShape.size() != 5)
        throw UnreplayableKernel(op.type + " needs x and the outputs y and a 5-D argmax");
    op.inputs.push_back(catalogTensor(t.inputs[0], "x"));
    op.outputs.push_back(catalogTensor(t.outputs[0], "y"));
    TensorInfo mask = catalogTensor(t.outputs[1], "argmax", t.outputs[1].physicalShape);
    mask.format = TensorFormat::ND;
    op.outputs.push_back(mask);
    setArgmaxWindow(op.inputs[0].shape, op.outputs[0].shape, t.outputs[1].physicalShape[2], op);
}

// MaxPoolGradWithArgmaxV1: x, grad (NC1HWC0) and the forward's argmax → dx. The window comes from
// the argmax's dim 2 (kh·kw) as in the forward. The argmax operand is rebuilt with the forward's
// mask shape: the 910B2 export records it as [N, C, kh·kw, kh·kw, ⌈Ho·Wo/16⌉+1, 16] (e.g. 249 MB
// for the 55×55 layer, read in 100 µs real: more than HBM delivers), so the recorded extent is not
// what the kernel reads.
void buildMaxPoolGradWithArgmax(const RealTensors& t, OpInstance& op) {
    if (t.inputs.size() < 3 || t.outputs.empty() || t.inputs[2].physicalShape.size() < 5)
        throw UnreplayableKernel(op.type + " needs x, grad, a 5-D argmax and dx");
    op.inputs.push_back(catalogTensor(t.inputs[0], "x"));
    op.inputs.push_back(catalogTensor(t.inputs[1], "grad"));
    op.outputs.push_back(catalogTensor(t.outputs[0], "dx"));
    const auto& x = op.inputs[0].shape;
    const auto& y = op.inputs[1].shape;
    setArgmaxWindow(x, y, t.inputs[2].physicalShape[2], op);
    if (x.size() != 4 || x[1] % 16 != 0) throw UnreplayableKernel("x is not NC1HWC0 with C0 = 16");
    const std::int64_t taps = t.inputs[2].physicalShape[2];
    const std::vector<std::int64_t> maskShape{x[0], x[1] / 16, taps, (y[2] * y[3] + 15) / 16 + 1, 16};
    TensorInfo mask = catalogTensor(t.inputs[2], "argmax", maskShape);
    mask.format = TensorFormat::ND;
    op.inputs.push_back(mask);
}

// MemSet: the tensor it zeroes in place is its owner's output (input/memset_owner.h). A row
// whose owner is unknown (the 910A's "atomic_memset-1_271" rows name none) says so.
void buildMemSet(const RealTensors& t, OpInstance& op) {
    if (t.outputs.empty())
        throw UnreplayableKernel("MemSet row records no tensor and names no owner kernel: the bytes it zeroes are unknown");
    TensorInfo zeroed = catalogTensor(t.outputs[0], "x");
    if (bytesOf(zeroed.dtype) == 8) {  // a fill writes bytes: an int64 tensor is twice as many int32
        zeroed.dtype = DataType::Int32;
        zeroed.shape.back() *= 2;
    }
    op.inputs.push_back(zeroed);
    op.outputs.push_back(zeroed);
}

}  // namespace ascendsim

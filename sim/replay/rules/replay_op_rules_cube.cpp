// Builders of the cube and attention rules (replay_op_rules.h): transposes, strides, pads and
// kernel sizes are not in kernel_details, so they are inferred from the recorded shapes.
#include <cmath>
#include <optional>

#include "models/kernels/cube/conv/conv2d_geometry.h"
#include "models/kernels/cube/matmul/matmul_epilogue_operand.h"
#include "models/kernels/cube/matmul/matmul_tbe_kernel.h"
#include "sim/replay/rules/replay_op_rules.h"

namespace ascendsim {

namespace {

constexpr std::int64_t kFractalEdge = 16;

struct Transposes {
    bool a = false, b = false;
};

// a [M,K] or [K,M], b [K,N] or [N,K], y [M,N]: the first combination (no transpose first) whose
// extents agree.
std::optional<Transposes> inferTransposes(const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b,
                                          const std::vector<std::int64_t>& y) {
    const std::size_t ar = a.size(), br = b.size(), yr = y.size();
    for (int ta = 0; ta < 2; ++ta) {
        for (int tb = 0; tb < 2; ++tb) {
            const auto m = ta ? a[ar - 1] : a[ar - 2], k = ta ? a[ar - 2] : a[ar - 1];
            const auto kb = tb ? b[br - 1] : b[br - 2], n = tb ? b[br - 2] : b[br - 1];
            if (m == y[yr - 2] && n == y[yr - 1] && k == kb) return Transposes{ta == 1, tb == 1};
        }
    }
    return std::nullopt;
}

struct Window {
    std::int64_t kernel = 1, stride = 1, padBefore = 0, padAfter = 0;
};

// Smallest stride, then symmetric padding before one more at the end, then the smallest pad, such that
// out = (in + pads − kernel) / stride + 1.
std::optional<Window> inferWindow(std::int64_t in, std::int64_t out, std::int64_t kernel) {
    for (std::int64_t stride = 1; stride <= std::max<std::int64_t>(kernel, 1); ++stride) {
        for (std::int64_t extra = 0; extra <= 1; ++extra) {
            for (std::int64_t pad = 0; pad <= kernel; ++pad) {
                const std::int64_t span = in + 2 * pad + extra - kernel;
                if (span >= 0 && span / stride + 1 == out) return Window{kernel, stride, pad, pad + extra};
            }
        }
    }
    return std::nullopt;
}

const RealTensor* withFormat(const std::vector<RealTensor>& tensors, TensorFormat format, std::size_t skip = 0) {
    for (const auto& t : tensors) {
        if (t.format != format) continue;
        if (skip-- == 0) return &t;
    }
    return nullptr;
}

// FRACTAL_Z weight [C1·kh·kw, Co1, 16, C0] → kh = kw = √(dim0 / C1) (square kernels).
std::int64_t squareKernel(const RealTensor& weight, std::int64_t c1) {
    const auto& s = weight.physicalShape;
    if (s.size() != 4 || c1 <= 0 || s[0] % c1 != 0) throw UnreplayableKernel("FRACTAL_Z shape " + shapeText(s) + " does not divide by C1");
    const auto area = s[0] / c1;
    const auto k = static_cast<std::int64_t>(std::llround(std::sqrt(static_cast<double>(area))));
    if (k * k != area) throw UnreplayableKernel("kernel of " + std::to_string(area) + " taps is not square");
    return k;
}

void setWindowAttrs(OpInstance& op, const std::vector<std::int64_t>& in, const std::vector<std::int64_t>& out,
                    std::int64_t k) {
    const auto h = inferWindow(in[2], out[2], k), w = inferWindow(in[3], out[3], k);
    if (!h || !w) {
        throw UnreplayableKernel("no stride/pad maps " + std::to_string(in[2]) + "x" + std::to_string(in[3]) + " to " +
                                 std::to_string(out[2]) + "x" + std::to_string(out[3]) + " with a " +
                                 std::to_string(k) + "x" + std::to_string(k) + " kernel");
    }
    op.attrs["strides"] = std::vector<std::int64_t>{h->stride, w->stride};
    op.attrs["pads"] = std::vector<std::int64_t>{h->padBefore, h->padAfter, w->padBefore, w->padAfter};
}

// The conv builders hand the catalog logical NCHW shapes of the NC1HWC0 / FRACTAL_Z tensors.
void asLogicalNchw(OpInstance& op) {
    for (auto* tensors : {&op.inputs, &op.outputs})
        for (auto& t : *tensors) t.format = TensorFormat::NCHW;
}

// The conv's output `out` is NC1HWC0 in GM as recorded: its stores are charged the 5HD runs of its
// C0 (kConvOutputC0Attr), so the TransData after it reads the lines the conv wrote.
void outputStoredNc1hwc0(const RealTensor& out, OpInstance& op) {
    if (out.physicalShape.size() == 5) op.attrs[kConvOutputC0Attr] = out.physicalShape[4];
}

const RealTensor& requireFormat(const RealTensor* t, std::string_view what) {
    if (t == nullptr) throw UnreplayableKernel(std::string(what) + " not found among the recorded tensors");
    return *t;
}

}  // namespace

void buildMatMul(const RealTensors& t, OpInstance& op) {
    if (t.inputs.size() < 2 || t.outputs.empty()) throw UnreplayableKernel("MatMul needs a, b and y");
    TensorInfo a = catalogTensor(t.inputs[0], "a"), b = catalogTensor(t.inputs[1], "b");
    TensorInfo y = catalogTensor(t.outputs[0], "y");
    if (a.shape.size() < 2 || b.shape.size() < 2 || y.shape.size() < 2)
        throw UnreplayableKernel("MatMul operands of rank < 2");
    const auto transposes = inferTransposes(a.shape, b.shape, y.shape);
    if (!transposes) throw UnreplayableKernel("no transpose of " + shapeText(a.shape) + " x " + shapeText(b.shape) + " gives " + shapeText(y.shape));
    if (op.type == "MatMul" && (a.shape.size() > 2 || y.shape.size() > 2)) op.type = "BatchMatMul";
    // Shapes are logical now; a FRACTAL_NZ operand keeps its format, which tells the lowering that
    // its GM→L1 loads need no ND2NZ conversion and that its GM bursts are the fractal layout's; so
    // does a FRACTAL_NZ C (the 910A's TBE MatMuls write C so), whose stores are then fractal too.
    for (TensorInfo* tensor : {&a, &b, &y})
        if (tensor->format != TensorFormat::FractalNz) tensor->format = TensorFormat::ND;
    op.inputs = {a, b};
    if (t.inputs.size() > 2 && t.inputs[2].physicalShape.size() == 1) op.inputs.push_back(catalogTensor(t.inputs[2], "bias"));
    // A third input that is not a bias but a matrix of C's dtype, one for C or one per batch, is
    // the operand of an elementwise op TBE fused after the matmul (the kernel's name joins both
    // ops' names, e.g. ...RightBatchMatMulV2...Mul): matmul_epilogue_operand.cpp.
    if (t.inputs.size() > 2 && t.inputs[2].physicalShape.size() > 1) {
        TensorInfo operand = catalogTensor(t.inputs[2], "x3");
        const auto matrix = y.shape[y.shape.size() - 2] * y.shape.back();
        if (operand.dtype == y.dtype && (operand.elementCount() == matrix || operand.elementCount() == y.elementCount())) {
            if (operand.format != TensorFormat::FractalNz) operand.format = TensorFormat::ND;
            op.inputs.push_back(operand);
            op.attrs[kFusedElementwiseInputAttr] = true;
        }
    }
    op.outputs = {y};
    op.attrs["transpose_a"] = transposes->a;
    op.attrs["transpose_b"] = transposes->b;
}

// MatMulV2: the MatMul of TBE's binary kernel (matmul_tbe_kernel.h), whose stores follow the cube.
void buildTbeMatMul(const RealTensors& t, OpInstance& op) {
    buildMatMul(t, op);
    op.attrs[kTbeKernelAttr] = true;
}

// Conv2D: x NC1HWC0, w FRACTAL_Z, optional bias [Co] → y NC1HWC0. Co is the bias length when
// there is one (the output's C1·C0 is padded).
void buildConv2D(const RealTensors& t, OpInstance& op) {
    const RealTensor& x = requireFormat(withFormat(t.inputs, TensorFormat::NC1HWC0), "x (NC1HWC0)");
    const RealTensor& w = requireFormat(withFormat(t.inputs, TensorFormat::FractalZ), "filter (FRACTAL_Z)");
    const RealTensor& y = requireFormat(withFormat(t.outputs, TensorFormat::NC1HWC0), "y (NC1HWC0)");
    const auto xs = logicalShape(x), ys = logicalShape(y);
    const std::int64_t k = squareKernel(w, x.physicalShape[1]);
    op.inputs.push_back(catalogTensor(x, "x", xs));
    op.inputs.push_back(catalogTensor(w, "w", {ys[1], xs[1], k, k}));
    op.outputs.push_back(catalogTensor(y, "y", ys));
    asLogicalNchw(op);
    outputStoredNc1hwc0(y, op);
    setWindowAttrs(op, xs, ys, k);
}

// Conv2DBackpropInput(D): [input_size,] filter FRACTAL_Z, dy NC1HWC0 → dx NC1HWC0.
void buildConv2DBackpropInput(const RealTensors& t, OpInstance& op) {
    const RealTensor& w = requireFormat(withFormat(t.inputs, TensorFormat::FractalZ), "filter (FRACTAL_Z)");
    const RealTensor& dy = requireFormat(withFormat(t.inputs, TensorFormat::NC1HWC0), "dy (NC1HWC0)");
    const RealTensor& dx = requireFormat(withFormat(t.outputs, TensorFormat::NC1HWC0), "dx (NC1HWC0)");
    const auto dys = logicalShape(dy), dxs = logicalShape(dx);
    const std::int64_t k = squareKernel(w, dx.physicalShape[1]);
    op.inputs.push_back(catalogTensor(dy, "dy", dys));
    op.inputs.push_back(catalogTensor(w, "w", {dys[1], dxs[1], k, k}));
    op.outputs.push_back(catalogTensor(dx, "dx", dxs));
    op.attrs["input_size"] = dxs;
    asLogicalNchw(op);
    outputStoredNc1hwc0(dx, op);
    setWindowAttrs(op, dxs, dys, k);
}

// Conv2DBackpropFilter(D): x NC1HWC0, [filter_size,] dy NC1HWC0 → dw FRACTAL_Z.
void buildConv2DBackpropFilter(const RealTensors& t, OpInstance& op) {
    const RealTensor& x = requireFormat(withFormat(t.inputs, TensorFormat::NC1HWC0), "x (NC1HWC0)");
    const RealTensor& dy = requireFormat(withFormat(t.inputs, TensorFormat::NC1HWC0, 1), "dy (NC1HWC0)");
    const RealTensor& dw = requireFormat(withFormat(t.outputs, TensorFormat::FractalZ), "dw (FRACTAL_Z)");
    const auto xs = logicalShape(x), dys = logicalShape(dy);
    const std::int64_t k = squareKernel(dw, x.physicalShape[1]);
    const std::vector<std::int64_t> filter{dys[1], xs[1], k, k};
    op.inputs.push_back(catalogTensor(x, "x", xs));
    op.inputs.push_back(catalogTensor(dy, "dy", dys));
    op.outputs.push_back(catalogTensor(dw, "dw", filter));
    op.attrs["filter_size"] = filter;
    asLogicalNchw(op);
    setWindowAttrs(op, xs, dys, k);
}

struct AttentionLayout {
    std::int64_t batch = 0, heads = 0, seq = 0, headDim = 0, kvHeads = 0, kvSeq = 0;
};

// CANN's SBH/BSH layouts q [S,B,N·D] / [B,S,N·D]: the heads come from a softmax_max / softmax_sum
// tensor [B,N,S,8]; k and v carry their own head count (GQA when fewer).
AttentionLayout attentionLayout(const std::vector<std::int64_t>& q, const std::vector<std::int64_t>& kv,
                                const std::vector<std::int64_t>& softmax) {
    if (q.size() != 3 || kv.size() != 3 || softmax.size() != 4)
        throw UnreplayableKernel("attention layout of q " + shapeText(q) + " is not SBH/BSH with a [B,N,S,8] softmax tensor");
    AttentionLayout l;
    l.batch = softmax[0];
    l.heads = softmax[1];
    l.seq = softmax[2];
    if (l.heads <= 0 || q[2] % l.heads != 0) throw UnreplayableKernel("q hidden size does not divide by the heads");
    l.headDim = q[2] / l.heads;
    l.kvHeads = kv[2] / l.headDim;
    l.kvSeq = kv[0] == l.batch && kv[1] != l.batch ? kv[1] : kv[0];
    return l;
}

bool hasMask(const std::vector<RealTensor>& inputs, std::size_t from) {
    for (std::size_t i = from; i < inputs.size(); ++i)
        if (inputs[i].physicalShape.size() == 2) return true;
    return false;
}

// FlashAttentionScore: q, k, v, [pse, drop mask, padding mask, atten_mask, ...] → softmax_max,
// softmax_sum, softmax_out, attention_out. An atten_mask (CANN's sparse mode) means causal.
void buildFlashAttention(const RealTensors& t, OpInstance& op) {
    if (t.inputs.size() < 3 || t.outputs.empty()) throw UnreplayableKernel("FlashAttentionScore needs q, k, v and outputs");
    if (t.inputs[0].physicalShape.size() == 4) {  // BNSD already
        buildAsRecorded(RealTensors{{t.inputs[0], t.inputs[1], t.inputs[2]}, {t.outputs.back()}}, op);
        return;
    }
    const AttentionLayout l = attentionLayout(t.inputs[0].physicalShape, t.inputs[1].physicalShape, t.outputs[0].physicalShape);
    op.inputs.push_back(catalogTensor(t.inputs[0], "q", {l.batch, l.heads, l.seq, l.headDim}));
    op.inputs.push_back(catalogTensor(t.inputs[1], "k", {l.batch, l.kvHeads, l.kvSeq, l.headDim}));
    op.inputs.push_back(catalogTensor(t.inputs[2], "v", {l.batch, l.kvHeads, l.kvSeq, l.headDim}));
    op.outputs.push_back(catalogTensor(t.inputs[0], "out", {l.batch, l.heads, l.seq, l.headDim}));
    op.attrs["causal"] = hasMask(t.inputs, 3);
}

// FlashAttentionScoreGrad: q, k, v, dy, [pse, drop mask, padding mask,] atten_mask, softmax_max,
// softmax_sum, softmax_in, attention_in, ... → dq, dk, dv. The first [B,N,S,8] input is
// softmax_max, the one after it softmax_sum; attention_in is the next tensor shaped like q.
void buildFlashAttentionGrad(const RealTensors& t, OpInstance& op) {
    if (t.inputs.size() < 4 || t.outputs.size() < 3) throw UnreplayableKernel("FlashAttentionScoreGrad needs q, k, v, dy and dq, dk, dv");
    std::size_t softmax = 0;
    for (std::size_t i = 4; i < t.inputs.size() && softmax == 0; ++i)
        if (t.inputs[i].physicalShape.size() == 4) softmax = i;
    if (softmax == 0 || softmax + 1 >= t.inputs.size()) throw UnreplayableKernel("no softmax_max/softmax_sum input recorded");
    std::size_t attentionIn = 0;
    for (std::size_t i = softmax + 2; i < t.inputs.size() && attentionIn == 0; ++i)
        if (t.inputs[i].physicalShape == t.inputs[0].physicalShape) attentionIn = i;
    if (attentionIn == 0) throw UnreplayableKernel("no attention_in input recorded");
    const AttentionLayout l =
        attentionLayout(t.inputs[0].physicalShape, t.inputs[1].physicalShape, t.inputs[softmax].physicalShape);
    const std::vector<std::int64_t> qShape{l.batch, l.heads, l.seq, l.headDim};
    const std::vector<std::int64_t> kvShape{l.batch, l.kvHeads, l.kvSeq, l.headDim};
    op.inputs.push_back(catalogTensor(t.inputs[0], "q", qShape));
    op.inputs.push_back(catalogTensor(t.inputs[1], "k", kvShape));
    op.inputs.push_back(catalogTensor(t.inputs[2], "v", kvShape));
    op.inputs.push_back(catalogTensor(t.inputs[3], "dy", qShape));
    op.inputs.push_back(catalogTensor(t.inputs[attentionIn], "attention_in", qShape));
    op.inputs.push_back(catalogTensor(t.inputs[softmax], "softmax_max"));
    op.inputs.push_back(catalogTensor(t.inputs[softmax + 1], "softmax_sum"));
    op.outputs.push_back(catalogTensor(t.outputs[0], "dq", qShape));
    op.outputs.push_back(catalogTensor(t.outputs[1], "dk", kvShape));
    op.outputs.push_back(catalogTensor(t.outputs[2], "dv", kvShape));
    op.attrs["causal"] = hasMask(t.inputs, 4);
}

}  // namespace ascendsim

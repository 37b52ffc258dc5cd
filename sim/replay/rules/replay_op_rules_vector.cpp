// Builders of the vector, layout and optimizer rules (replay_op_rules.h). Index tensors that CANN
// passes as inputs (the axes of ReduceSum, the perm of Transpose, GatherV2's axis) hold values
// kernel_details does not record; the builders infer them from the shapes instead.
#include <algorithm>
#include <functional>
#include <numeric>

#include "sim/replay/rules/replay_op_rules.h"

namespace ascendsim {

namespace {

void requireCounts(const RealTensors& t, std::size_t inputs, std::size_t outputs, std::string_view what) {
    if (t.inputs.size() < inputs || t.outputs.size() < outputs) {
        throw UnreplayableKernel(std::string(what) + " needs " + std::to_string(inputs) + " inputs and " +
                                 std::to_string(outputs) + " outputs, the row has " +
                                 std::to_string(t.inputs.size()) + " and " + std::to_string(t.outputs.size()));
    }
}

std::string indexedName(char prefix, std::size_t index) {
    std::string name(1, prefix);
    name += std::to_string(index);
    return name;
}

void addInputs(const RealTensors& t, OpInstance& op, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) op.inputs.push_back(catalogTensor(t.inputs[i], indexedName('x', i)));
}

void addOutputs(const RealTensors& t, OpInstance& op, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) op.outputs.push_back(catalogTensor(t.outputs[i], indexedName('y', i)));
}

// Which input dims survive in `out`: matched left to right; the unmatched ones are reduced.
std::vector<std::int64_t> reducedAxes(const std::vector<std::int64_t>& in, const std::vector<std::int64_t>& out,
                                      bool& keepDims) {
    std::vector<std::int64_t> axes;
    keepDims = out.size() == in.size() && in.size() > 1;
    const auto product = std::accumulate(out.begin(), out.end(), std::int64_t{1}, std::multiplies<>());
    if (product == 1) {  // everything reduced: a scalar, [1] or all-ones with keep_dims
        keepDims = out.size() == in.size();
        for (std::size_t d = 0; d < in.size(); ++d) axes.push_back(static_cast<std::int64_t>(d));
        return axes;
    }
    if (keepDims) {
        for (std::size_t d = 0; d < in.size(); ++d)
            if (out[d] != in[d]) axes.push_back(static_cast<std::int64_t>(d));
        return axes;
    }
    std::size_t o = 0;
    for (std::size_t d = 0; d < in.size(); ++d) {
        if (o < out.size() && out[o] == in[d]) {
            ++o;
        } else {
            axes.push_back(static_cast<std::int64_t>(d));
        }
    }
    if (o != out.size()) throw UnreplayableKernel("output shape is not the input with axes removed");
    return axes;
}

}  // namespace

void buildAsRecorded(const RealTensors& t, OpInstance& op) {
    addInputs(t, op, t.inputs.size());
    addOutputs(t, op, t.outputs.size());
}

void buildUnary(const RealTensors& t, OpInstance& op) {
    requireCounts(t, 1, 1, op.type);
    addInputs(t, op, 1);
    addOutputs(t, op, 1);
}

void buildBinary(const RealTensors& t, OpInstance& op) {
    requireCounts(t, 2, 1, op.type);
    addInputs(t, op, 2);
    addOutputs(t, op, 1);
}

void buildCast(const RealTensors& t, OpInstance& op) {
    buildUnary(t, op);
    op.attrs["dst_type"] = std::string(dataTypeName(op.outputs[0].dtype));
}

void buildNorm(const RealTensors& t, OpInstance& op) {
    const std::size_t params = op.type == "LayerNorm" ? 3 : 2;
    requireCounts(t, params, 1, op.type);
    addInputs(t, op, params);
    addOutputs(t, op, std::min<std::size_t>(t.outputs.size(), op.type == "RmsNorm" ? 2 : 1));
}

void buildReduce(const RealTensors& t, OpInstance& op) {
    requireCounts(t, 1, 1, op.type);
    addInputs(t, op, 1);
    addOutputs(t, op, 1);
    bool keepDims = false;
    std::vector<std::int64_t> in = op.inputs[0].shape, out = t.outputs[0].physicalShape;
    auto axes = reducedAxes(in, out, keepDims);
    if (axes.empty()) throw UnreplayableKernel("no reduced axis (output shape equals the input's)");
    op.attrs["axes"] = axes;
    op.attrs["keep_dims"] = keepDims;
}

void buildTranspose(const RealTensors& t, OpInstance& op) {
    requireCounts(t, 1, 1, op.type);
    addInputs(t, op, 1);
    addOutputs(t, op, 1);
    const auto& in = op.inputs[0].shape;
    const auto& out = op.outputs[0].shape;
    if (in.size() != out.size()) throw UnreplayableKernel("transpose changes the rank");
    // The first permutation in lexicographic order that maps the shapes: ambiguous only where
    // dims are equal, and then the identity-like choice is the one that moves the least.
    std::vector<std::int64_t> perm(in.size());
    std::iota(perm.begin(), perm.end(), 0);
    do {
        bool fits = true;
        for (std::size_t i = 0; i < perm.size() && fits; ++i) fits = out[i] == in[static_cast<std::size_t>(perm[i])];
        if (fits) {
            op.attrs["perm"] = perm;
            return;
        }
    } while (std::next_permutation(perm.begin(), perm.end()));
    throw UnreplayableKernel("output shape is no permutation of the input's");
}

void buildTransData(const RealTensors& t, OpInstance& op) {
    buildUnary(t, op);
    op.attrs["dst_format"] = std::string(tensorFormatName(op.outputs[0].format));
    // The NC1HWC0 side's C0 as recorded: the MaxPool kernels' fp32 NC1HWC0:1 holds 16 channels a
    // cell where a plain fp32 NC1HWC0 holds 8 (32 B).
    for (const auto* side : {&t.inputs, &t.outputs})
        if (!side->empty() && side->front().format == TensorFormat::NC1HWC0 && side->front().physicalShape.size() == 5)
            op.attrs["c0"] = side->front().physicalShape.back();
}

void buildGather(const RealTensors& t, OpInstance& op) {
    requireCounts(t, 2, 1, op.type);
    addInputs(t, op, 2);
    addOutputs(t, op, 1);
    op.attrs["axis"] = std::int64_t{0};  // the axis tensor's value is not recorded; embeddings use 0
}

// ApplyAdamWV2 (aclnnApplyAdamWV2): var, m, v, grad and the [1] step, as the kernel takes them; lr,
// betas, epsilon and weight decay are attributes it reads from its tiling data (their values are
// not recorded and do not change the work: the catalog's defaults stand in).
void buildApplyAdamWV2(const RealTensors& t, OpInstance& op) {
    requireCounts(t, 4, 0, op.type);
    for (const char* name : {"var", "m", "v", "grad"})
        op.inputs.push_back(catalogTensor(t.inputs[op.inputs.size()], name));
    // The step as recorded (INT64 [1]); a row without it gets the kernel's usual one.
    if (t.inputs.size() > 4) {
        op.inputs.push_back(catalogTensor(t.inputs[4], "step", {1}));
    } else {
        op.inputs.push_back(TensorInfo{"step", {1}, DataType::Int64, TensorFormat::ND});
    }
    for (const char* out : {"var_out", "m_out", "v_out"}) op.outputs.push_back(catalogTensor(t.inputs[0], out));
}

void buildRotary(const RealTensors& t, OpInstance& op) {
    requireCounts(t, 3, 1, op.type);
    addInputs(t, op, 3);
    addOutputs(t, op, 1);
}

// Slice's offsets and size are index tensors whose values are not recorded: the size is the
// output's shape, the offsets are taken as 0 (the same bytes move from any offset).
void buildSlice(const RealTensors& t, OpInstance& op) {
    buildUnary(t, op);
    if (op.inputs[0].shape.size() != op.outputs[0].shape.size()) throw UnreplayableKernel("slice changes the rank");
    op.attrs["offsets"] = std::vector<std::int64_t>(op.inputs[0].shape.size(), 0);
    op.attrs["size"] = op.outputs[0].shape;
}

void buildConcat(const RealTensors& t, OpInstance& op) {
    requireCounts(t, 1, 1, op.type);
    addInputs(t, op, t.inputs.size());
    addOutputs(t, op, 1);
    const auto& in = op.inputs[0].shape;
    const auto& out = op.outputs[0].shape;
    for (std::size_t d = 0; d < in.size() && d < out.size(); ++d) {
        if (in[d] != out[d]) {
            op.attrs["concat_dim"] = static_cast<std::int64_t>(d);
            return;
        }
    }
    op.attrs["concat_dim"] = std::int64_t{0};  // one part: any dim
}

void buildArgMaxWithValue(const RealTensors& t, OpInstance& op) {
    requireCounts(t, 1, 2, op.type);
    addInputs(t, op, 1);
    addOutputs(t, op, 2);
    bool keepDims = false;
    const auto axes = reducedAxes(op.inputs[0].shape, t.outputs[0].physicalShape, keepDims);
    if (axes.size() != 1) throw UnreplayableKernel("ArgMaxWithValue reduces one axis; the shapes give " +
                                                   std::to_string(axes.size()));
    op.attrs["dimension"] = axes.front();
    op.attrs["keep_dims"] = keepDims;
}

void buildEmbeddingDenseGrad(const RealTensors& t, OpInstance& op) {
    requireCounts(t, 3, 1, op.type);
    buildAsRecorded(t, op);
    if (op.outputs[0].shape.empty()) throw UnreplayableKernel("EmbeddingDenseGradV2 output has no rows");
    op.attrs["num_weights"] = op.outputs[0].shape.front();
}

void buildRange(const RealTensors& t, OpInstance& op) {
    // CANN passes start, limit and delta as host scalars (empty shapes, often DOUBLE), whose values
    // kernel_details does not record: the output's length is what the kernel's work depends on.
    requireCounts(t, 0, 1, op.type);
    addOutputs(t, op, 1);
    op.attrs["limit"] = static_cast<double>(op.outputs[0].elementCount());
}

void buildBroadcastTo(const RealTensors& t, OpInstance& op) {
    requireCounts(t, 1, 1, op.type);
    addInputs(t, op, 1);
    addOutputs(t, op, 1);
    op.attrs["shape"] = op.outputs[0].shape;
}

// Sort: x → values, indices. TopKV2: x, k (a host scalar, dropped: k is the outputs' last dim) →
// values, indices. TopKD: x, assist (the fp16 index halves its proposals read) → values, indices.
void buildSortOrTopK(const RealTensors& t, OpInstance& op) {
    requireCounts(t, 1, 2, op.type);
    const std::size_t inputs = op.type == "TopKD" ? 2 : 1;
    requireCounts(t, inputs, 2, op.type);
    addInputs(t, op, inputs);
    addOutputs(t, op, 2);
}

// Fill (aclnnInplaceFillScalar): the dims tensor and the value scalar are inputs whose values are
// not recorded; the output's bytes are what the kernel writes, whatever the value. The AI CPU
// mask generator: its row has only the mask the consumer reads (input/dropout_mask_owner.h).
void buildOutputOnly(const RealTensors& t, OpInstance& op) {
    requireCounts(t, 0, 1, op.type);
    addOutputs(t, op, 1);
}

// Index: x, indexed_sizes, indexed_strides, indices... → y. IndexPutV2: self, values, indexed_sizes,
// indexed_strides, indices... → self. The sizes and strides are small host-built tensors (which
// dims are indexed) that the kernel reads once; the catalog op takes the index tensors only.
void buildAdvancedIndex(const RealTensors& t, OpInstance& op) {
    const std::size_t leading = op.type == "IndexPutV2" ? 2 : 1;
    requireCounts(t, leading + 3, 1, op.type);
    addInputs(t, op, leading);
    for (std::size_t i = leading + 2; i < t.inputs.size(); ++i)
        op.inputs.push_back(catalogTensor(t.inputs[i], indexedName('i', i - leading - 2)));
    addOutputs(t, op, 1);
}

}  // namespace ascendsim

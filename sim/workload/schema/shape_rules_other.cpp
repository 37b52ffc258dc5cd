// Shape rules of pooling, layout, reduction, embedding, loss, optimizer and AI CPU ops.
#include <algorithm>

#include "sim/workload/schema/shape_rules.h"
#include "sim/workload/tensor_text.h"

namespace ascendsim::shape_rules {

namespace {

std::vector<std::int64_t> poolOutput(const Inputs& in, const OpAttributes& attrs) {
    auto x = nchwOf(in, 0);
    auto k = requireLength(attrs, "ksize", 2);
    auto s = requireLength(attrs, "strides", 2);
    auto p = requireLength(attrs, "pads", 4);
    if (k[0] <= 0 || k[1] <= 0) throw ShapeProblem("attrs.ksize", "ksize must be positive");
    if (s[0] <= 0 || s[1] <= 0) throw ShapeProblem("attrs.strides", "strides must be positive");
    std::int64_t ho = windowOutput(x[2], p[0], p[1], k[0], s[0], 1);
    std::int64_t wo = windowOutput(x[3], p[2], p[3], k[1], s[1], 1);
    if (ho <= 0 || wo <= 0) throw ShapeProblem("attrs.ksize", "the window does not fit the input");
    return shapeInFormat({x[0], x[1], ho, wo}, in[0].format);
}

std::size_t normaliseAxis(std::int64_t axis, std::size_t rank, const std::string& field) {
    auto r = static_cast<std::int64_t>(rank);
    if (axis < -r || axis >= r)
        throw ShapeProblem(field, "axis " + std::to_string(axis) + " is out of range");
    return static_cast<std::size_t>(axis < 0 ? axis + r : axis);
}

void requireScalarVector(const Inputs& in, std::size_t index) {
    requireShape(in, index, {1}, "a scalar [1]");
}

bool isIndexType(DataType t) {
    return t == DataType::Int32 || t == DataType::Int64;
}

// Channel block size of the 5-D/fractal formats: 16 elements per row, 32 for int8.
std::int64_t blockElements(DataType t) {
    return t == DataType::Int8 ? 32 : 16;
}

// The rows an index tensor selects along `axis` of `indexed` (GatherV2's output, ScatterUpdate's
// updates): indexed[:axis] + indices + indexed[axis+1:]. Checks the index dtype.
std::vector<std::int64_t> indexedRowsShape(const Inputs& in, const OpAttributes& attrs) {
    const auto& indexed = in[0].shape;
    if (indexed.empty())
        throw ShapeProblem(inputField(0), "'" + in[0].name + "' needs at least one dim");
    if (!isIndexType(in[1].dtype)) {
        throw ShapeProblem(inputField(1), "indices '" + in[1].name +
                                              "' must be int32 or int64, got " +
                                              std::string(dataTypeName(in[1].dtype)));
    }
    const auto axis = static_cast<std::ptrdiff_t>(
        normaliseAxis(attrs.intValue("axis"), indexed.size(), "attrs.axis"));
    std::vector<std::int64_t> rows(indexed.begin(), indexed.begin() + axis);
    rows.insert(rows.end(), in[1].shape.begin(), in[1].shape.end());
    rows.insert(rows.end(), indexed.begin() + axis + 1, indexed.end());
    return rows;
}

}  // namespace

Outputs pool(const Inputs& in, const OpAttributes& attrs) {
    return {InferredTensor{poolOutput(in, attrs), in[0].dtype, in[0].format, false}};
}

Outputs maxPoolGrad(const Inputs& in, const OpAttributes& attrs) {
    requireShape(in, 1, poolOutput(in, attrs), "the pooled output of x");
    requireShape(in, 2, in[1].shape, "dy ≅ y");
    return {sameAs(in[0])};
}

Outputs adaptiveAvgPool2d(const Inputs& in, const OpAttributes& attrs) {
    auto x = nchwOf(in, 0);
    auto size = requireLength(attrs, "output_size", 2);
    if (size[0] <= 0 || size[1] <= 0)  // larger than the input is allowed (windows then overlap)
        throw ShapeProblem("attrs.output_size", shapeText(size) + " must be positive");
    return {InferredTensor{shapeInFormat({x[0], x[1], size[0], size[1]}, in[0].format), in[0].dtype,
                           in[0].format, false}};
}

Outputs reduce(const Inputs& in, const OpAttributes& attrs) {
    const auto& x = in[0].shape;
    std::vector<bool> reduced(x.size(), false);
    for (auto axis : attrs.intsValue("axes"))
        reduced[normaliseAxis(axis, x.size(), "attrs.axes")] = true;
    bool keep = attrs.boolValue("keep_dims");
    std::vector<std::int64_t> out;
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (!reduced[i])
            out.push_back(x[i]);
        else if (keep)
            out.push_back(1);
    }
    return {InferredTensor{out, in[0].dtype, TensorFormat::ND, false}};
}

Outputs transpose(const Inputs& in, const OpAttributes& attrs) {
    const auto& x = in[0].shape;
    auto perm = attrs.intsValue("perm");
    std::vector<bool> seen(x.size(), false);
    if (perm.size() != x.size()) {
        throw ShapeProblem("attrs.perm", "perm " + shapeText(perm) + " must have " +
                                             std::to_string(x.size()) + " entries for " +
                                             shapeText(x));
    }
    std::vector<std::int64_t> out;
    for (auto p : perm) {
        if (p < 0 || p >= static_cast<std::int64_t>(x.size()) ||
            seen[static_cast<std::size_t>(p)]) {
            throw ShapeProblem("attrs.perm", shapeText(perm) + " is not a permutation");
        }
        seen[static_cast<std::size_t>(p)] = true;
        out.push_back(x[static_cast<std::size_t>(p)]);
    }
    return {InferredTensor{out, in[0].dtype, in[0].format, false}};
}

Outputs transData(const Inputs& in, const OpAttributes& attrs) {
    TensorFormat target{};
    std::string name = attrs.stringValue("dst_format");
    if (!parseWorkloadTensorFormat(name, target))
        throw ShapeProblem("attrs.dst_format", "unknown format '" + name + "'");
    const auto& x = in[0].shape;
    std::int64_t block = blockElements(in[0].dtype);
    std::vector<std::int64_t> out = x;
    bool exact = true;
    // C0 of NC1HWC0 is one 32 B block (16 fp16, 8 fp32: the AlexNet sample's fp32 TransData writes
    // [32,1,224,224,8] from [32,3,224,224]); C is padded to C1·C0.
    const std::int64_t c0 = 32 / static_cast<std::int64_t>(bytesOf(in[0].dtype));
    if (target == TensorFormat::NC1HWC0 && x.size() == 4) {
        out = {x[0], (x[1] + c0 - 1) / c0, x[2], x[3], c0};
    } else if (target == TensorFormat::FractalNz && x.size() >= 2 && x[x.size() - 1] % block == 0 &&
               x[x.size() - 2] % 16 == 0) {
        out.assign(x.begin(), x.end() - 2);
        for (auto d : {x[x.size() - 1] / block, x[x.size() - 2] / 16, std::int64_t{16}, block})
            out.push_back(d);
    } else if ((target == TensorFormat::NCHW || target == TensorFormat::ND) && x.size() == 5 &&
               in[0].format == TensorFormat::NC1HWC0) {
        out = {x[0], x[1] * x[4], x[2], x[3]};
    } else {
        exact = false;  // the declared output picks the shape; only the element count is checked
    }
    return {InferredTensor{out, in[0].dtype, target, !exact}};
}

Outputs gatherV2(const Inputs& in, const OpAttributes& attrs) {
    return {InferredTensor{indexedRowsShape(in, attrs), in[0].dtype, TensorFormat::ND, false}};
}

Outputs scatterUpdate(const Inputs& in, const OpAttributes& attrs) {
    requireShape(in, 2, indexedRowsShape(in, attrs), "the indexed rows of var");
    if (in[2].dtype != in[0].dtype)
        throw ShapeProblem(inputField(2), "updates must have var's dtype");
    return {sameAs(in[0])};
}

Outputs softmaxCrossEntropy(const Inputs& in, const OpAttributes&) {
    requireRank(in, 0, 2, "logits [N,C]");
    requireShape(in, 1, in[0].shape, "labels ≅ logits");
    requireSameDtype(in, 1, 0);
    return {InferredTensor{{in[0].shape[0]}, in[0].dtype, TensorFormat::ND, false}, sameAs(in[0])};
}

Outputs applyMomentum(const Inputs& in, const OpAttributes&) {
    requireShape(in, 1, in[0].shape, "accum ≅ var");
    requireScalarVector(in, 2);
    requireShape(in, 3, in[0].shape, "grad ≅ var");
    requireScalarVector(in, 4);
    return {sameAs(in[0]), sameAs(in[1])};
}

// A collective that works in place (HcomAllReduce, HcomBroadcast): the result has the input's
// shape and dtype.
Outputs collective(const Inputs& in, const OpAttributes&) {
    return {sameAs(in[0])};
}

// HcomAllGather: every rank's input, concatenated along dim 0 in rank order.
Outputs allGather(const Inputs& in, const OpAttributes& attrs) {
    if (in[0].shape.empty()) throw ShapeProblem(inputField(0), "x must have at least one dim");
    InferredTensor out = sameAs(in[0]);
    out.shape[0] *= attrs.ranks;
    return {out};
}

// HcomReduceScatter: the sum over ranks, of which each rank keeps its 1/ranks of dim 0.
Outputs reduceScatter(const Inputs& in, const OpAttributes& attrs) {
    if (in[0].shape.empty()) throw ShapeProblem(inputField(0), "x must have at least one dim");
    if (in[0].shape[0] % attrs.ranks != 0)
        throw ShapeProblem(inputField(0), "dim 0 (" + std::to_string(in[0].shape[0]) +
                                              ") must divide by ranks (" +
                                              std::to_string(attrs.ranks) + ")");
    InferredTensor out = sameAs(in[0]);
    out.shape[0] /= attrs.ranks;
    return {out};
}

// HcomAllToAll: one equal block of dim 0 to each rank; the output has the input's shape.
Outputs allToAll(const Inputs& in, const OpAttributes& attrs) {
    if (in[0].shape.empty()) throw ShapeProblem(inputField(0), "x must have at least one dim");
    if (in[0].shape[0] % attrs.ranks != 0)
        throw ShapeProblem(inputField(0), "dim 0 (" + std::to_string(in[0].shape[0]) +
                                              ") must divide by ranks (" +
                                              std::to_string(attrs.ranks) + ")");
    return {sameAs(in[0])};
}

namespace {

std::int64_t sumOfCounts(const OpAttributes& attrs, const std::string& key) {
    const std::vector<std::int64_t> counts = attrs.intsValue(key);
    if (counts.size() != attrs.ranks)
        throw ShapeProblem("attrs." + key, "needs one count per rank (" +
                                               std::to_string(attrs.ranks) + ")");
    std::int64_t sum = 0;
    for (const std::int64_t c : counts) {
        if (c < 0) throw ShapeProblem("attrs." + key, "counts must not be negative");
        sum += c;
    }
    return sum;
}

}  // namespace

// HcomAllToAllV: send_counts[j] rows of dim 0 go to rank j; recv_counts[j] rows come from it.
Outputs allToAllV(const Inputs& in, const OpAttributes& attrs) {
    if (in[0].shape.empty()) throw ShapeProblem(inputField(0), "x must have at least one dim");
    if (sumOfCounts(attrs, "send_counts") != in[0].shape[0])
        throw ShapeProblem("attrs.send_counts", "must add up to dim 0 of x (" +
                                                    std::to_string(in[0].shape[0]) + ")");
    InferredTensor out = sameAs(in[0]);
    out.shape[0] = sumOfCounts(attrs, "recv_counts");
    return {out};
}

// HcomBatchSendRecv: x splits evenly along dim 0 over send_to; one block of that size comes
// from each of recv_from. A batch of receives only (Megatron's recv_forward with batch_p2p_comm)
// fills x, one x from each of recv_from; a batch of sends only outputs the sent x (as HcomSend).
Outputs batchSendRecv(const Inputs& in, const OpAttributes& attrs) {
    if (in[0].shape.empty()) throw ShapeProblem(inputField(0), "x must have at least one dim");
    const auto to = attrs.intsValue("send_to").size();
    const auto from = attrs.intsValue("recv_from").size();
    if (to == 0 && from == 0)
        throw ShapeProblem("attrs.send_to", "a batch sends to or receives from a peer at least");
    if (to > 0 && in[0].shape[0] % static_cast<std::int64_t>(to) != 0)
        throw ShapeProblem(inputField(0), "dim 0 must divide by the send_to count");
    InferredTensor out = sameAs(in[0]);
    if (from == 0) return {out};
    out.shape[0] = in[0].shape[0] / static_cast<std::int64_t>(std::max<std::size_t>(to, 1)) * static_cast<std::int64_t>(from);
    return {out};
}

Outputs applyAdamW(const Inputs& in, const OpAttributes&) {
    requireShape(in, 1, in[0].shape, "m ≅ var");
    requireShape(in, 2, in[0].shape, "v ≅ var");
    for (std::size_t i = 3; i < 10; ++i) requireScalarVector(in, i);
    requireShape(in, 10, in[0].shape, "grad ≅ var");
    return {sameAs(in[0]), sameAs(in[1]), sameAs(in[2])};
}

// var, m, v, grad, step [1] (CANN's ApplyAdamWV2: the hyper-parameters are attributes).
Outputs applyAdamWV2(const Inputs& in, const OpAttributes&) {
    requireShape(in, 1, in[0].shape, "m ≅ var");
    requireShape(in, 2, in[0].shape, "v ≅ var");
    requireShape(in, 3, in[0].shape, "grad ≅ var");
    requireScalarVector(in, 4);
    return {sameAs(in[0]), sameAs(in[1]), sameAs(in[2])};
}

namespace {
// values [.., k] in x's dtype and int32 indices [.., k], k from the attributes.
Outputs topKOf(const Inputs& in, const OpAttributes& attrs) {
    if (in[0].shape.empty()) throw ShapeProblem(inputField(0), "x must have at least one dim");
    std::int64_t k = attrs.intValue("k");
    if (k <= 0 || k > in[0].shape.back()) {
        throw ShapeProblem("attrs.k", "k " + std::to_string(k) + " must be in 1.." +
                                          std::to_string(in[0].shape.back()));
    }
    std::vector<std::int64_t> out = in[0].shape;
    out.back() = k;
    return {InferredTensor{out, in[0].dtype, TensorFormat::ND, false},
            InferredTensor{out, DataType::Int32, TensorFormat::ND, false}};
}
}  // namespace

Outputs topK(const Inputs& in, const OpAttributes& attrs) {
    if (in.size() > 1) requireScalarVector(in, 1);
    return topKOf(in, attrs);
}

Outputs topKD(const Inputs& in, const OpAttributes& attrs) {
    requireRank(in, 1, 1, "assist [N] (the fp16 index halves)");
    return topKOf(in, attrs);
}

Outputs sortValuesIndices(const Inputs& in, const OpAttributes&) {
    if (in[0].shape.empty()) throw ShapeProblem(inputField(0), "x must have at least one dim");
    return {sameAs(in[0]), InferredTensor{in[0].shape, DataType::Int32, TensorFormat::ND, false}};
}

// One bit per element, in whole 128-bit groups: ⌈elements / 128⌉ · 16 uint8 (CANN's mask size).
Outputs dropOutGenMask(const Inputs&, const OpAttributes& attrs) {
    const std::int64_t elements = attrs.intValue("elements");
    if (elements <= 0) throw ShapeProblem("attrs.elements", "elements must be positive");
    return {InferredTensor{{(elements + 127) / 128 * 16}, DataType::Uint8, TensorFormat::ND, false}};
}

Outputs nonMaxSuppression(const Inputs& in, const OpAttributes& attrs) {
    requireRank(in, 0, 2, "boxes [N,4]");
    if (in[0].shape[1] != 4) throw ShapeProblem(inputField(0), "boxes must be [N,4]");
    requireShape(in, 1, {in[0].shape[0]}, "one score per box");
    std::int64_t maxOut = attrs.intValue("max_output_size");
    if (maxOut <= 0) throw ShapeProblem("attrs.max_output_size", "must be positive");
    return {InferredTensor{{maxOut}, DataType::Int32, TensorFormat::ND, false}};
}

Outputs unique(const Inputs& in, const OpAttributes&) {
    requireRank(in, 0, 1, "[N]");
    return {sameAs(in[0]), InferredTensor{in[0].shape, DataType::Int32, TensorFormat::ND, false}};
}

}  // namespace ascendsim::shape_rules

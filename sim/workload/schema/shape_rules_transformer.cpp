// Shape rules of the transformer-sample ops (shape_rules_transformer.h).
#include "sim/workload/schema/shape_rules_transformer.h"

#include <cmath>
#include <numeric>

namespace ascendsim::shape_rules {

namespace {

void requireFloat(const Inputs& in, std::size_t index) {
    if (!isFloat(in[index].dtype))
        throw ShapeProblem(inputField(index), "'" + in[index].name + "' must be a float tensor, got " +
                                                  std::string(dataTypeName(in[index].dtype)));
}

void requireEvenLastDim(const Inputs& in, std::size_t index) {
    if (in[index].shape.empty() || in[index].shape.back() % 2 != 0)
        throw ShapeProblem(inputField(index), "'" + in[index].name + "' needs an even last dim (two halves), got " +
                                                  shapeText(in[index].shape));
}

std::vector<std::int64_t> halvedLast(std::vector<std::int64_t> shape) {
    shape.back() /= 2;
    return shape;
}

}  // namespace

Outputs compare(const Inputs& in, const OpAttributes& attrs) {
    auto out = broadcastBinary(in, attrs);
    out[0].dtype = DataType::Bool;
    return out;
}

Outputs pows(const Inputs& in, const OpAttributes&) {
    requireFloat(in, 0);
    return {sameAs(in[0])};
}

Outputs swiGlu(const Inputs& in, const OpAttributes& attrs) {
    requireFloat(in, 0);
    requireEvenLastDim(in, 0);
    const std::int64_t dim = attrs.intValue("dim");
    if (dim != -1 && dim != static_cast<std::int64_t>(in[0].shape.size()) - 1)
        throw ShapeProblem("attrs.dim", "only the last dim (-1) is modelled, got " + std::to_string(dim));
    return {InferredTensor{halvedLast(in[0].shape), in[0].dtype, in[0].format, false}};
}

Outputs swiGluGrad(const Inputs& in, const OpAttributes& attrs) {
    requireFloat(in, 1);
    requireEvenLastDim(in, 1);
    (void)attrs;
    requireShape(in, 0, halvedLast(in[1].shape), "dy = x with its last dim halved");
    requireSameDtype(in, 0, 1);
    return {sameAs(in[1])};
}

Outputs rotaryPositionEmbedding(const Inputs& in, const OpAttributes&) {
    requireFloat(in, 0);
    requireEvenLastDim(in, 0);
    const auto& x = in[0].shape;
    for (std::size_t t = 1; t < 3; ++t) {
        const auto& table = in[t].shape;
        bool fits = !table.empty() && table.size() <= x.size() && table.back() == x.back();
        for (std::size_t i = 0; fits && i < table.size(); ++i) {
            const std::int64_t size = x[x.size() - table.size() + i];
            fits = table[i] == size || table[i] == 1;
        }
        if (!fits)
            throw ShapeProblem(inputField(t), "'" + in[t].name + "' " + shapeText(table) + " must broadcast to x " +
                                                  shapeText(x) + " with the same last dim");
        requireSameDtype(in, t, 0);
    }
    return {sameAs(in[0])};
}

Outputs slice(const Inputs& in, const OpAttributes& attrs) {
    const auto& x = in[0].shape;
    const auto offsets = attrs.intsValue("offsets");
    auto size = attrs.intsValue("size");
    if (offsets.size() != x.size()) throw ShapeProblem("attrs.offsets", "needs one offset per dim of x " + shapeText(x));
    if (size.size() != x.size()) throw ShapeProblem("attrs.size", "needs one size per dim of x " + shapeText(x));
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (size[i] == -1) size[i] = x[i] - offsets[i];
        if (offsets[i] < 0 || size[i] < 0 || offsets[i] + size[i] > x[i])
            throw ShapeProblem("attrs.size", "dim " + std::to_string(i) + ": offset " + std::to_string(offsets[i]) +
                                                 " + size " + std::to_string(size[i]) + " exceeds " +
                                                 std::to_string(x[i]));
    }
    return {InferredTensor{size, in[0].dtype, in[0].format, false}};
}

Outputs concatD(const Inputs& in, const OpAttributes& attrs) {
    auto out = in[0].shape;
    const auto rank = static_cast<std::int64_t>(out.size());
    std::int64_t dim = attrs.intValue("concat_dim");
    if (dim < -rank || dim >= rank)
        throw ShapeProblem("attrs.concat_dim", "concat_dim " + std::to_string(dim) + " is out of range for " + shapeText(out));
    if (dim < 0) dim += rank;
    const auto d = static_cast<std::size_t>(dim);
    for (std::size_t i = 1; i < in.size(); ++i) {
        requireSameDtype(in, i, 0);
        auto expected = in[i].shape;
        if (expected.size() == out.size()) expected[d] = out[d];
        if (expected != out)
            throw ShapeProblem(inputField(i), "'" + in[i].name + "' " + shapeText(in[i].shape) +
                                                  " must match x_0 " + shapeText(in[0].shape) + " except along dim " +
                                                  std::to_string(dim));
    }
    out[d] = 0;
    for (const auto& t : in) out[d] += t.shape[d];
    return {InferredTensor{out, in[0].dtype, in[0].format, false}};
}

// q [B,N,S,D], k/v [B,Nkv,Skv,D] (N a multiple of Nkv: GQA), dy ≅ q, out ≅ q,
// softmax_max/softmax_sum [B,N,S,8] fp32 → dq ≅ q, dk ≅ k, dv ≅ v.
Outputs flashAttentionScoreGrad(const Inputs& in, const OpAttributes&) {
    for (std::size_t i = 0; i < 7; ++i) requireRank(in, i, 4, i < 5 ? "[B,N,S,D]" : "[B,N,S,8]");
    const auto& q = in[0].shape;
    const auto& k = in[1].shape;
    if (k[0] != q[0] || k[3] != q[3] || k[1] <= 0 || q[1] % k[1] != 0)
        throw ShapeProblem(inputField(1), "k " + shapeText(k) + " must be [B,Nkv,Skv,D] with q's B and D and Nkv dividing N " +
                                              shapeText(q));
    requireShape(in, 2, k, "v ≅ k");
    requireShape(in, 3, q, "dy ≅ q");
    requireShape(in, 4, q, "attention_in (the forward output) ≅ q");
    for (std::size_t i = 5; i < 7; ++i) {
        requireShape(in, i, {q[0], q[1], q[2], 8}, "the softmax statistics [B,N,S,8]");
        if (in[i].dtype != DataType::Fp32) throw ShapeProblem(inputField(i), "the softmax statistics must be fp32");
    }
    for (std::size_t i = 1; i < 5; ++i) requireSameDtype(in, i, 0);
    if (in[0].dtype != DataType::Fp16 && in[0].dtype != DataType::Bf16)
        throw ShapeProblem(inputField(0), "q must be fp16 or bf16");
    return {sameAs(in[0]), sameAs(in[1]), sameAs(in[2])};
}

// dy, x [.., L], rstd [.., 1] fp32, gamma [L] → dx ≅ x, dgamma [L] fp32.
Outputs rmsNormGrad(const Inputs& in, const OpAttributes&) {
    requireFloat(in, 1);
    if (in[1].shape.empty()) throw ShapeProblem(inputField(1), "x must have at least one dim");
    requireShape(in, 0, in[1].shape, "dy ≅ x");
    auto rstd = in[1].shape;
    rstd.back() = 1;
    requireShape(in, 2, rstd, "rstd (one value per row of x)");
    requireShape(in, 3, {in[1].shape.back()}, "gamma over x's last dim");
    return {sameAs(in[1]), InferredTensor{{in[1].shape.back()}, DataType::Fp32, TensorFormat::ND, false}};
}

// x (any shape, float) → y [1] fp32: the 2-norm over all elements.
Outputs lpNorm(const Inputs& in, const OpAttributes& attrs) {
    requireFloat(in, 0);
    const double p = std::get<double>(attrs.values.at("p"));
    if (p != 2.0) throw ShapeProblem("attrs.p", "only p = 2 is modelled, got " + std::to_string(p));
    return {InferredTensor{{1}, DataType::Fp32, TensorFormat::ND, false}};
}

Outputs foreachSame(const Inputs& in, const OpAttributes&) {
    Outputs out;
    for (std::size_t i = 0; i < in.size(); ++i) {
        requireFloat(in, i);
        requireSameDtype(in, i, 0);
        out.push_back(sameAs(in[i]));
    }
    return out;
}

// x_0..x_{n-1}, y_0..y_{n-1} → z_i ≅ x_i.
Outputs foreachAddList(const Inputs& in, const OpAttributes& attrs) {
    if (in.size() % 2 != 0)
        throw ShapeProblem("inputs", "ForeachAddList takes two lists of equal length, got " + std::to_string(in.size()) + " tensors");
    const std::size_t n = in.size() / 2;
    for (std::size_t i = 0; i < n; ++i) requireShape(in, n + i, in[i].shape, "entry " + std::to_string(i) + " of the first list");
    Inputs first(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(n));
    return foreachSame(first, attrs);
}

// x [.., L, ..] float → indices (int32) and values (x's dtype), the `dimension` axis removed (or
// kept as 1 with keep_dims). The kernel models the arg max over the last non-1 axis, as the
// samples use it, and positions exact in fp32 (L < 2^24).
Outputs argMaxWithValue(const Inputs& in, const OpAttributes& attrs) {
    requireFloat(in, 0);
    const auto& shape = in[0].shape;
    const auto rank = static_cast<std::int64_t>(shape.size());
    const std::int64_t given = std::get<std::int64_t>(attrs.values.at("dimension"));
    const std::int64_t axis = given < 0 ? given + rank : given;
    if (axis < 0 || axis >= rank)
        throw ShapeProblem("attrs.dimension", std::to_string(given) + " is out of range for '" + in[0].name + "' " + shapeText(shape));
    for (std::int64_t d = axis + 1; d < rank; ++d)
        if (shape[static_cast<std::size_t>(d)] != 1)
            throw ShapeProblem("attrs.dimension", "only the arg max over the last non-1 axis is modelled; '" + in[0].name + "' is " +
                                                      shapeText(shape));
    const std::int64_t length = shape[static_cast<std::size_t>(axis)];
    if (length < 1 || length >= (std::int64_t{1} << 24))
        throw ShapeProblem(inputField(0), "the reduced axis must hold 1 .. 2^24 - 1 elements, got " + std::to_string(length));
    std::vector<std::int64_t> out = shape;
    if (std::get<bool>(attrs.values.at("keep_dims"))) out[static_cast<std::size_t>(axis)] = 1;
    else out.erase(out.begin() + axis);
    if (out.empty()) out = {1};
    return {InferredTensor{out, DataType::Int32, TensorFormat::ND, false}, InferredTensor{out, in[0].dtype, TensorFormat::ND, false}};
}

// grad [.., E] fp32, sort_indices [T] int32, pos_idx [T] int32 → y [num_weights, E] fp32,
// accumulated into (the caller zeroes it first).
Outputs embeddingDenseGrad(const Inputs& in, const OpAttributes& attrs) {
    if (in[0].dtype != DataType::Fp32 || in[0].shape.empty())
        throw ShapeProblem(inputField(0), "'" + in[0].name + "' must be an fp32 gradient [.., E], got " +
                                              std::string(dataTypeName(in[0].dtype)) + " " + shapeText(in[0].shape));
    for (std::size_t i : {std::size_t{1}, std::size_t{2}}) {
        if (in[i].dtype != DataType::Int32 || in[i].shape.size() != 1)
            throw ShapeProblem(inputField(i), "'" + in[i].name + "' must be int32 [T], got " +
                                                  std::string(dataTypeName(in[i].dtype)) + " " + shapeText(in[i].shape));
    }
    if (in[1].shape != in[2].shape)
        throw ShapeProblem(inputField(2), "pos_idx must have sort_indices' length " + shapeText(in[1].shape));
    const std::int64_t weights = std::get<std::int64_t>(attrs.values.at("num_weights"));
    if (weights < 1) throw ShapeProblem("attrs.num_weights", "must be at least 1, got " + std::to_string(weights));
    if (std::get<std::int64_t>(attrs.values.at("padding_idx")) != -1)
        throw ShapeProblem("attrs.padding_idx", "only -1 (no padding row) is modelled");
    if (std::get<bool>(attrs.values.at("scale_grad_by_freq")))
        throw ShapeProblem("attrs.scale_grad_by_freq", "only false is modelled");
    return {InferredTensor{{weights, in[0].shape.back()}, DataType::Fp32, TensorFormat::ND, false}};
}

// (up to 3 scalar inputs, read only for timing) → y [⌈(limit − start)/delta⌉] fp32.
Outputs range(const Inputs& in, const OpAttributes& attrs) {
    for (std::size_t i = 0; i < in.size(); ++i)
        if (in[i].shape.size() > 1 || (in[i].shape.size() == 1 && in[i].shape[0] != 1))
            throw ShapeProblem(inputField(i), "'" + in[i].name + "' must be a scalar, got " + shapeText(in[i].shape));
    const double start = std::get<double>(attrs.values.at("start")), limit = std::get<double>(attrs.values.at("limit"));
    const double delta = std::get<double>(attrs.values.at("delta"));
    if (delta == 0.0) throw ShapeProblem("attrs.delta", "must not be 0");
    const double count = std::ceil((limit - start) / delta);
    if (!(count >= 1.0) || count > double(std::int64_t{1} << 24))
        throw ShapeProblem("attrs.limit", "start, limit and delta must give 1 .. 2^24 elements, got " + std::to_string(count));
    return {InferredTensor{{static_cast<std::int64_t>(count)}, DataType::Fp32, TensorFormat::ND, false}};
}

// Bool inputs (numpy broadcasting of two) → bool.
Outputs logical(const Inputs& in, const OpAttributes& attrs) {
    for (std::size_t i = 0; i < in.size(); ++i)
        if (in[i].dtype != DataType::Bool)
            throw ShapeProblem(inputField(i), "'" + in[i].name + "' must be bool, got " + std::string(dataTypeName(in[i].dtype)));
    return in.size() == 1 ? Outputs{sameAs(in[0])} : broadcastBinary(in, attrs);
}

// x, optional shape tensor (host data) → y [shape], x's dtype; x must broadcast to shape (numpy
// rules: aligned from the right, each x dim 1 or equal); the last dim is kept, or it alone is broadcast.
Outputs broadcastTo(const Inputs& in, const OpAttributes& attrs) {
    const auto& target = std::get<std::vector<std::int64_t>>(attrs.values.at("shape"));
    const auto& x = in[0].shape;
    bool fits = x.size() <= target.size();
    for (std::size_t i = 1; fits && i <= x.size(); ++i) {
        const std::int64_t have = x[x.size() - i], want = target[target.size() - i];
        fits = have == want || have == 1;
    }
    for (auto d : target) fits = fits && d >= 1;
    if (!fits) throw ShapeProblem("attrs.shape", "'" + in[0].name + "' " + shapeText(x) + " does not broadcast to " + shapeText(target));
    if (x.empty() || x.back() != target.back()) {
        // Only the last dim broadcast (x [.., 1] → [.., L], leading dims kept) is modelled there.
        bool onlyLast = !x.empty() && bytesOf(in[0].dtype) != 8;
        for (std::size_t i = 2; onlyLast && i <= target.size(); ++i)
            onlyLast = i <= x.size() ? x[x.size() - i] == target[target.size() - i] : target[target.size() - i] == 1;
        if (!onlyLast)
            throw ShapeProblem(inputField(0), "a broadcast along the last dim is modelled alone and for ≤ 32-bit values; '" +
                                                  in[0].name + "' is " + shapeText(x) + " " + std::string(dataTypeName(in[0].dtype)));
    }
    return {InferredTensor{target, in[0].dtype, TensorFormat::ND, false}};
}

namespace {
// Inputs from `first` on are the index tensors: one per dim of in[0], int32/int64, all of one length.
std::int64_t requireElementIndices(const Inputs& in, std::size_t first) {
    if (in.size() - first != in[0].shape.size())
        throw ShapeProblem(inputField(first), "one index tensor per dim of '" + in[0].name + "' " + shapeText(in[0].shape));
    const std::int64_t count = elementsOf(in[first]);
    for (std::size_t i = first; i < in.size(); ++i) {
        if (in[i].dtype != DataType::Int32 && in[i].dtype != DataType::Int64)
            throw ShapeProblem(inputField(i), "indices must be int32 or int64");
        if (elementsOf(in[i]) != count) throw ShapeProblem(inputField(i), "every index tensor must have the same length");
    }
    return count;
}
}  // namespace

Outputs advancedIndex(const Inputs& in, const OpAttributes&) {
    const std::int64_t count = requireElementIndices(in, 1);
    return {InferredTensor{{count}, in[0].dtype, TensorFormat::ND, false}};
}

Outputs indexPut(const Inputs& in, const OpAttributes&) {
    const std::int64_t count = requireElementIndices(in, 2);
    if (elementsOf(in[1]) != count || in[1].dtype != in[0].dtype)
        throw ShapeProblem(inputField(1), "values must hold one element of self's dtype per index");
    return {sameAs(in[0])};
}

Outputs nonZero(const Inputs& in, const OpAttributes&) {
    const auto rank = static_cast<std::int64_t>(std::max<std::size_t>(1, in[0].shape.size()));
    return {InferredTensor{{elementsOf(in[0]), rank}, DataType::Int64, TensorFormat::ND, true}};
}

}  // namespace ascendsim::shape_rules

// Shape rules of the cube ops (docs/op-catalog.md, "Cube ops").
#include <algorithm>

#include "models/kernels/attention/attention_layout.h"
#include "sim/workload/schema/shape_rules.h"

namespace ascendsim::shape_rules {

namespace {

DataType matmulOutputType(const Inputs& in) {
    DataType t = in[0].dtype;
    if (t != DataType::Fp16 && t != DataType::Bf16 && t != DataType::Int8 && t != DataType::Fp32 &&
        t != DataType::Hf32) {
        throw ShapeProblem(inputField(0), "'" + in[0].name + "' is " +
                                              std::string(dataTypeName(t)) +
                                              "; the cube takes fp16, bf16, int8 or fp32");
    }
    requireSameDtype(in, 1, 0);
    return t == DataType::Int8 ? DataType::Int32 : t;
}

void checkBias(const Inputs& in, std::int64_t n) {
    if (in.size() > 2) requireShape(in, 2, {n}, "a bias of the output's last dim");
}

struct ConvGeometry {
    std::vector<std::int64_t> strides, pads, dilations;
};

ConvGeometry convGeometry(const OpAttributes& attrs) {
    ConvGeometry g{requireLength(attrs, "strides", 2), requireLength(attrs, "pads", 4),
                   requireLength(attrs, "dilations", 2)};
    for (auto s : g.strides) {
        if (s <= 0) throw ShapeProblem("attrs.strides", "strides must be positive");
    }
    for (auto d : g.dilations) {
        if (d <= 0) throw ShapeProblem("attrs.dilations", "dilations must be positive");
    }
    return g;
}

// Forward convolution output [Ho, Wo] for input [H, W] and kernel [kh, kw].
std::array<std::int64_t, 2> convOutputHw(std::int64_t h, std::int64_t w, std::int64_t kh,
                                         std::int64_t kw, const ConvGeometry& g) {
    std::int64_t ho = windowOutput(h, g.pads[0], g.pads[1], kh, g.strides[0], g.dilations[0]);
    std::int64_t wo = windowOutput(w, g.pads[2], g.pads[3], kw, g.strides[1], g.dilations[1]);
    if (ho <= 0 || wo <= 0) {
        throw ShapeProblem("attrs.pads", "the kernel " + shapeText({kh, kw}) +
                                             " does not fit the input " + shapeText({h, w}));
    }
    return {ho, wo};
}

void requireAttention4d(const Inputs& in) {
    for (std::size_t i = 0; i < 3; ++i) requireRank(in, i, 4, "[B,N,S,D]");
    requireSameDtype(in, 1, 0);
    requireSameDtype(in, 2, 0);
}

}  // namespace

Outputs matMul(const Inputs& in, const OpAttributes& attrs) {
    requireRank(in, 0, 2, "matrix a");
    requireRank(in, 1, 2, "matrix b");
    DataType outType = matmulOutputType(in);
    bool ta = attrs.boolValue("transpose_a"), tb = attrs.boolValue("transpose_b");
    std::int64_t m = ta ? in[0].shape[1] : in[0].shape[0];
    std::int64_t k = ta ? in[0].shape[0] : in[0].shape[1];
    std::int64_t kb = tb ? in[1].shape[1] : in[1].shape[0];
    std::int64_t n = tb ? in[1].shape[0] : in[1].shape[1];
    if (k != kb) {
        throw ShapeProblem(inputField(1), "K of '" + in[1].name + "' " + shapeText(in[1].shape) +
                                              " is " + std::to_string(kb) + " but a " +
                                              shapeText(in[0].shape) +
                                              " has K=" + std::to_string(k));
    }
    checkBias(in, n);
    return {InferredTensor{{m, n}, outType, TensorFormat::ND, false}};
}

Outputs batchMatMul(const Inputs& in, const OpAttributes& attrs) {
    if (in[0].shape.size() < 2) requireRank(in, 0, 3, "[B..,M,K]");
    if (in[1].shape.size() < 2) requireRank(in, 1, 2, "[B..,K,N]");
    DataType outType = matmulOutputType(in);
    const auto& a = in[0].shape;
    const auto& b = in[1].shape;
    bool ta = attrs.boolValue("transpose_a"), tb = attrs.boolValue("transpose_b");
    std::size_t ra = a.size(), rb = b.size();
    std::int64_t m = ta ? a[ra - 1] : a[ra - 2], k = ta ? a[ra - 2] : a[ra - 1];
    std::int64_t kb = tb ? b[rb - 1] : b[rb - 2], n = tb ? b[rb - 2] : b[rb - 1];
    if (k != kb) {
        throw ShapeProblem(inputField(1), "K of '" + in[1].name + "' " + shapeText(b) + " is " +
                                              std::to_string(kb) + " but a " + shapeText(a) +
                                              " has K=" + std::to_string(k));
    }
    std::size_t batchRank = std::max(ra, rb) - 2;
    std::vector<std::int64_t> out(batchRank, 1);
    for (std::size_t i = 0; i < batchRank; ++i) {
        std::int64_t da = i + ra >= batchRank + 2 ? a[i + ra - batchRank - 2] : 1;
        std::int64_t db = i + rb >= batchRank + 2 ? b[i + rb - batchRank - 2] : 1;
        if (da != db && da != 1 && db != 1) {
            throw ShapeProblem(inputField(1), "batch dims of " + shapeText(a) + " and " +
                                                  shapeText(b) + " do not broadcast");
        }
        out[i] = std::max(da, db);
    }
    out.push_back(m);
    out.push_back(n);
    checkBias(in, n);
    return {InferredTensor{out, outType, in[0].format, false}};
}

Outputs conv2D(const Inputs& in, const OpAttributes& attrs) {
    auto x = nchwOf(in, 0);
    requireRank(in, 1, 4, "filter [Co,C/groups,kh,kw]");
    requireSameDtype(in, 1, 0);
    const auto& w = in[1].shape;
    std::int64_t groups = attrs.intValue("groups");
    if (groups <= 0 || x[1] % groups != 0 || w[0] % groups != 0) {
        throw ShapeProblem("attrs.groups", "groups " + std::to_string(groups) +
                                               " must divide C=" + std::to_string(x[1]) +
                                               " and Co=" + std::to_string(w[0]));
    }
    if (w[1] * groups != x[1]) {
        throw ShapeProblem(inputField(1), "filter '" + in[1].name + "' " + shapeText(w) +
                                              " expects " + std::to_string(w[1] * groups) +
                                              " input channels but '" + in[0].name +
                                              "' has C=" + std::to_string(x[1]));
    }
    auto hw = convOutputHw(x[2], x[3], w[2], w[3], convGeometry(attrs));
    checkBias(in, w[0]);
    return {InferredTensor{shapeInFormat({x[0], w[0], hw[0], hw[1]}, in[0].format), in[0].dtype,
                           in[0].format, false}};
}

Outputs conv2DBackpropInput(const Inputs& in, const OpAttributes& attrs) {
    auto dy = nchwOf(in, 0);
    requireRank(in, 1, 4, "filter [Co,C,kh,kw]");
    const auto& w = in[1].shape;
    auto size = requireLength(attrs, "input_size", 4);
    if (w[0] != dy[1]) {
        throw ShapeProblem(inputField(1), "filter '" + in[1].name + "' " + shapeText(w) +
                                              " has Co=" + std::to_string(w[0]) + " but dy has " +
                                              std::to_string(dy[1]) + " channels");
    }
    if (w[1] != size[1] || size[0] != dy[0]) {
        throw ShapeProblem("attrs.input_size", shapeText(size) + " does not match filter " +
                                                   shapeText(w) + " and dy " +
                                                   shapeText(in[0].shape));
    }
    auto hw = convOutputHw(size[2], size[3], w[2], w[3], convGeometry(attrs));
    if (hw[0] != dy[2] || hw[1] != dy[3]) {
        throw ShapeProblem(inputField(0), "dy spatial " + shapeText({dy[2], dy[3]}) +
                                              " is not the forward output " +
                                              shapeText({hw[0], hw[1]}) + " of input_size " +
                                              shapeText(size));
    }
    return {InferredTensor{shapeInFormat({size[0], size[1], size[2], size[3]}, in[0].format),
                           in[0].dtype, in[0].format, false}};
}

Outputs conv2DBackpropFilter(const Inputs& in, const OpAttributes& attrs) {
    auto x = nchwOf(in, 0);
    auto dy = nchwOf(in, 1);
    requireSameDtype(in, 1, 0);
    auto size = requireLength(attrs, "filter_size", 4);
    if (size[0] != dy[1] || size[1] != x[1] || x[0] != dy[0]) {
        throw ShapeProblem("attrs.filter_size", shapeText(size) + " does not match x " +
                                                    shapeText(in[0].shape) + " and dy " +
                                                    shapeText(in[1].shape));
    }
    auto hw = convOutputHw(x[2], x[3], size[2], size[3], convGeometry(attrs));
    if (hw[0] != dy[2] || hw[1] != dy[3]) {
        throw ShapeProblem(inputField(1), "dy spatial " + shapeText({dy[2], dy[3]}) +
                                              " is not the forward output " +
                                              shapeText({hw[0], hw[1]}));
    }
    return {InferredTensor{size, DataType::Fp32, TensorFormat::NCHW, false}};
}

Outputs flashAttentionScore(const Inputs& in, const OpAttributes& attrs) {
    // input_layout (BNSD, BSND, BSH, SBH) and GQA (k/v heads dividing q's): attention_layout.h.
    requireSameDtype(in, 1, 0);
    requireSameDtype(in, 2, 0);
    const std::string layout = attrs.stringValue("input_layout");
    const std::int64_t headNum = attrs.values.count("head_num") ? attrs.intValue("head_num") : 0;
    AttentionDims dims;
    if (const std::string problem = attentionDims(layout, in[0].shape, in[1].shape, headNum, dims); !problem.empty())
        throw ShapeProblem(problem.rfind("input_layout", 0) == 0 || problem.find("head_num") != std::string::npos
                               ? "attrs.input_layout" : inputField(problem[0] == 'q' ? 0 : 1),
                           problem + " (q " + shapeText(in[0].shape) + ", k " + shapeText(in[1].shape) + ")");
    requireShape(in, 2, in[1].shape, "v ≅ k");
    return {sameAs(in[0])};
}

Outputs increFlashAttention(const Inputs& in, const OpAttributes& attrs) {
    requireAttention4d(in);
    const auto& q = in[0].shape;
    const auto& k = in[1].shape;
    if (q[2] != 1)
        throw ShapeProblem(inputField(0), "q must be [B,N,1,D] for decode, got " + shapeText(q));
    if (k[0] != q[0] || k[1] != q[1] || k[3] != q[3]) {
        throw ShapeProblem(
            inputField(1),
            "k_cache " + shapeText(k) + " must be [B,N,Smax,D] with q's B, N, D " + shapeText(q));
    }
    requireShape(in, 2, k, "v_cache ≅ k_cache");
    std::int64_t kvLen = attrs.intValue("kv_len");
    if (kvLen <= 0 || kvLen > k[2]) {
        throw ShapeProblem("attrs.kv_len", "kv_len " + std::to_string(kvLen) + " must be in 1.." +
                                               std::to_string(k[2]) + " (the cache length)");
    }
    return {sameAs(in[0])};
}

}  // namespace ascendsim::shape_rules

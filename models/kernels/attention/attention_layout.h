#pragma once
// FlashAttentionScore's input_layout (CANN's attribute): how q/k/v/out hold batch B, heads N,
// sequence S and head dim D, and GQA (k/v with fewer heads than q). Shared by the shape rule
// (sim/workload) and the lowering, so both accept the same shapes.
//   BNSD q [B,N,S,D]   BSND q [B,S,N,D]   BSH q [B,S,N·D]   SBH q [S,B,N·D]   (head_num = N for
//   the 3-D layouts); k and v the same with Skv and Nkv, Nkv dividing N.
#include <cstdint>
#include <string>
#include <vector>

namespace ascendsim {

struct AttentionDims {
    std::int64_t batch = 0, heads = 0, kvHeads = 0, qLen = 0, kvLen = 0, headDim = 0;
    // Element strides of a head's rows (batch, head, row) in q/out and in k/v.
    std::int64_t qBatch = 0, qHead = 0, qRow = 0, kvBatch = 0, kvHead = 0, kvRow = 0;
};

// Header-only: the workload's shape rule (another library) uses it too.
namespace attention_layout_detail {

// One tensor's B, N, S, D and row strides.
struct Side {
    std::int64_t batch = 0, heads = 0, len = 0, dim = 0, batchStride = 0, headStride = 0, rowStride = 0;
};

inline std::string side(const std::string& layout, const std::vector<std::int64_t>& t, std::int64_t headNum,
                        const char* what, Side& s) {
    const bool fourD = layout == "BNSD" || layout == "BSND";
    if (t.size() != (fourD ? 4u : 3u))
        return std::string(what) + " must be " + (fourD ? "4-D" : "3-D") + " for input_layout " + layout;
    for (auto d : t)
        if (d <= 0) return std::string(what) + " has an empty dim";
    if (layout == "BNSD") {
        s = {t[0], t[1], t[2], t[3], t[1] * t[2] * t[3], t[2] * t[3], t[3]};
    } else if (layout == "BSND") {
        s = {t[0], t[2], t[1], t[3], t[1] * t[2] * t[3], t[3], t[2] * t[3]};
    } else {
        if (headNum <= 0 || t[2] % headNum != 0)
            return std::string(what) + ": head_num must divide H for input_layout " + layout;
        const std::int64_t d = t[2] / headNum, b = layout == "SBH" ? t[1] : t[0], len = layout == "SBH" ? t[0] : t[1];
        if (layout == "BSH") s = {b, headNum, len, d, len * t[2], d, t[2]};
        else s = {b, headNum, len, d, t[2], d, b * t[2]};
    }
    return "";
}

}  // namespace attention_layout_detail

// Dims of q and k (v must equal k) under `layout`; headNum is needed by BSH/SBH (0 = absent).
// Returns an empty string, or what is wrong (naming q or k; the caller adds the shapes).
inline std::string attentionDims(const std::string& layout, const std::vector<std::int64_t>& q,
                                 const std::vector<std::int64_t>& k, std::int64_t headNum, AttentionDims& dims) {
    using namespace attention_layout_detail;
    if (layout != "BNSD" && layout != "BSND" && layout != "BSH" && layout != "SBH")
        return "input_layout '" + layout + "' is not one of BNSD, BSND, BSH, SBH";
    Side qs, ks;
    if (auto e = side(layout, q, headNum, "q", qs); !e.empty()) return e;
    // A 3-D k of a GQA model has fewer heads: its H is Nkv·D with q's D.
    const std::int64_t kvHeadNum = layout == "BSH" || layout == "SBH" ? (qs.dim > 0 ? k.back() / qs.dim : 0) : 0;
    if (auto e = side(layout, k, kvHeadNum, "k", ks); !e.empty()) return e;
    if (ks.batch != qs.batch || ks.dim != qs.dim || ks.heads <= 0 || qs.heads % ks.heads != 0)
        return "k must have q's batch and head dim and a head count dividing q's";
    dims = {qs.batch, qs.heads, ks.heads, qs.len, ks.len, qs.dim,
            qs.batchStride, qs.headStride, qs.rowStride, ks.batchStride, ks.headStride, ks.rowStride};
    return "";
}

}  // namespace ascendsim

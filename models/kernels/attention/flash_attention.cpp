// FlashAttentionScore (prefill) and IncreFlashAttention (decode with a KV cache) lowering
// (docs/op-catalog.md) to one MIX_AIC kernel each (flash_attention_plan.h).
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "models/kernels/tiling/cube_tiling.h"
#include "models/kernels/attention/attention_core_split.h"
#include "models/kernels/attention/attention_layout.h"
#include "models/kernels/attention/flash_attention_plan.h"
#include "models/kernels/attention/mix_launch.h"

namespace ascendsim {

namespace {
constexpr std::uint32_t kQBlockRows = 128;   // L0C rows of S and O tiles
constexpr std::uint32_t kKvBlockRows = 128;  // keys per S block (K_j and V_j tiles of 32 KiB fp16)
constexpr std::uint64_t kMaxHeadDim = 128;   // one L0 step of Q·Kᵀ; larger heads are not modelled

LoweredKernel makeAttentionKernel(const OpInstance& op, const ChipConfig& chip, AttentionProblem p) {
    LoweredKernel kernel = mixAicKernel(op, chip, p.tiles());
    const std::uint32_t aivs = aivPerGroup(chip);
    const std::uint64_t ubBytes = attentionVectorUbBytes(p, aivs);
    if (ubBytes > chip.bufferCapacity(MemSpace::UB))
        throwLoweringError(op, "the softmax working set needs " + std::to_string(ubBytes) + " bytes of UB");
    const std::uint64_t tiles = p.tiles();
    kernel.workspaceBytes = p.workspacePerGroup() * kernel.blockDim;
    auto problem = std::make_shared<const AttentionProblem>(p);
    // Causal: CANN's sparse split, each group a contiguous run of tiles weighed by the KV blocks
    // they visit (attention_core_split.h); otherwise the even split.
    const std::vector<std::uint64_t> starts =
        attentionGroupTileStarts(tiles, kernel.blockDim, p.causal, [&p](std::uint64_t tile) {
            const AttentionTile t = attentionTile(p, tile);
            return p.kvBlocksFor(t.q0, t.rows);
        });
    kernel.program = [problem, starts, aivs](const BlockProgramRequest& r) -> std::unique_ptr<InstructionStream> {
        const std::uint64_t first = starts[r.blockIdx], count = starts[r.blockIdx + 1] - first;
        const std::uint64_t workspace = r.workspaceAddr + r.blockIdx * problem->workspacePerGroup();
        if (r.coreKind == CoreKind::Vector)
            return makeAttentionVectorStream(problem, first, count, workspace, r.subBlockIdx, aivs);
        return makeAttentionCubeStream(problem, first, count, workspace);
    };
    return kernel;
}

// q/k/v/out in the op's input_layout (attention_layout.h; IncreFlashAttention: BNSD); fills the
// common fields and checks dtypes and head dims.
AttentionProblem attentionProblem(const OpInstance& op, const std::string& layout) {
    if (op.inputs.size() < 3 || op.outputs.empty()) throwLoweringError(op, "needs inputs q, k, v and output out");
    const TensorInfo& q = op.inputs[0];
    const TensorInfo& k = op.inputs[1];
    const TensorInfo& v = op.inputs[2];
    const TensorInfo& out = op.outputs[0];
    AttentionDims dims;
    if (const std::string problem = attentionDims(layout, q.shape, k.shape, op.intAttr("head_num", 0), dims);
        !problem.empty())
        throwLoweringError(op, problem);
    if (k.shape != v.shape || out.shape != q.shape) throwLoweringError(op, "v must match k and out must match q");
    if (q.dtype != k.dtype || q.dtype != v.dtype || out.dtype != q.dtype ||
        (q.dtype != DataType::Fp16 && q.dtype != DataType::Bf16))
        throwLoweringError(op, "q, k, v, out must share an fp16 or bf16 dtype");
    auto u = [](std::int64_t value) { return static_cast<std::uint64_t>(value); };
    AttentionProblem p;
    p.batch = u(dims.batch);
    p.heads = u(dims.heads);
    p.kvHeads = u(dims.kvHeads);
    p.qLen = u(dims.qLen);
    p.kvRowsStored = u(dims.kvLen);
    p.kvLen = p.kvRowsStored;
    p.headDim = u(dims.headDim);
    p.qStrides = {u(dims.qBatch), u(dims.qHead), u(dims.qRow)};
    p.kvStrides = {u(dims.kvBatch), u(dims.kvHead), u(dims.kvRow)};
    if (p.headDim > kMaxHeadDim || p.headDim % 16 != 0)
        throwLoweringError(op, "head dim " + std::to_string(p.headDim) + " must be a multiple of 16 up to 128");
    p.scale = static_cast<float>(op.floatAttr("scale", op.floatAttr("scale_value", 1.0 / std::sqrt(double(p.headDim)))));
    p.dtype = q.dtype;
    p.qAddr = q.deviceAddr;
    p.kAddr = k.deviceAddr;
    p.vAddr = v.deviceAddr;
    p.outAddr = out.deviceAddr;
    p.qBlock = static_cast<std::uint32_t>(std::min<std::uint64_t>(kQBlockRows, p.qLen));
    p.kvBlock = kKvBlockRows;
    return p;
}

std::vector<LoweredKernel> lowerFlashAttentionScore(const OpInstance& op, const ChipConfig& chip) {
    AttentionProblem p = attentionProblem(op, op.stringAttr("input_layout", "BNSD"));
    p.causal = op.boolAttr("causal", false);
    return {makeAttentionKernel(op, chip, p)};
}

std::vector<LoweredKernel> lowerIncreFlashAttention(const OpInstance& op, const ChipConfig& chip) {
    AttentionProblem p = attentionProblem(op, "BNSD");
    if (p.qLen != 1) throwLoweringError(op, "decode attention takes one query row per head");
    const std::int64_t kvLen = op.intAttr("kv_len", -1);
    if (kvLen <= 0 || static_cast<std::uint64_t>(kvLen) > p.kvRowsStored)
        throwLoweringError(op, "kv_len must be in 1.." + std::to_string(p.kvRowsStored));
    p.kvLen = static_cast<std::uint64_t>(kvLen);
    return {makeAttentionKernel(op, chip, p)};
}
}  // namespace

ASCENDSIM_REGISTER_KERNEL("FlashAttentionScore", lowerFlashAttentionScore);
ASCENDSIM_REGISTER_KERNEL("IncreFlashAttention", lowerIncreFlashAttention);

}  // namespace ascendsim

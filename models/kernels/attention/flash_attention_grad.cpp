// FlashAttentionScoreGrad lowering (docs/op-catalog.md, "Ops of the LLM samples") to one
// MIX_AIC kernel (flash_attention_grad_plan.h).
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "models/kernels/attention/attention_core_split.h"
#include "models/kernels/attention/flash_attention_grad_plan.h"
#include "models/kernels/attention/mix_launch.h"
#include "models/kernels/tiling/cube_tiling.h"

namespace ascendsim {

namespace {
constexpr std::uint32_t kBlockRows = 128;  // q rows per tile and keys per KV block (as FlashAttentionScore)

AttentionGradProblem gradProblem(const OpInstance& op) {
    if (op.inputs.size() < 7 || op.outputs.size() < 3)
        throwLoweringError(op, "needs inputs q, k, v, dy, attention_in, softmax_max, softmax_sum and outputs dq, dk, dv");
    const TensorInfo &q = op.inputs[0], &k = op.inputs[1], &v = op.inputs[2];
    for (const TensorInfo& t : op.inputs)
        if (t.shape.size() != 4 || t.elementCount() <= 0) throwLoweringError(op, "every input must be a non-empty 4-D tensor");
    if (k.shape != v.shape || q.shape[0] != k.shape[0] || q.shape[3] != k.shape[3] || q.shape[1] % k.shape[1] != 0)
        throwLoweringError(op, "k, v must be [B,Nkv,Skv,D] with q's B, D and Nkv dividing q's N");
    if (q.dtype != DataType::Fp16 && q.dtype != DataType::Bf16) throwLoweringError(op, "q must be fp16 or bf16");
    AttentionGradProblem p;
    p.batch = static_cast<std::uint64_t>(q.shape[0]);
    p.heads = static_cast<std::uint64_t>(q.shape[1]);
    p.kvHeads = static_cast<std::uint64_t>(k.shape[1]);
    p.qLen = static_cast<std::uint64_t>(q.shape[2]);
    p.kvLen = static_cast<std::uint64_t>(k.shape[2]);
    p.headDim = static_cast<std::uint64_t>(q.shape[3]);
    if (p.headDim > kBlockRows || p.headDim % 16 != 0)
        throwLoweringError(op, "head dim " + std::to_string(p.headDim) + " must be a multiple of 16 up to 128");
    p.scale = static_cast<float>(op.floatAttr("scale", op.floatAttr("scale_value", 1.0 / std::sqrt(double(p.headDim)))));
    p.causal = op.boolAttr("causal", false);
    p.qBlock = static_cast<std::uint32_t>(std::min<std::uint64_t>(kBlockRows, p.qLen));
    p.kvBlock = kBlockRows;
    if (p.causal && (p.qLen != p.kvLen || p.qLen % kBlockRows != 0))
        throwLoweringError(op, "causal masking is modelled for self-attention with S a multiple of 128");
    p.dtype = q.dtype;
    p.qAddr = q.deviceAddr;
    p.kAddr = k.deviceAddr;
    p.vAddr = v.deviceAddr;
    p.dyAddr = op.inputs[3].deviceAddr;
    p.outAddr = op.inputs[4].deviceAddr;
    p.maxAddr = op.inputs[5].deviceAddr;
    p.sumAddr = op.inputs[6].deviceAddr;
    p.dqAddr = op.outputs[0].deviceAddr;
    p.dkAddr = op.outputs[1].deviceAddr;
    p.dvAddr = op.outputs[2].deviceAddr;
    return p;
}

std::vector<LoweredKernel> lowerFlashAttentionScoreGrad(const OpInstance& op, const ChipConfig& chip) {
    AttentionGradProblem p = gradProblem(op);
    p.aivPerGroup = aivPerGroup(chip);
    const std::uint64_t ubBytes = attentionGradVectorUbBytes(p);
    if (ubBytes > chip.bufferCapacity(MemSpace::UB))
        throwLoweringError(op, "the softmax-gradient working set needs " + std::to_string(ubBytes) + " bytes of UB");
    const std::uint64_t tiles = p.tiles();
    LoweredKernel kernel = mixAicKernel(op, chip, tiles);
    p.blockDim = kernel.blockDim;
    kernel.workspaceBytes = p.workspaceBytes();
    const AttentionGradProblem shape = p;
    // Causal: CANN's sparse split (attention_core_split.h); otherwise the even split.
    const std::vector<std::uint64_t> starts =
        attentionGroupTileStarts(tiles, kernel.blockDim, p.causal, [&p](std::uint64_t tile) {
            const AttentionGradTile t = attentionGradTile(p, tile);
            return p.kvBlocksFor(t.q0, t.rows);
        });
    kernel.program = [shape, starts](const BlockProgramRequest& r) -> std::unique_ptr<InstructionStream> {
        auto problem = std::make_shared<AttentionGradProblem>(shape);
        problem->workspace = r.workspaceAddr;
        const std::uint64_t first = starts[r.blockIdx], count = starts[r.blockIdx + 1] - first;
        if (r.coreKind == CoreKind::Vector)
            return makeAttentionGradVectorStream(std::move(problem), r.blockIdx, r.subBlockIdx, first, count);
        return makeAttentionGradCubeStream(std::move(problem), r.blockIdx, first, count);
    };
    return {kernel};
}
}  // namespace

ASCENDSIM_REGISTER_KERNEL("FlashAttentionScoreGrad", lowerFlashAttentionScoreGrad);

}  // namespace ascendsim

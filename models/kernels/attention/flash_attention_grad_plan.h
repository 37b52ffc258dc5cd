#pragma once
// FlashAttentionScoreGrad as one MIX_AIC kernel, as CANN's implementation on 910B works
// (hardware.md §2.1, §2.4). Per (batch, q head, q block i) tile and per visible KV block j:
//   AIC:  S = Q_i·K_jᵀ, dP = dO_i·V_jᵀ → group workspace               flag 0 (AIC→AIV)
//         (issued for block j+1 before the AIC waits for P, dS of block j: one block ahead)
//   AIVs: P = exp(scale·S − max)/sum from the forward's saved softmax statistics (causal blocks
//         masked), dS = scale·P∘(dP − D_i) with D_i = rowsum(dO_i∘O_i) computed once per tile;
//         P and dS (q dtype) → group workspace                          flag 1 (AIV→AIC)
//   AIC:  dV_j += Pᵀ·dO_i, dK_j += dSᵀ·Q_i, dQ_i += dS·K_j, FixPipe atomic adds into fp32 GM
//         workspaces (q heads sharing a KV head under GQA add into the same dK_j, dV_j).
// Before the tiles the AIVs zero the fp32 workspaces and meet at an all-AIV barrier (mode 0,
// flag 3); after them the AIC signals its last atomic add (flag 2), the AIVs meet again
// (flag 4) and cast dQ, dK, dV to the output dtype, each AIV its share of the rows.
#include <cstdint>
#include <memory>

#include "models/isa/data_type.h"
#include "models/isa/instruction_stream.h"

namespace ascendsim {

struct AttentionGradProblem {
    std::uint64_t batch = 1, heads = 1, kvHeads = 1;
    std::uint64_t qLen = 1, kvLen = 1, headDim = 128;
    float scale = 1.0f;
    bool causal = false;
    DataType dtype = DataType::Bf16;
    std::uint64_t qAddr = 0, kAddr = 0, vAddr = 0, dyAddr = 0, outAddr = 0, maxAddr = 0, sumAddr = 0;
    std::uint64_t dqAddr = 0, dkAddr = 0, dvAddr = 0;
    std::uint32_t qBlock = 128, kvBlock = 128;
    std::uint32_t blockDim = 1, aivPerGroup = 2;
    std::uint64_t workspace = 0;  // set per launch: group slots, then dQ, dK, dV fp32

    std::uint64_t qBlocks() const { return (qLen + qBlock - 1) / qBlock; }
    std::uint64_t tiles() const { return batch * heads * qBlocks(); }
    std::uint64_t groupSize() const { return heads / kvHeads; }
    // KV blocks tile rows [q0, q0 + rows) see: all, or (causal, qLen = kvLen) up to the diagonal.
    std::uint64_t kvBlocksFor(std::uint64_t q0, std::uint64_t rows) const {
        const std::uint64_t visible = causal ? std::min(kvLen, q0 + rows) : kvLen;
        return (visible + kvBlock - 1) / kvBlock;
    }
    std::uint64_t scoreSlotBytes() const { return std::uint64_t{qBlock} * kvBlock * 4; }
    std::uint64_t probSlotBytes() const { return std::uint64_t{qBlock} * kvBlock * 2; }
    // Group g's workspace: kSlotSets sets of S, dP (fp32), P, dS (dtype); the group's n-th KV block
    // step (counted over its tiles) uses set n % kSlotSets, so that the AIC can write S, dP of the
    // next block while the AIVs still read this one (the AIC runs one block ahead, as in the
    // forward, flash_attention_plan.h).
    static constexpr std::uint64_t kSlotSets = 2;
    std::uint64_t slotSetBytes() const { return 2 * scoreSlotBytes() + 2 * probSlotBytes(); }
    std::uint64_t groupBytes() const { return kSlotSets * slotSetBytes(); }
    std::uint64_t groupBase(std::uint32_t group) const { return workspace + group * groupBytes(); }
    struct SlotSet {
        std::uint64_t s, dp, p, ds;
    };
    SlotSet slotSet(std::uint32_t group, std::uint64_t step) const {
        const std::uint64_t s = groupBase(group) + step % kSlotSets * slotSetBytes();
        return {s, s + scoreSlotBytes(), s + 2 * scoreSlotBytes(), s + 2 * scoreSlotBytes() + probSlotBytes()};
    }
    std::uint64_t dqElements() const { return batch * heads * qLen * headDim; }
    std::uint64_t dkvElements() const { return batch * kvHeads * kvLen * headDim; }
    std::uint64_t dqWorkspace() const { return workspace + std::uint64_t{blockDim} * groupBytes(); }
    std::uint64_t dkWorkspace() const { return dqWorkspace() + dqElements() * 4; }
    std::uint64_t dvWorkspace() const { return dkWorkspace() + dkvElements() * 4; }
    std::uint64_t workspaceBytes() const {
        return std::uint64_t{blockDim} * groupBytes() + (dqElements() + 2 * dkvElements()) * 4;
    }
};

struct AttentionGradTile {
    std::uint64_t head;    // batch·heads index of the q head
    std::uint64_t kvHead;  // batch·kvHeads index of its KV head
    std::uint64_t q0;
    std::uint32_t rows;
};
AttentionGradTile attentionGradTile(const AttentionGradProblem& p, std::uint64_t tile);

inline constexpr std::uint8_t kGradFlagScores = 0;    // AIC→AIV: S, dP written
inline constexpr std::uint8_t kGradFlagProbs = 1;     // AIV→AIC: P, dS written (even steps)
// Odd steps signal P, dS on their own flag: the AIC's mode-2 wait takes one set from each AIV out
// of one counter, and with the AIC a block ahead an AIV may already have handed over block j+1
// while its partner is still on block j. One flag per slot-set parity keeps the two apart (an AIV
// cannot get two blocks ahead: S of block j+2 follows the AIC's wait for P, dS of block j).
inline constexpr std::uint8_t kGradFlagProbsOdd = 5;
inline constexpr std::uint8_t gradFlagProbs(std::uint64_t step) { return step % 2 == 0 ? kGradFlagProbs : kGradFlagProbsOdd; }
inline constexpr std::uint8_t kGradFlagCubeDone = 2;  // AIC→AIV: last atomic add issued and done
inline constexpr std::uint8_t kGradFlagZeroed = 3;    // all AIVs: fp32 workspaces zeroed
inline constexpr std::uint8_t kGradFlagAccumulated = 4;  // all AIVs: every group's adds are in
inline constexpr std::uint8_t kGradGroupMode = 2;     // AIC ↔ its AIVs
inline constexpr std::uint8_t kGradAllAivMode = 0;    // every AIV of the kernel

std::unique_ptr<InstructionStream> makeAttentionGradCubeStream(std::shared_ptr<const AttentionGradProblem> problem,
                                                               std::uint32_t group, std::uint64_t firstTile,
                                                               std::uint64_t tiles);
std::unique_ptr<InstructionStream> makeAttentionGradVectorStream(std::shared_ptr<const AttentionGradProblem> problem,
                                                                 std::uint32_t group, std::uint32_t subBlock,
                                                                 std::uint64_t firstTile, std::uint64_t tiles);
// UB bytes one AIV's program uses (for the lowering's capacity check).
std::uint64_t attentionGradVectorUbBytes(const AttentionGradProblem& problem);

}  // namespace ascendsim

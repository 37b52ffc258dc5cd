#pragma once
// FlashAttention as a MIX_AIC kernel (hardware.md §2.1, §2.4): per (batch, head, q-block) tile the
// AIC computes S = Q·Kᵀ and O_j = P·V block by block; its two AIVs run the online softmax on half
// of the q rows each (scale, row max, exp, row sum, rescaling of the running output) and write
// the final rows. AIC and AIVs exchange S, P and O_j through a per-group GM workspace, ordered by
// mode-2 cross-core flags:
//   flag 0 AIC→AIV "S_j written", flag 1 AIV→AIC "P_j written (both halves)", flag 2 AIC→AIV
//   "O_j written". As CANN's FA kernel does, the AIC runs one block ahead: it computes S_{j+1}
//   while the AIVs run the softmax of block j, and the AIVs fold O_j into the running output only
//   after they have handed P_{j+1} over. S, P and O_j therefore each have two workspace slots
//   (slot j % 2); a slot is rewritten only after the flag that shows its reader is done with it,
//   so at most two sets of a flag are pending.
#include <cstdint>
#include <memory>

#include "models/isa/data_type.h"
#include "models/isa/instruction_stream.h"
#include "models/task/kernel_task.h"

namespace ascendsim {

struct AttentionProblem {
    std::uint64_t batch = 1, heads = 1;
    std::uint64_t qLen = 1;        // query rows per head
    std::uint64_t kvLen = 1;       // key/value rows used per head
    std::uint64_t kvRowsStored = 1;  // rows per head in k/v (Smax of a KV cache)
    std::uint64_t headDim = 64;
    float scale = 1.0f;
    bool causal = false;           // query row i sees keys 0..i (+ kvLen − qLen offset)
    DataType dtype = DataType::Fp16;
    std::uint64_t qAddr = 0, kAddr = 0, vAddr = 0, outAddr = 0;
    // GQA: k/v hold kvHeads heads (dividing heads); q head n reads kv head n / (heads / kvHeads).
    std::uint64_t kvHeads = 1;
    // Element strides of a head's rows in q/out and in k/v for the input layout (BNSD, BSND/BSH,
    // SBH): row s of head (b, n) starts at (b·batchStride + n·headStride + s·rowStride), its D
    // elements contiguous. BNSD rows are contiguous (rowStride = D); the others interleave heads.
    struct RowStrides {
        std::uint64_t batch = 0, head = 0, row = 0;
    };
    RowStrides qStrides, kvStrides;

    std::uint64_t groupSize() const { return heads / kvHeads; }
    // Element offset of row `row` of tile head `head` (= b·heads + n) in q/out, and in k/v.
    std::uint64_t qRow(std::uint64_t head, std::uint64_t row) const {
        return head / heads * qStrides.batch + head % heads * qStrides.head + row * qStrides.row;
    }
    std::uint64_t kvRow(std::uint64_t head, std::uint64_t row) const {
        return head / heads * kvStrides.batch + head % heads / groupSize() * kvStrides.head + row * kvStrides.row;
    }

    std::uint32_t qBlock = 128;    // q rows per tile (L0C rows)
    std::uint32_t kvBlock = 128;   // key rows per S block

    // batch·kvHeads index of the K/V head that batch·heads index `head` reads.
    std::uint64_t kvHeadOf(std::uint64_t head) const {
        if (kvHeads == 0 || kvHeads == heads) return head;
        return (head / heads) * kvHeads + (head % heads) / (heads / kvHeads);
    }
    std::uint64_t qBlocks() const { return (qLen + qBlock - 1) / qBlock; }
    std::uint64_t tiles() const { return batch * heads * qBlocks(); }
    std::uint64_t kvBlocks() const { return (kvLen + kvBlock - 1) / kvBlock; }
    // Workspace of one AIC group: two slots each of S (fp32), P (dtype), O_j (fp32).
    static constexpr std::uint64_t kSlots = 2;
    std::uint64_t sSlotBytes() const { return std::uint64_t{qBlock} * kvBlock * 4; }
    std::uint64_t pSlotBytes() const { return std::uint64_t{qBlock} * kvBlock * 2; }
    std::uint64_t oSlotBytes() const { return std::uint64_t{qBlock} * headDim * 4; }
    std::uint64_t slotSetBytes() const { return sSlotBytes() + pSlotBytes() + oSlotBytes(); }
    std::uint64_t workspacePerGroup() const { return kSlots * slotSetBytes(); }
    // Offsets in a group's workspace of the S, P and O slots that KV block j uses.
    std::uint64_t sSlot(std::uint64_t j) const { return j % kSlots * slotSetBytes(); }
    std::uint64_t pSlot(std::uint64_t j) const { return sSlot(j) + sSlotBytes(); }
    std::uint64_t oSlot(std::uint64_t j) const { return pSlot(j) + pSlotBytes(); }

    // Causal visibility: the keys [0, visibleKeys(row)) are visible to absolute query row `row`.
    std::uint64_t visibleKeys(std::uint64_t row) const {
        if (!causal) return kvLen;
        const std::uint64_t offset = kvLen >= qLen ? kvLen - qLen : 0;
        return std::min<std::uint64_t>(kvLen, row + offset + 1);
    }
    // KV blocks a tile with query rows [q0, q0+rows) must visit (causal skips the upper triangle).
    std::uint64_t kvBlocksFor(std::uint64_t q0, std::uint64_t rows) const {
        return (visibleKeys(q0 + rows - 1) + kvBlock - 1) / kvBlock;
    }
};

inline constexpr std::uint8_t kFlagScoresReady = 0;
inline constexpr std::uint8_t kFlagProbsReady = 1;
inline constexpr std::uint8_t kFlagOutputReady = 2;
inline constexpr std::uint8_t kCrossCoreMode = 2;  // AIC ↔ its AIVs

struct AttentionTile {
    std::uint64_t head;  // batch·heads index
    std::uint64_t q0;
    std::uint32_t rows;
};
AttentionTile attentionTile(const AttentionProblem& p, std::uint64_t tile);

std::unique_ptr<InstructionStream> makeAttentionCubeStream(std::shared_ptr<const AttentionProblem> problem,
                                                           std::uint64_t firstTile, std::uint64_t tiles,
                                                           std::uint64_t workspace);
// `subBlock` of `aivPerGroup` AIVs takes an equal share of every tile's q rows.
std::unique_ptr<InstructionStream> makeAttentionVectorStream(std::shared_ptr<const AttentionProblem> problem,
                                                             std::uint64_t firstTile, std::uint64_t tiles,
                                                             std::uint64_t workspace, std::uint32_t subBlock,
                                                             std::uint32_t aivPerGroup);

// UB bytes one AIV's program uses (for the lowering's capacity check).
std::uint64_t attentionVectorUbBytes(const AttentionProblem& problem, std::uint32_t aivPerGroup);

}  // namespace ascendsim

// The AIC side of FlashAttention (flash_attention_plan.h): S_j = Q·K_jᵀ and O_j = P_j·V_j per KV
// block, with L1/L0/L0C slots and flags as in the cube pipeline (cube_tiling.h).
#include <algorithm>

#include "models/kernels/attention/attention_cube_steps.h"
#include "models/kernels/attention/flash_attention_plan.h"
#include "models/kernels/tiling/cube_tiling.h"

namespace ascendsim {

namespace {
constexpr std::uint32_t kTileScalarCycles = 24;   // [I] per-tile address and loop setup
constexpr std::uint32_t kBlockScalarCycles = 8;   // [I] per KV block
constexpr std::uint64_t kL1SlotBytes = 96 * 1024;  // K or (P + V) of one block, 128 rows × 128 × fp16 × 3
constexpr std::uint64_t kL1QOffset = 2 * kL1SlotBytes;
constexpr std::uint8_t kQEvent = 2;

class AttentionCubeStream final : public TiledInstructionStream {
public:
    AttentionCubeStream(std::shared_ptr<const AttentionProblem> p, std::uint64_t firstTile, std::uint64_t tiles,
                        std::uint64_t workspace)
        : p_(std::move(p)), firstTile_(firstTile), tiles_(tiles), workspace_(workspace),
          kv_(0, kL1SlotBytes, Pipe::Mte2, Pipe::Mte1, 0), q_(kL1QOffset, 0, Pipe::Mte2, Pipe::Mte1, kQEvent, 1) {}

protected:
    std::uint64_t tileCount() const override { return tiles_; }
    void emitPrologue(ProgramBuilder& b) override {
        b.scalar(64, 4);
        if (tiles_ == 0) return;
        kv_.prime(b);
        q_.prime(b);
        steps_.prime(b);
    }
    void emitEpilogue(ProgramBuilder& b) override {
        if (tiles_ == 0) return;
        kv_.drain(b);
        q_.drain(b);
        steps_.drain(b);
    }

    void emitTile(std::uint64_t localTile, ProgramBuilder& b) override {
        const AttentionProblem& p = *p_;
        const AttentionTile t = attentionTile(p, firstTile_ + localTile);
        const std::uint64_t eb = bytesOf(p.dtype), d = p.headDim;
        b.scalar(kTileScalarCycles, 2);
        q_.acquire(b);
        b.copy2d(MemSpace::GM, p.qAddr + p.qRow(t.head, t.q0) * eb, MemSpace::L1, q_.address(), t.rows,
                 static_cast<std::uint32_t>(d * eb), p.qStrides.row * eb, d * eb, kAttentionOperandLoad);
        q_.publish(b);
        q_.consume(b);
        // One block ahead: S_{j+1} goes out before the AIC waits for P_j (flash_attention_plan.h).
        const std::uint64_t blocks = p.kvBlocksFor(t.q0, t.rows);
        if (blocks > 0) emitScores(b, t, 0);
        for (std::uint64_t j = 0; j < blocks; ++j) {
            if (j + 1 < blocks) emitScores(b, t, j + 1);
            emitValues(b, t, j);
        }
        q_.release(b);
    }

private:
    std::uint32_t blockLength(std::uint64_t j) const {
        return static_cast<std::uint32_t>(std::min<std::uint64_t>(p_->kvBlock, p_->kvLen - j * p_->kvBlock));
    }
    // Rows [k0, k0 + len) of the K or V head tile `t` reads (base `tensor`) into L1 at `l1`, dense.
    void loadKvRows(ProgramBuilder& b, std::uint64_t tensor, const AttentionTile& t, std::uint64_t k0, std::uint32_t len,
                    std::uint64_t l1) const {
        const std::uint64_t eb = bytesOf(p_->dtype), d = p_->headDim;
        b.copy2d(MemSpace::GM, tensor + p_->kvRow(t.head, k0) * eb, MemSpace::L1, l1, len,
                 static_cast<std::uint32_t>(d * eb), p_->kvStrides.row * eb, d * eb, kAttentionOperandLoad);
    }
    // S_j = Q · K_jᵀ (L0B holds K_j as n×k) into S slot j, then flag 0.
    void emitScores(ProgramBuilder& b, const AttentionTile& t, std::uint64_t j) {
        const AttentionProblem& p = *p_;
        const std::uint64_t eb = bytesOf(p.dtype), d = p.headDim, k0 = j * p.kvBlock;
        const std::uint32_t len = blockLength(j);
        b.scalar(kBlockScalarCycles);
        kv_.acquire(b);
        loadKvRows(b, p.kAddr, t, k0, len, kv_.address());
        kv_.publish(b);
        kv_.consume(b);
        steps_.gemm(b, attentionMmad(t.rows, len, static_cast<std::uint32_t>(d), p.dtype, true), q_.address(),
                    t.rows * d * eb, kv_.address(), len * d * eb);
        kv_.release(b);
        steps_.store(b, workspace_ + p.sSlot(j), t.rows, len);
        b.crossCoreSet(kFlagScoresReady, kCrossCoreMode, Pipe::FixPipe);
    }
    // O_j = P_j · V_j once both AIVs have written their halves of P_j, into O slot j, then flag 2.
    void emitValues(ProgramBuilder& b, const AttentionTile& t, std::uint64_t j) {
        const AttentionProblem& p = *p_;
        const std::uint64_t eb = bytesOf(p.dtype), d = p.headDim, k0 = j * p.kvBlock;
        const std::uint32_t len = blockLength(j);
        b.pollCrossCore(kFlagProbsReady, kCrossCoreMode);  // the KFC matmul server polls for the request
        kv_.acquire(b);
        const std::uint64_t pBytes = std::uint64_t{t.rows} * len * eb;
        const std::uint64_t vL1 = kv_.address() + roundUp(pBytes, 512);
        // P is ND in the workspace (the AIVs write rows), converted like Q, K and V.
        b.copy2d(MemSpace::GM, workspace_ + p.pSlot(j), MemSpace::L1, kv_.address(), 1,
                 static_cast<std::uint32_t>(pBytes), pBytes, pBytes, kAttentionOperandLoad);
        loadKvRows(b, p.vAddr, t, k0, len, vL1);
        kv_.publish(b);
        kv_.consume(b);
        steps_.gemm(b, attentionMmad(t.rows, static_cast<std::uint32_t>(d), len, p.dtype), kv_.address(), pBytes, vL1,
                    len * d * eb);
        kv_.release(b);
        steps_.store(b, workspace_ + p.oSlot(j), t.rows, static_cast<std::uint32_t>(d));
        b.crossCoreSet(kFlagOutputReady, kCrossCoreMode, Pipe::FixPipe);
    }
    std::shared_ptr<const AttentionProblem> p_;
    std::uint64_t firstTile_, tiles_, workspace_;
    PingPongBuffer kv_, q_;
    AttentionCubeSteps steps_;
};
}  // namespace

AttentionTile attentionTile(const AttentionProblem& p, std::uint64_t tile) {
    AttentionTile t;
    t.head = tile / p.qBlocks();
    t.q0 = (tile % p.qBlocks()) * p.qBlock;
    t.rows = static_cast<std::uint32_t>(std::min<std::uint64_t>(p.qBlock, p.qLen - t.q0));
    return t;
}

std::unique_ptr<InstructionStream> makeAttentionCubeStream(std::shared_ptr<const AttentionProblem> problem,
                                                           std::uint64_t firstTile, std::uint64_t tiles,
                                                           std::uint64_t workspace) {
    return std::make_unique<AttentionCubeStream>(std::move(problem), firstTile, tiles, workspace);
}

}  // namespace ascendsim

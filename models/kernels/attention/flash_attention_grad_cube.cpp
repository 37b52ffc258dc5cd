// The AIC side of FlashAttentionScoreGrad (flash_attention_grad_plan.h): five GEMMs per KV
// block with Q_i/dO_i resident in L1 for the tile, K_j/V_j and P/dS double-buffered in L1, L0A/L0B
// and L0C slots as in the cube pipeline (cube_tiling.h).
#include <algorithm>

#include "models/kernels/attention/attention_cube_steps.h"
#include "models/kernels/attention/flash_attention_grad_plan.h"
#include "models/kernels/tiling/cube_tiling.h"

namespace ascendsim {

namespace {
constexpr std::uint32_t kTileScalarCycles = 24;   // [I] per-tile address and loop setup (as FlashAttention)
constexpr std::uint32_t kBlockScalarCycles = 16;  // [I] per KV block: five GEMMs' addresses
constexpr std::uint64_t kL1HalfBytes = 32 * 1024;  // one 128 × 128 fp16/bf16 operand
constexpr std::uint64_t kL1PairBytes = 2 * kL1HalfBytes;
constexpr std::uint64_t kL1KvBase = 0;                    // 2 slots: K_j | V_j
constexpr std::uint64_t kL1ProbBase = 2 * kL1PairBytes;   // 2 slots: P | dS
constexpr std::uint64_t kL1QBase = 4 * kL1PairBytes;      // 1 slot: Q_i | dO_i
constexpr std::uint8_t kKvEvent = 0, kQEvent = 2, kProbEvent = 3;

class AttentionGradCubeStream final : public TiledInstructionStream {
public:
    AttentionGradCubeStream(std::shared_ptr<const AttentionGradProblem> p, std::uint32_t group, std::uint64_t firstTile,
                            std::uint64_t tiles)
        : p_(std::move(p)), group_(group), firstTile_(firstTile), tiles_(tiles),
          kv_{PingPongBuffer(kL1KvBase, 0, Pipe::Mte2, Pipe::Mte1, kKvEvent, 1),
              PingPongBuffer(kL1KvBase + kL1PairBytes, 0, Pipe::Mte2, Pipe::Mte1, kKvEvent + 1, 1)},
          prob_(kL1ProbBase, kL1PairBytes, Pipe::Mte2, Pipe::Mte1, kProbEvent),
          q_(kL1QBase, 0, Pipe::Mte2, Pipe::Mte1, kQEvent, 1) {}

protected:
    std::uint64_t tileCount() const override { return tiles_; }
    void emitPrologue(ProgramBuilder& b) override {
        b.scalar(64, 4);
        for (PingPongBuffer* buffer : {&kv_[0], &kv_[1], &prob_, &q_}) buffer->prime(b);
        steps_.prime(b);
    }
    void emitEpilogue(ProgramBuilder& b) override {
        for (PingPongBuffer* buffer : {&kv_[0], &kv_[1], &prob_, &q_}) buffer->drain(b);
        steps_.drain(b);
        b.crossCoreSet(kGradFlagCubeDone, kGradGroupMode, Pipe::FixPipe);
    }
    void emitTile(std::uint64_t localTile, ProgramBuilder& b) override;

private:
    struct Operand {
        std::uint64_t l1;
        bool transposed;  // A: L1 holds k×m; B: L1 holds n×k
    };
    void emitGemm(ProgramBuilder& b, std::uint32_t m, std::uint32_t n, std::uint32_t k, Operand a, Operand bOperand);
    void emitScores(ProgramBuilder& b, const AttentionGradTile& t, std::uint64_t j);
    void emitGradients(ProgramBuilder& b, const AttentionGradTile& t, std::uint64_t j);
    // K_j | V_j of KV block step `step`: one single-slot buffer per parity, because the AIC loads
    // the next block's K, V while this block's K is still needed (dQ) — a two-slot ring would
    // hand the slot out in use.
    PingPongBuffer& kvSlot(std::uint64_t step) { return kv_[step % 2]; }
    // What a KV block step addresses: block j of tile t, the group's step-th block overall.
    struct KvStep {
        std::uint32_t len, dd;
        std::uint64_t kvRows;  // element offset of the block's first K/V row
        PingPongBuffer* kv;
        AttentionGradProblem::SlotSet slots;
    };
    KvStep kvStep(const AttentionGradTile& t, std::uint64_t j, std::uint64_t step) {
        const AttentionGradProblem& p = *p_;
        const std::uint64_t k0 = j * p.kvBlock;
        return {static_cast<std::uint32_t>(std::min<std::uint64_t>(p.kvBlock, p.kvLen - k0)),
                static_cast<std::uint32_t>(p.headDim), (t.kvHead * p.kvLen + k0) * p.headDim, &kvSlot(step),
                p.slotSet(group_, step)};
    }

    std::shared_ptr<const AttentionGradProblem> p_;
    std::uint32_t group_;
    std::uint64_t firstTile_, tiles_;
    PingPongBuffer kv_[2];
    PingPongBuffer prob_, q_;
    AttentionCubeSteps steps_;
    std::uint64_t scoreSteps_ = 0, gradientSteps_ = 0;  // KV block steps issued on each side
};

void AttentionGradCubeStream::emitTile(std::uint64_t localTile, ProgramBuilder& b) {
    const AttentionGradProblem& p = *p_;
    const AttentionGradTile t = attentionGradTile(p, firstTile_ + localTile);
    const std::uint64_t eb = bytesOf(p.dtype), d = p.headDim;
    const std::uint64_t qRows = (t.head * p.qLen + t.q0) * d;
    b.scalar(kTileScalarCycles, 2);
    q_.acquire(b);
    const auto qBytes = static_cast<std::uint32_t>(t.rows * d * eb);
    b.copy2d(MemSpace::GM, p.qAddr + qRows * eb, MemSpace::L1, q_.address(), 1, qBytes, qBytes, qBytes,
             kAttentionOperandLoad);
    b.copy2d(MemSpace::GM, p.dyAddr + qRows * eb, MemSpace::L1, q_.address() + kL1HalfBytes, 1, qBytes, qBytes,
             qBytes, kAttentionOperandLoad);
    q_.publish(b);
    q_.consume(b);
    // One block ahead (flash_attention_grad_plan.h): S, dP of block j+1 go out before the AIC
    // waits for P, dS of block j.
    const std::uint64_t blocks = p.kvBlocksFor(t.q0, t.rows);
    if (blocks > 0) emitScores(b, t, 0);
    for (std::uint64_t j = 0; j < blocks; ++j) {
        if (j + 1 < blocks) emitScores(b, t, j + 1);
        emitGradients(b, t, j);
    }
    q_.release(b);
}

// K_j, V_j into the L1 slot of step `step_`; S = Q·K_jᵀ and dP = dO·V_jᵀ into its workspace set,
// then flag 0.
void AttentionGradCubeStream::emitScores(ProgramBuilder& b, const AttentionGradTile& t, std::uint64_t j) {
    const AttentionGradProblem& p = *p_;
    const KvStep s = kvStep(t, j, scoreSteps_++);
    const std::uint64_t eb = bytesOf(p.dtype), d = p.headDim, kvRows = s.kvRows;
    const std::uint32_t dd = s.dd, len = s.len;
    PingPongBuffer& kv = *s.kv;
    const AttentionGradProblem::SlotSet slots = s.slots;
    b.scalar(kBlockScalarCycles);
    kv.acquire(b);
    const auto kvBytes = static_cast<std::uint32_t>(len * d * eb);
    b.copy2d(MemSpace::GM, p.kAddr + kvRows * eb, MemSpace::L1, kv.address(), 1, kvBytes, kvBytes, kvBytes,
             kAttentionOperandLoad);
    b.copy2d(MemSpace::GM, p.vAddr + kvRows * eb, MemSpace::L1, kv.address() + kL1HalfBytes, 1, kvBytes, kvBytes,
             kvBytes, kAttentionOperandLoad);
    kv.publish(b);
    kv.consume(b);
    const Operand q{q_.address(), false}, dO{q_.address() + kL1HalfBytes, false};
    emitGemm(b, t.rows, len, dd, q, {kv.address(), true});
    steps_.store(b, slots.s, t.rows, len, false);
    emitGemm(b, t.rows, len, dd, dO, {kv.address() + kL1HalfBytes, true});
    steps_.store(b, slots.dp, t.rows, len, false);
    b.crossCoreSet(kGradFlagScores, kGradGroupMode, Pipe::FixPipe);
}

// P, dS of block j back from the AIVs, then dV_j += Pᵀ·dO_i, dK_j += dSᵀ·Q_i, dQ_i += dS·K_j with
// atomic adds; frees the K/V slot of block j.
void AttentionGradCubeStream::emitGradients(ProgramBuilder& b, const AttentionGradTile& t, std::uint64_t j) {
    const AttentionGradProblem& p = *p_;
    const std::uint64_t step = gradientSteps_;
    const KvStep s = kvStep(t, j, gradientSteps_++);
    const std::uint64_t eb = bytesOf(p.dtype), kvRows = s.kvRows;
    const std::uint64_t qRows = (t.head * p.qLen + t.q0) * p.headDim;
    const std::uint32_t dd = s.dd, len = s.len;
    PingPongBuffer& kv = *s.kv;
    const AttentionGradProblem::SlotSet slots = s.slots;
    b.pollCrossCore(gradFlagProbs(step), kGradGroupMode);  // the KFC matmul server polls for the request
    prob_.acquire(b);
    const auto probBytes = static_cast<std::uint32_t>(std::uint64_t{t.rows} * len * eb);
    b.copy2d(MemSpace::GM, slots.p, MemSpace::L1, prob_.address(), 1, probBytes, probBytes, probBytes,
             kAttentionOperandLoad);
    b.copy2d(MemSpace::GM, slots.ds, MemSpace::L1, prob_.address() + kL1HalfBytes, 1, probBytes, probBytes,
             probBytes, kAttentionOperandLoad);
    prob_.publish(b);
    prob_.consume(b);
    const Operand q{q_.address(), false}, dO{q_.address() + kL1HalfBytes, false};
    const Operand probT{prob_.address(), true}, dsT{prob_.address() + kL1HalfBytes, true};
    emitGemm(b, len, dd, t.rows, probT, dO);  // dV_j += Pᵀ·dO_i
    steps_.store(b, p.dvWorkspace() + kvRows * 4, len, dd, true);
    emitGemm(b, len, dd, t.rows, dsT, q);  // dK_j += dSᵀ·Q_i
    steps_.store(b, p.dkWorkspace() + kvRows * 4, len, dd, true);
    emitGemm(b, t.rows, dd, len, {prob_.address() + kL1HalfBytes, false}, {kv.address(), false});  // dQ_i += dS·K_j
    steps_.store(b, p.dqWorkspace() + qRows * 4, t.rows, dd, true);
    prob_.release(b);
    kv.release(b);
}

// One L0 step (every operand here is at most 128 × 128).
void AttentionGradCubeStream::emitGemm(ProgramBuilder& b, std::uint32_t m, std::uint32_t n, std::uint32_t k, Operand a,
                                       Operand bOperand) {
    const std::uint64_t eb = bytesOf(p_->dtype);
    Mmad mmad;
    mmad.m = static_cast<std::uint16_t>(m);
    mmad.n = static_cast<std::uint16_t>(n);
    mmad.k = static_cast<std::uint16_t>(k);
    mmad.dtype = p_->dtype;
    mmad.transposeA = a.transposed;
    mmad.transposeB = bOperand.transposed;
    steps_.gemm(b, mmad, a.l1, std::uint64_t{m} * k * eb, bOperand.l1, std::uint64_t{k} * n * eb);
}
}  // namespace

AttentionGradTile attentionGradTile(const AttentionGradProblem& p, std::uint64_t tile) {
    AttentionGradTile t;
    t.head = tile / p.qBlocks();
    const std::uint64_t batch = t.head / p.heads, head = t.head % p.heads;
    t.kvHead = batch * p.kvHeads + head / p.groupSize();
    t.q0 = (tile % p.qBlocks()) * p.qBlock;
    t.rows = static_cast<std::uint32_t>(std::min<std::uint64_t>(p.qBlock, p.qLen - t.q0));
    return t;
}

std::unique_ptr<InstructionStream> makeAttentionGradCubeStream(std::shared_ptr<const AttentionGradProblem> problem,
                                                               std::uint32_t group, std::uint64_t firstTile,
                                                               std::uint64_t tiles) {
    return std::make_unique<AttentionGradCubeStream>(std::move(problem), group, firstTile, tiles);
}

}  // namespace ascendsim

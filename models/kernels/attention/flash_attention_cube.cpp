// The AIC side of FlashAttention (flash_attention_plan.h): S_j = Q·K_jᵀ and O_j = P_j·V_j per KV
// block, with L1/L0/L0C slots and flags as in the cube pipeline (cube_tiling.h).
#include <algorithm>

#include "models/kernels/tiling/cube_tiling.h"
#include "models/kernels/attention/flash_attention_plan.h"

namespace ascendsim {

namespace {
constexpr std::uint32_t kTileScalarCycles = 24;   // [I] per-tile address and loop setup
constexpr std::uint32_t kBlockScalarCycles = 8;   // [I] per KV block
constexpr std::uint64_t kL1SlotBytes = 96 * 1024;  // K or (P + V) of one block, 128 rows × 128 × fp16 × 3
constexpr std::uint64_t kL1QOffset = 2 * kL1SlotBytes;
constexpr std::uint64_t kL0SlotBytes = 32 * 1024;  // 128 × 128 fp16
constexpr std::uint64_t kL0cSlotBytes = 64 * 1024;  // 128 × 128 fp32
constexpr std::uint8_t kQEvent = 2;

class AttentionCubeStream final : public TiledInstructionStream {
public:
    AttentionCubeStream(std::shared_ptr<const AttentionProblem> p, std::uint64_t firstTile, std::uint64_t tiles,
                        std::uint64_t workspace)
        : p_(std::move(p)), firstTile_(firstTile), tiles_(tiles), workspace_(workspace),
          kv_(0, kL1SlotBytes, Pipe::Mte2, Pipe::Mte1, 0), q_(kL1QOffset, 0, Pipe::Mte2, Pipe::Mte1, kQEvent, 1),
          l0_(0, kL0SlotBytes, Pipe::Mte1, Pipe::Cube, 0), l0c_(0, kL0cSlotBytes, Pipe::Cube, Pipe::FixPipe, 0) {}

protected:
    std::uint64_t tileCount() const override { return tiles_; }
    void emitPrologue(ProgramBuilder& b) override {
        b.scalar(64, 4);
        if (tiles_ == 0) return;
        kv_.prime(b);
        q_.prime(b);
        l0_.prime(b);
        l0c_.prime(b);
    }
    void emitEpilogue(ProgramBuilder& b) override {
        if (tiles_ == 0) return;
        kv_.drain(b);
        q_.drain(b);
        l0_.drain(b);
        l0c_.drain(b);
    }

    void emitTile(std::uint64_t localTile, ProgramBuilder& b) override {
        const AttentionProblem& p = *p_;
        const AttentionTile t = attentionTile(p, firstTile_ + localTile);
        const std::uint64_t eb = bytesOf(p.dtype), d = p.headDim;
        b.scalar(kTileScalarCycles, 2);
        q_.acquire(b);
        b.copy(MemSpace::GM, p.qAddr + (t.head * p.qLen + t.q0) * d * eb, MemSpace::L1, q_.address(),
               static_cast<std::uint32_t>(t.rows * d * eb));
        q_.publish(b);
        q_.consume(b);
        const std::uint64_t kvHead = p.kvHeadOf(t.head) * p.kvRowsStored * d * eb;
        const std::uint64_t blocks = p.kvBlocksFor(t.q0, t.rows);
        for (std::uint64_t j = 0; j < blocks; ++j) {
            const std::uint64_t k0 = j * p.kvBlock;
            const auto len = static_cast<std::uint32_t>(std::min<std::uint64_t>(p.kvBlock, p.kvLen - k0));
            b.scalar(kBlockScalarCycles);
            // S_j = Q · K_jᵀ  (L0B holds K_j as n×k)
            kv_.acquire(b);
            b.copy(MemSpace::GM, p.kAddr + kvHead + k0 * d * eb, MemSpace::L1, kv_.address(),
                   static_cast<std::uint32_t>(len * d * eb));
            kv_.publish(b);
            kv_.consume(b);
            Mmad scores;
            scores.m = static_cast<std::uint16_t>(t.rows);
            scores.n = static_cast<std::uint16_t>(len);
            scores.k = static_cast<std::uint16_t>(d);
            scores.dtype = p.dtype;
            scores.transposeB = true;
            emitMmad(b, scores, q_.address(), t.rows * d * eb, kv_.address(), len * d * eb);
            kv_.release(b);
            storeToWorkspace(b, workspace_, t.rows, len);
            b.crossCoreSet(kFlagScoresReady, kCrossCoreMode, Pipe::FixPipe);

            // O_j = P_j · V_j once both AIVs have written their halves of P_j.
            b.crossCoreWait(kFlagProbsReady, kCrossCoreMode);
            kv_.acquire(b);
            const std::uint64_t pBytes = std::uint64_t{t.rows} * len * eb;
            const std::uint64_t vL1 = kv_.address() + roundUp(pBytes, 512);
            b.copy(MemSpace::GM, workspace_ + p.sSlotBytes(), MemSpace::L1, kv_.address(), static_cast<std::uint32_t>(pBytes));
            b.copy(MemSpace::GM, p.vAddr + kvHead + k0 * d * eb, MemSpace::L1, vL1, static_cast<std::uint32_t>(len * d * eb));
            kv_.publish(b);
            kv_.consume(b);
            Mmad values;
            values.m = static_cast<std::uint16_t>(t.rows);
            values.n = static_cast<std::uint16_t>(d);
            values.k = static_cast<std::uint16_t>(len);
            values.dtype = p.dtype;
            emitMmad(b, values, kv_.address(), pBytes, vL1, len * d * eb);
            kv_.release(b);
            storeToWorkspace(b, workspace_ + p.sSlotBytes() + p.pSlotBytes(), t.rows, static_cast<std::uint32_t>(d));
            b.crossCoreSet(kFlagOutputReady, kCrossCoreMode, Pipe::FixPipe);
        }
        q_.release(b);
    }

private:
    // One L0 step: both operands L1→L0 (dense tiles), then a fresh accumulation into an L0C slot.
    void emitMmad(ProgramBuilder& b, Mmad mmad, std::uint64_t aL1, std::uint64_t aBytes, std::uint64_t bL1,
                  std::uint64_t bBytes) {
        l0_.acquire(b);
        mmad.l0aAddr = l0_.address();
        mmad.l0bAddr = l0_.address();
        b.copy(MemSpace::L1, aL1, MemSpace::L0A, mmad.l0aAddr, static_cast<std::uint32_t>(aBytes));
        b.copy(MemSpace::L1, bL1, MemSpace::L0B, mmad.l0bAddr, static_cast<std::uint32_t>(bBytes));
        l0_.publish(b);
        l0_.consume(b);
        l0c_.acquire(b);
        mmad.l0cAddr = l0c_.address();
        mmad.initialize = true;
        b.mmad(mmad);
        l0_.release(b);
        l0c_.publish(b);
        l0c_.consume(b);
    }
    // FixPipe: the fp32 [rows × cols] L0C tile of the last mmad to a dense workspace slot.
    void storeToWorkspace(ProgramBuilder& b, std::uint64_t addr, std::uint32_t rows, std::uint32_t cols) {
        DataMove m;
        m.src = MemSpace::L0C;
        m.dst = MemSpace::GM;
        m.srcAddr = l0c_.address();
        m.dstAddr = addr;
        m.burstBytes = rows * cols * 4;
        m.srcType = m.dstType = DataType::Fp32;
        m.conversion = LayoutConversion::Nz2Nd;
        b.move(m);
        l0c_.release(b);
    }

    std::shared_ptr<const AttentionProblem> p_;
    std::uint64_t firstTile_, tiles_, workspace_;
    PingPongBuffer kv_, q_, l0_, l0c_;
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

// The block program of the cube pipeline (cube_tiling.h): a block's prologue, tile and chunk loops,
// L0 steps, bias and stores. Where the chunks sit in L1 and the flags that fill and free them are
// in cube_block_l1_chunks.cpp; the coupled chips' store through UB is in cube_block_output_ub.cpp;
// the kernel-level helpers (block dim, tile ranges, plan fits) are in cube_kernel_plan.cpp.
#include "models/kernels/tiling/cube_tiling.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "models/kernels/tiling/cube_block_event_ids.h"
#include "models/kernels/tiling/cube_block_l1_chunks.h"
#include "models/kernels/tiling/cube_block_output_ub.h"

namespace ascendsim {

namespace {
// Scalar-unit work per loop level (address arithmetic, loop control, tiling-data loads).
// [I] estimates: a handful of scalar instructions per level, as an Ascend C matmul loop compiles to.
constexpr std::uint32_t kKernelSetupScalarCycles = 64;
constexpr std::uint32_t kTileSetupScalarCycles = 24;
constexpr std::uint32_t kChunkScalarCycles = 8;
constexpr std::uint32_t kStepScalarCycles = 4;

// Event ids of the block's buffers: cube_block_event_ids.h.
// L0C regions of a group sharing B each take an event id of their own (kSlotEvents + j), below the
// bias's and the framework's ids.
constexpr std::uint32_t kMaxTilesSharingB = 2;

class CubeBlockStream final : public TiledInstructionStream {
public:
    CubeBlockStream(std::shared_ptr<const CubeOperands> operands, const CubeBufferPlan& plan,
                    CubeStepSizes sizes, std::uint64_t firstTile, std::uint64_t tiles)
        : ops_(std::move(operands)), plan_(plan), sizes_(sizes), firstTile_(firstTile), tiles_(tiles),
          l1_(ops_, plan, firstTile, tiles),
          l0_(0, 0, Pipe::Mte1, Pipe::Cube, kSlotEvents),
          l0c_(0, plan.l0cSlotBytes, Pipe::Cube, plan.outputThroughUb ? Pipe::Vector : Pipe::FixPipe, kSlotEvents,
               plan.l0cSlots),
          biasStaging_(plan.l1BiasAddr, 0, Pipe::Mte2, Pipe::Mte1, kBiasEvent, 1),
          biasTable_(0, 0, Pipe::Mte1, Pipe::Cube, kBiasEvent, 1),
          outputUb_(ops_, plan),
          l0aFromGm_(0, 0, Pipe::Mte2, Pipe::Cube, kSlotEvents, 1) {
        if (plan.l1Slots > 2 && (plan.l1Slots > kMaxL1Slots || plan.residentA || plan.residentBRuns ||
                                 plan.ownOperandSlots() || plan.sharesB() || (ops_->hasBias() && !plan.outputThroughUb)))
            throw std::logic_error("a cube plan with " + std::to_string(plan.l1Slots) + " L1 slots needs at most " +
                                   std::to_string(kMaxL1Slots) +
                                   ", no resident or own-slot A, no shared B and no bias staged in L1");
        if (plan.residentB && (plan.residentA || plan.ownOperandSlots() || plan.sharesB()))
            throw std::logic_error("a cube plan with a resident B has no resident or own-slot A and no shared B");
        if (plan.residentBRuns && (plan.residentA || plan.ownOperandSlots() || plan.sharesB() || plan.residentB ||
                                   plan.blockResidentB || plan.residentBRunRegions == 0 || plan.residentBRunRegions > 2))
            throw std::logic_error("a cube plan with resident B runs has no resident or own-slot A, no shared, resident "
                                   "or block-resident B");
        if (plan.blockResidentB) l1_.placeBlockB();
        if (!plan.sharesB()) return;
        if (plan.residentA || plan.ownOperandSlots() || plan.tilesSharingB == 0 ||
            plan.tilesSharingB > kMaxTilesSharingB)
            throw std::logic_error("a cube plan sharing B needs 1-" + std::to_string(kMaxTilesSharingB) +
                                   " tiles a group and no resident or own-slot A");
        for (std::uint32_t j = 0; j < plan.tilesSharingB; ++j)
            l0cRegions_.emplace_back(j * plan.l0cSlotBytes, 0, Pipe::Cube,
                                     plan.outputThroughUb ? Pipe::Vector : Pipe::FixPipe,
                                     static_cast<std::uint8_t>(kSlotEvents + j), 1);
    }

protected:
    std::uint64_t tileCount() const override { return tiles_; }

    void emitPrologue(ProgramBuilder& b) override {
        b.scalar(kKernelSetupScalarCycles, 4);
        if (tiles_ == 0) return;  // an idle block only reads its tiling data
        l1_.prime(b);
        l0_.prime(b);
        primeOutputBuffers(b);
        outputUb_.prime(b);
        if (ops_->hasBias() && !plan_.outputThroughUb) {
            biasStaging_.prime(b);
            biasTable_.prime(b);
        }
        for (std::uint64_t t = 0; t < std::min<std::uint64_t>(tiles_, tilesLoadedAhead()); ++t) l1_.loadChunk(t, 0, b);
    }

    void emitEpilogue(ProgramBuilder& b) override {
        if (tiles_ == 0) return;
        l1_.drain(b);
        l0_.drain(b);
        drainOutputBuffers(b);
        outputUb_.drain(b);
        if (ops_->hasBias() && !plan_.outputThroughUb) {
            biasStaging_.drain(b);
            biasTable_.drain(b);
        }
    }

    void emitTile(std::uint64_t localTile, ProgramBuilder& b) override {
        if (plan_.sharesB()) {
            if (localTile >= groupEnd_) emitSharedBGroup(localTile, b);  // else its group emitted it
            return;
        }
        const std::uint64_t tile = firstTile_ + localTile;
        const bool coupled = plan_.outputThroughUb;
        const bool bias = ops_->hasBias() && !coupled;  // through BT (split chips)
        const bool ubBias = ops_->hasBias() && coupled;
        b.scalar(kTileSetupScalarCycles, 2);
        if (ubBias) outputUb_.loadBiasToUb(tile, b);
        if (outputUb_.epilogueOperand()) outputUb_.loadEpilogueOperand(tile, b);
        if (bias) {
            biasStaging_.acquire(b);
            ops_->loadBias(tile, plan_.l1BiasAddr, b);
            biasStaging_.publish(b);
        }
        Mmad mmad;
        mmad.m = static_cast<std::uint16_t>(ops_->tileM(tile));
        mmad.n = static_cast<std::uint16_t>(ops_->tileN(tile));
        bool firstStep = true;
        const std::uint32_t chunks = ops_->chunkCount(tile);
        const bool nextTile = localTile + 1 < tiles_;
        // A new resident A may only be loaded once this tile's last step has read the old one.
        const bool nextLoadsA = plan_.residentA && nextTile && l1_.loadsA(localTile + 1);
        // Likewise a new resident B run (CubeBufferPlan::residentBRuns), unless it has a region of its own.
        const bool nextLoadsB = plan_.residentBRuns && nextTile && l1_.loadsB(localTile + 1);
        const bool nextWaitsForB = nextLoadsB && plan_.residentBRunRegions == 1;
        // The load after chunk c: issued ahead of c's steps with two L1 slots (the preload below);
        // with one it can only follow c's release, and is issued there.
        const bool preload = plan_.l1Slots > 1;
        if (plan_.l1Slots > 2 && chunks != 1)
            throw std::logic_error("a cube plan with more than two L1 slots needs one chunk a tile");
        auto loadAfter = [&](std::uint32_t c) {
            if (plan_.l1Slots > 2) {  // one chunk a tile: the tile tilesLoadedAhead() on
                if (localTile + tilesLoadedAhead() < tiles_) l1_.loadChunk(localTile + tilesLoadedAhead(), 0, b);
            } else if (c + 1 < chunks) {
                l1_.loadChunk(localTile, c + 1, b);
            } else if (nextTile && !nextLoadsA && !nextWaitsForB) {
                l1_.loadChunk(localTile + 1, 0, b);
            }
        };
        for (std::uint32_t c = 0; c < chunks; ++c) {
            b.scalar(kChunkScalarCycles);
            if (preload) loadAfter(c);
            CubeStep step = l1_.chunkStep(tile, c);
            const CubeL1Chunk place = l1_.consumeChunk(c, localTile, b);
            if (bias && c == 0) {
                biasStaging_.consume(b);
                biasTable_.acquire(b);
                ops_->moveBiasToTable(tile, plan_.l1BiasAddr, 0, b);
                biasStaging_.release(b);
                biasTable_.publish(b);
            }
            for (std::uint32_t offset = 0; offset < step.chunkLength; offset += sizes_.baseK) {
                step.offset = offset;
                step.length = std::min(sizes_.baseK, step.chunkLength - offset);
                b.scalar(kStepScalarCycles);
                l0_.acquire(b);
                mmad.k = static_cast<std::uint16_t>(step.length);
                mmad.l0aAddr = l0_.slot() * plan_.l0aSlotBytes;
                mmad.l0bAddr = l0_.slot() * plan_.l0bSlotBytes;
                mmad.l0cAddr = l0c_.address();
                ops_->loadStep(tile, step, place, mmad.l0aAddr, mmad.l0bAddr, mmad, b);
                l0_.publish(b);
                l0_.consume(b);
                if (firstStep) {
                    l0c_.acquire(b);
                    if (bias) biasTable_.consume(b);
                }
                mmad.initialize = firstStep;
                mmad.addBiasFromTable = bias && firstStep;
                mmad.biasAddr = 0;
                b.mmad(mmad);
                if (firstStep && bias) biasTable_.release(b);
                firstStep = false;
                l0_.release(b);
            }
            l1_.releaseChunk(c, chunks, b);
            if (!preload) loadAfter(c);
        }
        if (plan_.residentA && (nextLoadsA || !nextTile)) l1_.releaseResidentA(b);
        if (plan_.residentBRuns && (nextLoadsB || !nextTile)) l1_.releaseResidentBRun(b);
        if (nextLoadsA || nextWaitsForB) l1_.loadChunk(localTile + 1, 0, b);
        storeTile(tile, ubBias, l0c_, b);
        if (plan_.tilesOneAfterAnother && nextTile) b.barrier(Pipe::All);
    }

    // The tile's L0C accumulator (in `l0c`, published by the cube) out to GM: FixPipe, or on a
    // coupled chip through UB.
    void storeTile(std::uint64_t tile, bool addBias, PingPongBuffer& l0c, ProgramBuilder& b) {
        l0c.publish(b);
        l0c.consume(b);
        if (plan_.storesWithoutUnitFlag) b.lastFlag().unitFlag = false;
        if (plan_.outputThroughUb) {
            outputUb_.storeThroughUb(tile, addBias, l0c, b);
        } else {
            b.move(ops_->storeMove(tile, l0c.address()));
            l0c.release(b);
        }
    }

    // The buffers whose flags a block primes first and drains last: L0C, or with tiles sharing B
    // the GM -> L0A buffer and every L0C region.
    template <typename Visit>
    void forEachOutputBuffer(Visit&& visit) {
        if (!plan_.sharesB()) {
            visit(l0c_);
            return;
        }
        visit(l0aFromGm_);
        for (auto& region : l0cRegions_) visit(region);
    }

    void primeOutputBuffers(ProgramBuilder& b) {
        forEachOutputBuffer([&b](auto& buffer) { buffer.prime(b); });
    }

    void drainOutputBuffers(ProgramBuilder& b) {
        forEachOutputBuffer([&b](auto& buffer) { buffer.drain(b); });
    }

    // A group of tiles sharing B (CubeBufferPlan::aFromGm): the tiles from `localTile` on with the
    // same B, at most tilesSharingB. Each L0 step fills L0B once (MTE1, from the chunk's B in L1),
    // then for every tile of the group MTE2 moves its A step GM→L0A (one buffer: the load waits for
    // the mmad before it) and the cube accumulates into the tile's own L0C region; the group's
    // tiles are stored after its last step, in order.
    void emitSharedBGroup(std::uint64_t localTile, ProgramBuilder& b) {
        const std::uint64_t first = firstTile_ + localTile;
        if (ops_->hasBias()) throw std::logic_error("a cube plan sharing B carries no bias");
        std::uint32_t members = 1;
        while (members < plan_.tilesSharingB && localTile + members < tiles_ &&
               ops_->bColumnsOf(first + members) == ops_->bColumnsOf(first))
            ++members;
        groupEnd_ = localTile + members;
        b.scalar(kTileSetupScalarCycles);
        const std::uint32_t chunks = ops_->chunkCount(first);
        const bool preload = plan_.l1Slots > 1;
        auto loadAfter = [&](std::uint32_t c) {
            if (c + 1 < chunks)
                l1_.loadChunk(localTile, c + 1, b);
            else if (groupEnd_ < tiles_)
                l1_.loadChunk(groupEnd_, 0, b);
        };
        bool firstStep = true;
        for (std::uint32_t c = 0; c < chunks; ++c) {
            b.scalar(kChunkScalarCycles);
            if (preload) loadAfter(c);
            CubeStep step = l1_.chunkStep(first, c);
            const CubeL1Chunk place = l1_.consumeChunk(c, localTile, b);
            for (std::uint32_t offset = 0; offset < step.chunkLength; offset += sizes_.baseK) {
                step.offset = offset;
                step.length = std::min(sizes_.baseK, step.chunkLength - offset);
                b.scalar(kStepScalarCycles);
                Mmad mmad;
                mmad.k = static_cast<std::uint16_t>(step.length);
                mmad.l0bAddr = l0_.slot() * plan_.l0bSlotBytes;
                l0_.acquire(b);
                ops_->loadStepB(first, step, place, mmad.l0bAddr, mmad, b);
                l0_.publish(b);
                l0_.consume(b);
                for (std::uint32_t j = 0; j < members; ++j) {
                    const std::uint64_t tile = first + j;
                    mmad.m = static_cast<std::uint16_t>(ops_->tileM(tile));
                    mmad.n = static_cast<std::uint16_t>(ops_->tileN(tile));
                    mmad.l0aAddr = l0aFromGm_.address();
                    mmad.l0cAddr = l0cRegions_[j].address();
                    l0aFromGm_.acquire(b);
                    ops_->loadStepAFromGm(tile, step, mmad.l0aAddr, mmad, b);
                    l0aFromGm_.publish(b);
                    l0aFromGm_.consume(b);
                    if (firstStep) l0cRegions_[j].acquire(b);
                    mmad.initialize = firstStep;
                    b.mmad(mmad);
                    l0aFromGm_.release(b);
                }
                firstStep = false;
                l0_.release(b);
            }
            l1_.releaseChunk(c, chunks, b);
            if (!preload) loadAfter(c);
        }
        for (std::uint32_t j = 0; j < members; ++j) storeTile(first + j, false, l0cRegions_[j], b);
    }

private:
    std::shared_ptr<const CubeOperands> ops_;
    CubeBufferPlan plan_;
    CubeStepSizes sizes_;
    std::uint64_t firstTile_;
    std::uint64_t tiles_;
    // Tiles (one chunk each) whose loads the prologue issues and each tile keeps ahead of it: one
    // with two L1 slots (the preload), l1Slots − 1 with more.
    std::uint64_t tilesLoadedAhead() const { return plan_.l1Slots > 2 ? plan_.l1Slots - 1 : 1; }

    CubeBlockL1Chunks l1_;  // the chunks' L1 places, MTE2 loads and MTE2↔MTE1 flags
    PingPongBuffer l0_;
    PingPongBuffer l0c_;
    PingPongBuffer biasStaging_;
    PingPongBuffer biasTable_;
    CubeBlockOutputUb outputUb_;  // plan.outputThroughUb (coupled chips): the tile's way out through UB
    PingPongBuffer l0aFromGm_;                 // plan.aFromGm: one L0A buffer, MTE2→M "ready", M→MTE2 "free"
    std::vector<PingPongBuffer> l0cRegions_;   // plan.sharesB(): one L0C region per tile of a group
    std::uint64_t groupEnd_ = 0;               // local tile after the group emitted last
};
}  // namespace

std::unique_ptr<InstructionStream> makeCubeBlockStream(std::shared_ptr<const CubeOperands> operands,
                                                       CubeBufferPlan plan, CubeStepSizes sizes,
                                                       std::uint64_t firstTile, std::uint64_t tiles) {
    return std::make_unique<CubeBlockStream>(std::move(operands), plan, sizes, firstTile, tiles);
}

void CubeOperands::blockTiles(std::uint32_t blockDim, std::uint32_t block, std::uint64_t& first,
                              std::uint64_t& count) const {
    blockTileRange(tileCount(), blockDim, block, first, count);
}

void CubeOperands::loadStepB(std::uint64_t, const CubeStep&, const CubeL1Chunk&, std::uint64_t, Mmad&,
                             ProgramBuilder&) const {
    throw std::logic_error("these cube operands do not load B on its own (no plan shares B)");
}

void CubeOperands::loadStepAFromGm(std::uint64_t, const CubeStep&, std::uint64_t, Mmad&, ProgramBuilder&) const {
    throw std::logic_error("these cube operands do not load A from GM (no plan shares B)");
}

}  // namespace ascendsim

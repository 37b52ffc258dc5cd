// The L1 side of the cube block program (cube_block_l1_chunks.h), moved out of cube_tiling.cpp with
// its bodies unchanged.
#include "models/kernels/tiling/cube_block_l1_chunks.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "models/kernels/tiling/cube_block_event_ids.h"

namespace ascendsim {

CubeBlockL1Chunks::CubeBlockL1Chunks(std::shared_ptr<const CubeOperands> operands, const CubeBufferPlan& plan,
                                     std::uint64_t firstTile, std::uint64_t tiles)
    : ops_(std::move(operands)), plan_(plan), firstTile_(firstTile), tiles_(tiles),
      l1Slots_(l1SlotBuffers(plan)),
      aSlots_{PingPongBuffer(plan.l1ASlotAddr, 0, Pipe::Mte2, Pipe::Mte1, kOwnASlotEvents, 1),
              PingPongBuffer(plan.l1ASlotAddr + plan.l1ASlotBytes, 0, Pipe::Mte2, Pipe::Mte1, kOwnASlotEvents + 1,
                             1)},
      residentA_(plan.l1ResidentAAddr, 0, Pipe::Mte2, Pipe::Mte1, kResidentAEvent, 1),
      // Resident B runs take resident A's event and own-slot A's first: neither shares their plan.
      residentBRuns_{PingPongBuffer(plan.l1ResidentBAddr, 0, Pipe::Mte2, Pipe::Mte1, kResidentAEvent, 1),
                     PingPongBuffer(plan.l1ResidentBAddr + plan.l1ResidentBRunBytes, 0, Pipe::Mte2, Pipe::Mte1,
                                    kOwnASlotEvents, 1)} {}

void CubeBlockL1Chunks::prime(ProgramBuilder& b) const {
    for (std::uint32_t s = 0; s < plan_.l1Slots; ++s) l1Slots_[s].prime(b);
    if (plan_.ownOperandSlots())
        for (auto& slot : aSlots_) slot.prime(b);
    if (plan_.residentA) residentA_.prime(b);
    if (plan_.residentBRuns)
        for (std::uint32_t r = 0; r < plan_.residentBRunRegions; ++r) residentBRuns_[r].prime(b);
}

void CubeBlockL1Chunks::drain(ProgramBuilder& b) const {
    for (std::uint32_t s = 0; s < plan_.l1Slots; ++s) l1Slots_[s].drain(b);
    if (plan_.ownOperandSlots())
        for (auto& slot : aSlots_) slot.drain(b);
    if (plan_.residentA) residentA_.drain(b);
    if (plan_.residentBRuns)
        for (std::uint32_t r = 0; r < plan_.residentBRunRegions; ++r) residentBRuns_[r].drain(b);
}

void CubeBlockL1Chunks::releaseResidentA(ProgramBuilder& b) { residentA_.release(b); }

void CubeBlockL1Chunks::releaseResidentBRun(ProgramBuilder& b) {
    residentBRuns_[bRunsConsumed_++ % plan_.residentBRunRegions].release(b);
}

CubeStep CubeBlockL1Chunks::chunkStep(std::uint64_t tile, std::uint32_t c) const {
    CubeStep step;
    step.chunk = c;
    ops_->chunk(tile, c, step.chunkStart, step.chunkLength);
    step.a = operandChunk(tile, c, plan_.aChunkSpan);
    step.b = operandChunk(tile, c, plan_.bChunkSpan);
    return step;
}

// The reduction range of the operand chunk that holds pipeline chunk c when each of the
// operand's loads spans `span` chunks: from the first chunk of its group to the last (the
// tile's last chunk ends a shorter group).
CubeReduceRange CubeBlockL1Chunks::operandChunk(std::uint64_t tile, std::uint32_t c, std::uint32_t span) const {
    const std::uint32_t first = c - c % span;
    const std::uint32_t last = std::min(first + span, ops_->chunkCount(tile)) - 1;
    std::uint64_t start = 0, lastStart = 0;
    std::uint32_t length = 0, lastLength = 0;
    ops_->chunk(tile, first, start, length);
    ops_->chunk(tile, last, lastStart, lastLength);
    return {start, static_cast<std::uint32_t>(lastStart + lastLength - start)};
}

// MTE1's side of chunk c: waits for the L1 chunks it reads to be loaded and returns their
// places. An operand in its own slots waits only on the first chunk its load spans.
CubeL1Chunk CubeBlockL1Chunks::consumeChunk(std::uint32_t c, std::uint64_t localTile, ProgramBuilder& b) {
    if (!plan_.ownOperandSlots()) {
        PingPongBuffer& l1 = l1Slots_[chunksConsumed_ % plan_.l1Slots];
        l1.consume(b);
        return chunkPlace(l1, c, localTile, false);
    }
    PingPongBuffer& a = aSlots_[aChunksConsumed_ % aSlots_.size()];
    PingPongBuffer& bSlot = l1Slots_[chunksConsumed_ % plan_.l1Slots];
    if (c % plan_.aChunkSpan == 0) a.consume(b);
    if (c % plan_.bChunkSpan == 0) bSlot.consume(b);
    return {a.address(), bSlot.address()};
}

// Frees the L1 chunks chunk c read once no later chunk of the tile reads them.
void CubeBlockL1Chunks::releaseChunk(std::uint32_t c, std::uint32_t chunks, ProgramBuilder& b) {
    const bool lastOfTile = c + 1 == chunks;
    if (!plan_.ownOperandSlots() || (c + 1) % plan_.bChunkSpan == 0 || lastOfTile)
        l1Slots_[chunksConsumed_++ % plan_.l1Slots].release(b);
    if (plan_.ownOperandSlots() && ((c + 1) % plan_.aChunkSpan == 0 || lastOfTile))
        aSlots_[aChunksConsumed_++ % aSlots_.size()].release(b);
}

// True when local tile `localTile` must load A: always without a resident A, else when its A
// rows differ from the tile before it (the block's first tile loads its own).
bool CubeBlockL1Chunks::loadsA(std::uint64_t localTile) const {
    if (!plan_.residentA || localTile == 0) return true;
    const std::uint64_t tile = firstTile_ + localTile;
    return ops_->aRowsOf(tile) != ops_->aRowsOf(tile - 1);
}

// True when local tile `localTile` must load B: always without resident B runs, else when its
// B columns differ from the tile before it (the block's first tile loads its own).
bool CubeBlockL1Chunks::loadsB(std::uint64_t localTile) const {
    if (!plan_.residentBRuns || localTile == 0) return true;
    const std::uint64_t tile = firstTile_ + localTile;
    return ops_->bColumnsOf(tile) != ops_->bColumnsOf(tile - 1);
}

// L1 places of chunk c of local tile `localTile` whose B (A with a resident B) sits in `slot`:
// the other operand in the slot too, or in its resident region (`loading`: for MTE2's load of
// it, which with resident B runs may fill the next run's region while MTE1 reads the current).
CubeL1Chunk CubeBlockL1Chunks::chunkPlace(const PingPongBuffer& slot, std::uint32_t c, std::uint64_t localTile,
                                          bool loading) const {
    if (plan_.residentBRuns) {
        const std::uint64_t run = loading ? bRunsLoaded_ - 1 : bRunsConsumed_;
        return {slot.address(), plan_.l1ResidentBAddr + run % plan_.residentBRunRegions * plan_.l1ResidentBRunBytes +
                                    c * plan_.l1ResidentBChunkBytes};
    }
    if (plan_.residentB) return {slot.address(), plan_.l1ResidentBAddr + c * plan_.l1ResidentBChunkBytes};
    const std::uint64_t a = plan_.residentA ? plan_.l1ResidentAAddr + c * plan_.l1ResidentAChunkBytes : slot.address();
    if (plan_.blockResidentB) return {a, blockB_.address(localTile)};
    if (!plan_.residentA) return {slot.address(), slot.address() + plan_.l1BOffset};
    return {a, slot.address()};
}

// MTE2 preload (Ascend C MatmulConfig doMTE2Preload): chunk c of local tile `localTile` is
// issued before the steps of the chunk ahead of it, so GM→L1 overlaps the cube instead of
// waiting until the scalar unit has issued every step. The L1 slots alternate per chunk. A
// resident A chunk needs no "ready" flag of its own: MTE2 runs in order, so the slot's ready
// flag, set after the B load, also covers the A load issued before it.
void CubeBlockL1Chunks::loadChunk(std::uint64_t localTile, std::uint32_t c, ProgramBuilder& b) {
    const std::uint64_t tile = firstTile_ + localTile;
    if (plan_.ownOperandSlots()) {
        loadOwnSlotChunks(tile, c, b);
        return;
    }
    PingPongBuffer& l1 = l1Slots_[chunksLoaded_++ % plan_.l1Slots];
    const bool withA = !plan_.aFromGm && loadsA(localTile);
    const bool withB = plan_.residentB ? localTile == 0 : loadsB(localTile);  // a resident B once a block
    if (plan_.residentBRuns && withB && c == 0) residentBRuns_[bRunsLoaded_++ % plan_.residentBRunRegions].acquire(b);
    const CubeL1Chunk place = chunkPlace(l1, c, localTile, true);
    const CubeStep step = chunkStep(tile, c);
    if (plan_.residentA && withA && c == 0) residentA_.acquire(b);
    l1.acquire(b);
    if (withA) ops_->loadChunkA(tile, step, place.a, b);
    if (plan_.blockResidentB) {
        if (localTile < 2) loadBlockB(localTile, b);
    } else if (withB) {
        ops_->loadChunkB(tile, step, place.b, b);
    }
    l1.publish(b);
}

// A block-resident B (CubeBufferPlan::blockResidentB): where each local tile's B sits
// (cube_block_resident_b.h).
void CubeBlockL1Chunks::placeBlockB() {
    if (plan_.l1Slots != 2 || plan_.residentB || plan_.residentBRuns || plan_.ownOperandSlots() || plan_.sharesB())
        throw std::logic_error("a cube plan with a block-resident B has two L1 slots, no resident B (whole or "
                               "in runs), no own-slot A and no shared B");
    blockB_ = CubeBlockResidentB(*ops_, plan_, firstTile_, tiles_);
}

// The block's B into its regions (TBE's BL1 full load): the first tile's load brings its own B,
// the second tile's (issued while the first computes) every other distinct B of the block, in
// the order its tiles meet them — all of it read before the block's second store, the first
// mmad waiting only for its own.
void CubeBlockL1Chunks::loadBlockB(std::uint64_t localTile, ProgramBuilder& b) {
    const std::vector<std::uint64_t>& firstTiles = blockB_.firstTiles();
    for (std::size_t i = 0; i < firstTiles.size(); ++i) {
        if ((i == 0) != (localTile == 0)) continue;
        const std::uint64_t tile = firstTile_ + firstTiles[i];
        ops_->loadChunkB(tile, chunkStep(tile, 0), blockB_.address(firstTiles[i]), b);
    }
}

// With A in its own slots: loads the A chunk and the B chunk that begin at chunk c, each into
// the next slot of its operand (CANN's stepKa ≠ stepKb, one operand's loads span several chunks).
void CubeBlockL1Chunks::loadOwnSlotChunks(std::uint64_t tile, std::uint32_t c, ProgramBuilder& b) {
    const CubeStep step = chunkStep(tile, c);
    if (c % plan_.aChunkSpan == 0) {
        PingPongBuffer& a = aSlots_[aChunksLoaded_++ % aSlots_.size()];
        a.acquire(b);
        ops_->loadChunkA(tile, step, a.address(), b);
        a.publish(b);
    }
    if (c % plan_.bChunkSpan == 0) {
        PingPongBuffer& bSlot = l1Slots_[chunksLoaded_++ % plan_.l1Slots];
        bSlot.acquire(b);
        ops_->loadChunkB(tile, step, bSlot.address(), b);
        bSlot.publish(b);
    }
}

// plan.l1Slots slots of plan.l1SlotBytes from L1's start, one event id each from kSlotEvents.
std::vector<PingPongBuffer> CubeBlockL1Chunks::l1SlotBuffers(const CubeBufferPlan& plan) {
    std::vector<PingPongBuffer> slots;
    for (std::uint32_t s = 0; s < std::max<std::uint32_t>(2, plan.l1Slots); ++s)
        slots.emplace_back(s * plan.l1SlotBytes, 0, Pipe::Mte2, Pipe::Mte1, static_cast<std::uint8_t>(kSlotEvents + s),
                           1);
    return slots;
}

}  // namespace ascendsim

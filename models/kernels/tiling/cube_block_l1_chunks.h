#pragma once
// The L1 side of the cube block program (cube_tiling.h, cube_tiling.cpp): where each chunk of a
// tile's reduction sits in L1 and the MTE2 loads and MTE2↔MTE1 flags that fill and free it, for
// every L1 layout of CubeBufferPlan — ping-pong slots holding an A and a B chunk, A in slots of its
// own (CANN's stepKa ≠ stepKb), a resident A, a resident B (whole block or in runs) and a
// block-resident B. The block program's tile and chunk loops say when a chunk is loaded, read and
// freed; this class knows which buffers and addresses that means, so the loops read the same for
// every layout.
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "models/kernels/program_builder.h"
#include "models/kernels/tiling/cube_block_resident_b.h"
#include "models/kernels/tiling/cube_tiling.h"

namespace ascendsim {

class CubeBlockL1Chunks {
public:
    // The L1 buffers of `plan` for the block's tiles [firstTile, firstTile + tiles).
    CubeBlockL1Chunks(std::shared_ptr<const CubeOperands> operands, const CubeBufferPlan& plan,
                      std::uint64_t firstTile, std::uint64_t tiles);

    // The flags of the L1 buffers the plan uses: primed in the block's prologue, drained in its
    // epilogue.
    void prime(ProgramBuilder& b) const;
    void drain(ProgramBuilder& b) const;
    // With plan.blockResidentB: places each local tile's B (throws std::logic_error on a plan that
    // cannot have one). Called by the block program after its own plan checks.
    void placeBlockB();

    // Chunk c of `tile` (a global tile index) as the operands see it, with the A and B ranges its
    // L1 loads span.
    CubeStep chunkStep(std::uint64_t tile, std::uint32_t c) const;
    // Whether local tile `localTile` loads its own A (B): false only when a resident A (run of
    // resident B) of the tile before serves it.
    bool loadsA(std::uint64_t localTile) const;
    bool loadsB(std::uint64_t localTile) const;
    // MTE2: chunk c of local tile `localTile` GM→L1 into the next slot(s), flags included.
    void loadChunk(std::uint64_t localTile, std::uint32_t c, ProgramBuilder& b);
    // MTE1's wait for chunk c; returns where its A and B sit.
    CubeL1Chunk consumeChunk(std::uint32_t c, std::uint64_t localTile, ProgramBuilder& b);
    // Frees the slots chunk c (of `chunks`) read once no later chunk of the tile reads them.
    void releaseChunk(std::uint32_t c, std::uint32_t chunks, ProgramBuilder& b);
    // Frees the resident A, or the oldest resident B run's region, after its last tile's steps.
    void releaseResidentA(ProgramBuilder& b);
    void releaseResidentBRun(ProgramBuilder& b);

private:
    CubeReduceRange operandChunk(std::uint64_t tile, std::uint32_t c, std::uint32_t span) const;
    CubeL1Chunk chunkPlace(const PingPongBuffer& slot, std::uint32_t c, std::uint64_t localTile, bool loading) const;
    void loadBlockB(std::uint64_t localTile, ProgramBuilder& b);
    void loadOwnSlotChunks(std::uint64_t tile, std::uint32_t c, ProgramBuilder& b);
    static std::vector<PingPongBuffer> l1SlotBuffers(const CubeBufferPlan& plan);

    std::shared_ptr<const CubeOperands> ops_;
    CubeBufferPlan plan_;
    std::uint64_t firstTile_;
    std::uint64_t tiles_;
    std::vector<PingPongBuffer> l1Slots_;  // one L1 slot each, chunks go round them
    std::uint64_t chunksLoaded_ = 0, chunksConsumed_ = 0;
    std::array<PingPongBuffer, 2> aSlots_;  // A's own L1 slots (plan.ownOperandSlots()), loads alternate
    std::uint64_t aChunksLoaded_ = 0, aChunksConsumed_ = 0;
    PingPongBuffer residentA_;  // one region: MTE1→MTE2 "free" once the last tile reading it is done
    CubeBlockResidentB blockB_;  // plan.blockResidentB: where each local tile's B sits
    PingPongBuffer residentBRuns_[2];  // likewise, a region a run (CubeBufferPlan::residentBRunRegions)
    std::uint64_t bRunsLoaded_ = 0, bRunsConsumed_ = 0;
};

}  // namespace ascendsim

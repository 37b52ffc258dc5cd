// Where the cube block program's chunks go in L1 (cube_block_l1_chunks.h), driven directly with
// small hand-made operands whose loads are plain GM→L1 copies: ping-pong slots alternate and every
// flag waited for is set, a resident A is loaded once for the tiles that share it, A in its own
// slots is loaded once for the chunks its load spans, and the runs of a resident B alternate
// between two regions. Whole programs of each layout are in the cube/ tests
// (cube_matmul_resident_a_test.cpp, ...).
#include "models/kernels/tiling/cube_block_l1_chunks.h"

#include <gtest/gtest.h>

#include <memory>
#include <variant>
#include <vector>

#include "tests/models/kernels/tiling/cube_block_test_support.h"

namespace ascendsim::test {
namespace {

// Tiles of four 16-deep chunks; pairs of tiles (0/1, 2/3, ...) share their A rows and B columns.
// A chunk loads from GM kAGm + its start, a B chunk from kBGm + its start, 32 B each.
class L1ChunksTestOperands final : public CubeOperands {
public:
    static constexpr std::uint64_t kAGm = 0x100000;
    static constexpr std::uint64_t kBGm = 0x200000;

    std::uint64_t tileCount() const override { return 8; }
    std::uint32_t tileM(std::uint64_t) const override { return 16; }
    std::uint32_t tileN(std::uint64_t) const override { return 16; }
    std::uint32_t chunkCount(std::uint64_t) const override { return 4; }
    void chunk(std::uint64_t, std::uint32_t c, std::uint64_t& start, std::uint32_t& length) const override {
        start = 16 * c;
        length = 16;
    }
    void loadChunkA(std::uint64_t, const CubeStep& step, std::uint64_t l1Addr, ProgramBuilder& b) const override {
        b.copy(MemSpace::GM, kAGm + step.a.start, MemSpace::L1, l1Addr, 32);
    }
    void loadChunkB(std::uint64_t, const CubeStep& step, std::uint64_t l1Addr, ProgramBuilder& b) const override {
        b.copy(MemSpace::GM, kBGm + step.b.start, MemSpace::L1, l1Addr, 32);
    }
    void loadStep(std::uint64_t, const CubeStep&, const CubeL1Chunk&, std::uint64_t, std::uint64_t, Mmad&,
                  ProgramBuilder&) const override {}
    std::uint64_t aRowsOf(std::uint64_t tile) const override { return tile / 2; }
    std::uint64_t bColumnsOf(std::uint64_t tile) const override { return tile / 2; }
    DataMove storeMove(std::uint64_t, std::uint64_t) const override { return {}; }
};

// One GM→L1 load: which operand (true: A) and where it lands.
struct L1Load {
    bool a;
    std::uint64_t l1Addr;
    bool operator==(const L1Load& other) const { return a == other.a && l1Addr == other.l1Addr; }
};

std::vector<L1Load> l1LoadsOf(const std::vector<Instruction>& program) {
    std::vector<L1Load> loads;
    for (const auto& instruction : program) {
        if (instruction.opcode != Opcode::DataMove) continue;
        const auto& move = std::get<DataMove>(instruction.operands);
        loads.push_back({move.srcAddr < L1ChunksTestOperands::kBGm, move.dstAddr});
    }
    return loads;
}

TEST(CubeBlockL1Chunks, PingPongSlotsHoldAnAAndABChunkAndAlternateWithBalancedFlags) {
    CubeBufferPlan plan;
    plan.l1SlotBytes = 0x1000;
    plan.l1BOffset = 0x800;
    std::vector<Instruction> program;
    ProgramBuilder b(program);
    CubeBlockL1Chunks l1(std::make_shared<L1ChunksTestOperands>(), plan, 0, 1);
    l1.prime(b);
    l1.loadChunk(0, 0, b);
    for (std::uint32_t c = 0; c < 4; ++c) {
        if (c + 1 < 4) l1.loadChunk(0, c + 1, b);  // the preload, one chunk ahead
        const CubeL1Chunk place = l1.consumeChunk(c, 0, b);
        EXPECT_EQ(place.a, c % 2 * 0x1000u) << "chunk " << c;
        EXPECT_EQ(place.b, c % 2 * 0x1000u + 0x800u) << "chunk " << c;
        l1.releaseChunk(c, 4, b);
    }
    l1.drain(b);
    const std::vector<L1Load> expected{{true, 0}, {false, 0x800}, {true, 0x1000}, {false, 0x1800},
                                       {true, 0}, {false, 0x800}, {true, 0x1000}, {false, 0x1800}};
    EXPECT_EQ(l1LoadsOf(program), expected);
    expectCubeBlockFlagsBalanced(program);
}

TEST(CubeBlockL1Chunks, AResidentAIsLoadedOnceForTheTilesThatShareItsRows) {
    CubeBufferPlan plan;
    plan.placeResidentA(0x1000, 0x400, 0x1000);  // A's chunks from 0x2000, 0x400 apart
    auto ops = std::make_shared<L1ChunksTestOperands>();
    CubeBlockL1Chunks l1(ops, plan, 2, 3);  // tiles 2, 3 (A rows 1) and 4 (A rows 2)
    EXPECT_TRUE(l1.loadsA(0));
    EXPECT_FALSE(l1.loadsA(1));
    EXPECT_TRUE(l1.loadsA(2));
    std::vector<Instruction> program;
    ProgramBuilder b(program);
    l1.loadChunk(0, 1, b);  // chunk 1 of tile 2: A into its resident place, B into the slot
    l1.loadChunk(1, 1, b);  // chunk 1 of tile 3: B only
    const std::vector<L1Load> expected{{true, 0x2400}, {false, 0}, {false, 0x1000}};
    EXPECT_EQ(l1LoadsOf(program), expected);
    const CubeL1Chunk place = l1.consumeChunk(1, 0, b);
    EXPECT_EQ(place.a, 0x2400u);
    EXPECT_EQ(place.b, 0u);
}

TEST(CubeBlockL1Chunks, AInItsOwnSlotsIsLoadedOnceForTheChunksItsLoadSpans) {
    CubeBufferPlan plan;
    plan.l1SlotBytes = 0x1000;
    plan.aChunkSpan = 2;
    plan.l1ASlotAddr = 0x4000;
    plan.l1ASlotBytes = 0x800;
    CubeBlockL1Chunks l1(std::make_shared<L1ChunksTestOperands>(), plan, 0, 1);
    const CubeStep step = l1.chunkStep(0, 1);
    EXPECT_EQ(step.a.start, 0u);  // chunks 0 and 1
    EXPECT_EQ(step.a.length, 32u);
    EXPECT_EQ(step.b.start, 16u);  // chunk 1 only
    EXPECT_EQ(step.b.length, 16u);
    std::vector<Instruction> program;
    ProgramBuilder b(program);
    for (std::uint32_t c = 0; c < 3; ++c) l1.loadChunk(0, c, b);
    const std::vector<L1Load> expected{{true, 0x4000}, {false, 0}, {false, 0x1000}, {true, 0x4800}, {false, 0}};
    EXPECT_EQ(l1LoadsOf(program), expected);
    l1.consumeChunk(0, 0, b);
    l1.releaseChunk(0, 4, b);
    const CubeL1Chunk place = l1.consumeChunk(1, 0, b);  // A still in its first slot, B in the second
    EXPECT_EQ(place.a, 0x4000u);
    EXPECT_EQ(place.b, 0x1000u);
}

TEST(CubeBlockL1Chunks, ResidentBRunsAlternateBetweenTwoRegions) {
    CubeBufferPlan plan;
    plan.placeResidentBRuns(0x1000, 0x400, 0x2000, 2);  // regions at 0x2000 and 0x4000
    CubeBlockL1Chunks l1(std::make_shared<L1ChunksTestOperands>(), plan, 0, 4);
    EXPECT_TRUE(l1.loadsB(0));
    EXPECT_FALSE(l1.loadsB(1));
    EXPECT_TRUE(l1.loadsB(2));
    std::vector<Instruction> program;
    ProgramBuilder b(program);
    l1.loadChunk(0, 0, b);  // tile 0: A and the first run's B, chunk 0 then 1
    l1.loadChunk(0, 1, b);
    l1.loadChunk(1, 0, b);  // tile 1: A only
    l1.loadChunk(2, 0, b);  // tile 2: the second run's B, in the other region
    const std::vector<L1Load> expected{{true, 0},      {false, 0x2000}, {true, 0x1000}, {false, 0x2400},
                                       {true, 0},      {true, 0x1000},  {false, 0x4000}};
    EXPECT_EQ(l1LoadsOf(program), expected);
    EXPECT_EQ(l1.consumeChunk(1, 0, b).b, 0x2400u);  // MTE1 still reads the first run
    l1.releaseResidentBRun(b);
    EXPECT_EQ(l1.consumeChunk(0, 2, b).b, 0x4000u);
}

}  // namespace
}  // namespace ascendsim::test

// The coupled chip's MemSet is CANN's static TIK kernel (fill.cpp, tbe/impl/mem_set.py; docs/fidelity.md
// §124): no block reads anything from GM (no tiling record), every block first duplicates one 48 KiB
// fp16 zero buffer whatever its share, then stores its segment from it in 48 KiB moves. A segment is the
// tensor's 32 B blocks ÷ cores rounded up to whole 48 KiB buffers, which sets the default block dim.
#include <gtest/gtest.h>

#include <variant>

#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

constexpr std::uint64_t kZeroBufferBytes = 48 * 1024;

struct StaticMemSetBlock {
    std::uint64_t gmLoads = 0;
    std::uint64_t dupRepeats = 0;  // fp16 Duplicate repeats (256 B each)
    std::uint64_t vectorsAfterFirstStore = 0;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> stores;  // GM address, bytes
};

StaticMemSetBlock staticMemSetBlock(const LoweredKernel& kernel, std::uint32_t block) {
    StaticMemSetBlock b;
    auto stream = kernel.program({block, CoreKind::Cube, 0, 7ull << 20});
    std::vector<Instruction> chunk;
    while (stream->next(chunk)) {
        for (const auto& instruction : chunk) {
            if (const auto* vector = std::get_if<VectorInstr>(&instruction.operands)) {
                if (!b.stores.empty()) ++b.vectorsAfterFirstStore;
                if (vector->op == VectorOp::Duplicate && vector->dtype == DataType::Fp16) b.dupRepeats += vector->repeats;
            } else if (const auto* move = std::get_if<DataMove>(&instruction.operands)) {
                if (move->src == MemSpace::GM) ++b.gmLoads;
                if (move->dst == MemSpace::GM) b.stores.emplace_back(move->dstAddr, move->totalBytes());
            }
        }
        chunk.clear();
    }
    return b;
}

TEST(StaticMemSet, ReadsNothingAndDuplicatesOneWholeZeroBufferEveryBlock) {
    const ChipConfig chip = coupledChip();  // 32 cores
    CubeOpHarness h(chip, 16ull << 20);
    // [144,16,16,16] fp32: 2359296 B; ÷ 32 cores = 73728 B → 2 buffers (98304 B) a segment: 24 blocks.
    const auto x = h.tensor("x", {144, 16, 16, 16}, DataType::Fp32);
    const auto kernels = h.lower(makeOp("MemSet", {x}, {x}));
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_EQ(kernels[0].blockDim, 24u);
    EXPECT_EQ(kernels[0].workspaceBytes, 0u);  // no tiling record
    for (std::uint32_t block = 0; block < 24; ++block) {
        const StaticMemSetBlock b = staticMemSetBlock(kernels[0], block);
        EXPECT_EQ(b.gmLoads, 0u) << "block " << block;
        EXPECT_EQ(b.dupRepeats, kZeroBufferBytes / 256) << "block " << block;
        EXPECT_EQ(b.vectorsAfterFirstStore, 0u) << "block " << block;  // stored from the one dup
        const std::uint64_t first = x.deviceAddr + block * 2 * kZeroBufferBytes;
        ASSERT_EQ(b.stores.size(), 2u) << "block " << block;
        EXPECT_EQ(b.stores[0], std::make_pair(first, kZeroBufferBytes));
        EXPECT_EQ(b.stores[1], std::make_pair(first + kZeroBufferBytes, kZeroBufferBytes));
    }
    // One fp32 element: one block, which still duplicates the whole buffer and stores 4 B.
    const auto one = h.tensor("one", {1}, DataType::Fp32);
    const auto small = h.lower(makeOp("MemSet", {one}, {one}));
    ASSERT_EQ(small.size(), 1u);
    EXPECT_EQ(small[0].blockDim, 1u);
    const StaticMemSetBlock b = staticMemSetBlock(small[0], 0);
    EXPECT_EQ(b.dupRepeats, kZeroBufferBytes / 256);
    EXPECT_EQ(b.stores, (std::vector<std::pair<std::uint64_t, std::uint64_t>>{{one.deviceAddr, 4}}));
    // A replayed block dim past the segments (GE's padded size) adds blocks that only duplicate.
    auto padded = makeOp("MemSet", {x}, {x});
    padded.blockDim = 25;
    const auto replayed = h.lower(padded);
    const StaticMemSetBlock last = staticMemSetBlock(replayed[0], 24);
    EXPECT_TRUE(last.stores.empty());
    EXPECT_EQ(last.dupRepeats, kZeroBufferBytes / 256);
}

TEST(StaticMemSet, ClearsEveryByteOfItsTensorAndNoOther) {
    const ChipConfig chip = coupledChip();
    CubeOpHarness h(chip, 16ull << 20);
    const auto x = h.tensor("x", {123457}, DataType::Fp32);  // segments not whole buffers; odd tail
    const auto after = h.tensor("after", {64}, DataType::Fp32);
    h.fillRandom(x, 1.0f, 2.0f);
    const auto kept = h.fillRandom(after, 1.0f, 2.0f);
    h.run(makeOp("MemSet", {x}, {x}));
    for (const float v : h.read(x)) ASSERT_EQ(v, 0.0f);
    EXPECT_EQ(h.read(after), kept);
}

}  // namespace
}  // namespace ascendsim::test

// MemSet reads its tiling before any work, as CANN's DynamicMemSet does (fill.cpp,
// docs/fidelity.md §25c): every block, also one with nothing to clear, first moves the 96 B
// header record and the tensor's record from the launch's workspace into UB, each move followed
// by the scalar unit's wait for it; ZerosLike, a kernel with its tiling in its arguments, does not.
// Fill reads its one-element value tensor the same way, once per block (§49). MemSet clears
// equal 32 B-aligned shares in chunks of one full vector_dup, duplicating each chunk again into
// its one buffer (§90).
#include <gtest/gtest.h>

#include <variant>

#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

struct BlockStart {
    std::uint64_t tilingReads = 0;      // GM → UB moves of one record, each waited for by the scalar unit
    std::uint64_t otherGmLoads = 0;
    bool workBeforeTiling = false;      // a vector op or a store issued before the last tiling read
};

// A tiling read is a move of `readBytes` from the launch's workspace (where the tiling records sit).
BlockStart blockStart(const LoweredKernel& kernel, std::uint32_t block, std::uint64_t workspaceAddr,
                      std::uint64_t readBytes = 96) {
    BlockStart s;
    auto stream = kernel.program({block, CoreKind::Vector, 0, workspaceAddr});
    std::vector<Instruction> all, chunk;
    while (stream->next(chunk)) {
        all.insert(all.end(), chunk.begin(), chunk.end());
        chunk.clear();
    }
    bool work = false;
    for (std::size_t i = 0; i < all.size(); ++i) {
        if (const auto* move = std::get_if<DataMove>(&all[i].operands)) {
            if (move->dst == MemSpace::GM) work = true;
            if (move->src != MemSpace::GM) continue;
            const bool record = move->srcAddr >= workspaceAddr && move->srcAddr < workspaceAddr + kernel.workspaceBytes &&
                                move->totalBytes() == readBytes;
            bool waited = false;
            for (std::size_t j = i + 1; j < all.size() && j <= i + 2; ++j)
                if (const auto* flag = std::get_if<Flag>(&all[j].operands))
                    waited |= all[j].opcode == Opcode::WaitFlag && flag->src == Pipe::Mte2 && flag->dst == Pipe::Scalar;
            if (record && waited) {
                ++s.tilingReads;
                s.workBeforeTiling |= work;
            } else {
                ++s.otherGmLoads;
            }
        } else if (all[i].opcode == Opcode::Vector) {
            work = true;
        }
    }
    return s;
}

TEST(VectorMemSetTiling, EveryBlockReadsTwoRecordsBeforeClearing) {
    const ChipConfig chip = ascend910B1();
    constexpr std::uint64_t kWorkspace = 7ull << 20;
    CubeOpHarness h(chip, 16ull << 20);
    const auto x = h.tensor("x", {3, 100}, DataType::Fp32);  // 1.2 KB: fewer chunks than blocks
    auto memSet = makeOp("MemSet", {x}, {x});
    memSet.blockDim = 8;
    const auto kernels = h.lower(memSet);
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_GE(kernels[0].workspaceBytes, 2 * 96u);
    for (std::uint32_t block = 0; block < kernels[0].blockDim; ++block) {
        const BlockStart s = blockStart(kernels[0], block, kWorkspace);
        EXPECT_EQ(s.tilingReads, 2u) << "block " << block;
        EXPECT_EQ(s.otherGmLoads, 0u) << "block " << block;  // MemSet reads no tensor
        EXPECT_FALSE(s.workBeforeTiling) << "block " << block;
    }
    const auto y = h.tensor("y", {3, 100}, DataType::Fp32);
    auto zeros = makeOp("ZerosLike", {x}, {y});
    zeros.blockDim = 8;
    const auto plain = h.lower(zeros);
    ASSERT_EQ(plain.size(), 1u);
    EXPECT_EQ(plain[0].workspaceBytes, 0u);
    EXPECT_EQ(blockStart(plain[0], 0, kWorkspace).tilingReads, 0u);
}

// §116: DynamicMemSet's binary holds its clearing code once per dtype behind sequential ifs, so a
// block runs through 16 KiB of code (fill.cpp kMemSetCodeBytes) on the split chips; the DSL fills
// keep the chip's image, and so does the coupled chip's MemSet.
TEST(VectorMemSetTiling, MemSetRunsThroughItsDtypeCopiesOfCodeOnSplitChipsOnly) {
    for (const bool split : {true, false}) {
        const ChipConfig chip = split ? ascend910B1() : coupledChip();
        CubeOpHarness h(chip, 16ull << 20);
        const auto x = h.tensor("x", {32, 4096}, DataType::Fp32);
        auto memSet = makeOp("MemSet", {x}, {x});
        memSet.blockDim = 8;
        const auto kernels = h.lower(memSet);
        ASSERT_EQ(kernels.size(), 1u);
        const LoweredKernel& kernel = kernels[0];
        EXPECT_EQ(kernel.codeBytes, split ? 16384u : 0u) << chip.name;
        EXPECT_EQ(kernelTaskOf(kernel).codeBytes, kernel.codeBytes) << chip.name;
        const auto y = h.tensor("y", {32, 4096}, DataType::Fp32);
        auto zeros = makeOp("ZerosLike", {x}, {y});
        zeros.blockDim = 8;
        const auto fills = h.lower(zeros);
        ASSERT_EQ(fills.size(), 1u);
        EXPECT_EQ(fills[0].codeBytes, 0u) << chip.name;
    }
}

TEST(VectorMemSetTiling, EveryFillBlockReadsItsValueTensorBeforeFilling) {
    const ChipConfig chip = ascend910B1();
    constexpr std::uint64_t kWorkspace = 9ull << 20;
    CubeOpHarness h(chip, 16ull << 20);
    const auto x = h.tensor("x", {3, 100}, DataType::Fp32);
    const auto y = h.tensor("y", {3, 100}, DataType::Fp32);
    auto fill = makeOp("Fill", {x}, {y});
    fill.attrs["value"] = 2.5;
    fill.blockDim = 4;
    const auto kernels = h.lower(fill);
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_GE(kernels[0].workspaceBytes, 32u);
    for (std::uint32_t block = 0; block < kernels[0].blockDim; ++block) {
        const BlockStart s = blockStart(kernels[0], block, kWorkspace, 32);
        EXPECT_EQ(s.tilingReads, 1u) << "block " << block;   // the value's 32 B block, waited for
        EXPECT_EQ(s.otherGmLoads, 0u) << "block " << block;  // Fill reads no tensor of the output's size
        EXPECT_FALSE(s.workBeforeTiling) << "block " << block;
    }
    auto ones = makeOp("OnesLike", {x}, {y});
    ones.blockDim = 4;
    const auto plain = h.lower(ones);
    ASSERT_EQ(plain.size(), 1u);
    EXPECT_EQ(plain[0].workspaceBytes, 0u);
    const BlockStart s = blockStart(plain[0], 0, kWorkspace, 32);
    EXPECT_EQ(s.tilingReads + s.otherGmLoads, 0u);  // its value is in the binary's arguments
}

// What one block of a MemSet does after its tiling reads: its stores (GM byte ranges) and how many
// vector instructions run before the first store, between stores, and whether a vector step after
// a store waits for that store (MTE3 → V) — the one dup buffer.
using Store = std::pair<std::uint64_t, std::uint64_t>;  // GM address, bytes

struct MemSetBlock {
    std::vector<Store> stores;
    std::vector<std::uint64_t> vectorsBeforeStore;                 // per store: vector instructions since the previous one
    std::uint64_t vectorsAfterStoreWithoutWait = 0;                // a re-dup not behind an MTE3 → V wait
};

MemSetBlock memSetBlock(const LoweredKernel& kernel, std::uint32_t block) {
    MemSetBlock b;
    auto stream = kernel.program({block, CoreKind::Vector, 0, 7ull << 20});
    std::vector<Instruction> chunk;
    std::uint64_t vectors = 0;
    bool waitedForStore = false;
    while (stream->next(chunk)) {
        for (const auto& instruction : chunk) {
            if (instruction.opcode == Opcode::Vector) {
                ++vectors;
                if (!b.stores.empty() && !waitedForStore) ++b.vectorsAfterStoreWithoutWait;
            } else if (const auto* flag = std::get_if<Flag>(&instruction.operands)) {
                if (instruction.opcode == Opcode::WaitFlag && flag->src == Pipe::Mte3 && flag->dst == Pipe::Vector)
                    waitedForStore = true;
            } else if (const auto* move = std::get_if<DataMove>(&instruction.operands); move && move->dst == MemSpace::GM) {
                b.stores.emplace_back(move->dstAddr, move->totalBytes());
                b.vectorsBeforeStore.push_back(vectors);
                vectors = 0;
                waitedForStore = false;
            }
        }
        chunk.clear();
    }
    return b;
}

// DynamicMemSet (mem_set.py): cores × 256 B or less is cleared by one core; above, every core
// clears the aligned size ÷ cores (rounded up to 32 B) in chunks of 255 × 256 B, each duplicated
// again after the previous chunk is stored; a tail after full chunks is stored as it is.
TEST(VectorMemSetTiling, ClearsEqualSharesInChunksOfOneFullDuplicate) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip, 16ull << 20);
    constexpr std::uint64_t kChunk = 255 * 256;
    // 8 shares of 100000 B: one full chunk and a 34720 B tail each.
    const auto x = h.tensor("x", {200000}, DataType::Fp32);
    auto memSet = makeOp("MemSet", {x}, {x});
    memSet.blockDim = 8;
    const auto kernels = h.lower(memSet);
    ASSERT_EQ(kernels.size(), 1u);
    for (std::uint32_t block = 0; block < 8; ++block) {
        const MemSetBlock b = memSetBlock(kernels[0], block);
        ASSERT_EQ(b.stores.size(), 2u) << "block " << block;
        EXPECT_EQ(b.stores[0], Store(x.deviceAddr + block * std::uint64_t{100000}, kChunk)) << "block " << block;
        EXPECT_EQ(b.stores[1], Store(x.deviceAddr + block * std::uint64_t{100000} + kChunk, 100000 - kChunk));
        EXPECT_GT(b.vectorsBeforeStore[0], 0u);
        EXPECT_EQ(b.vectorsBeforeStore[1], 0u) << "the tail is stored from the first chunk's dup";
    }
    // Two full chunks a share: the second is duplicated again, after the first one's store.
    const auto y = h.tensor("y", {8 * 2 * 16320}, DataType::Fp32);
    auto twoChunks = makeOp("MemSet", {y}, {y});
    twoChunks.blockDim = 8;
    const MemSetBlock b = memSetBlock(h.lower(twoChunks)[0], 5);
    ASSERT_EQ(b.stores.size(), 2u);
    EXPECT_EQ(b.stores[1], Store(y.deviceAddr + 5 * 2 * kChunk + kChunk, kChunk));
    EXPECT_GT(b.vectorsBeforeStore[1], 0u);
    EXPECT_EQ(b.vectorsAfterStoreWithoutWait, 0u);
    // 1200 B ≤ 8 cores × 256 B: block 0 clears all of it (its own bytes, not the aligned 1216).
    const auto z = h.tensor("z", {3, 100}, DataType::Fp32);
    auto small = makeOp("MemSet", {z}, {z});
    small.blockDim = 8;
    const auto smallKernels = h.lower(small);
    EXPECT_EQ(memSetBlock(smallKernels[0], 0).stores, (std::vector<Store>{{z.deviceAddr, 1200}}));
    for (std::uint32_t block = 1; block < 8; ++block) EXPECT_TRUE(memSetBlock(smallKernels[0], block).stores.empty());
    // Without a given block dim the host tiling launches one core or all of them.
    EXPECT_EQ(h.lower(makeOp("MemSet", {z}, {z}))[0].blockDim, 1u);
    EXPECT_EQ(h.lower(makeOp("MemSet", {x}, {x}))[0].blockDim, chip.vectorCoreCount);
}

TEST(VectorMemSetTiling, ClearsEveryByteOfItsTensorAndNoOther) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip, 16ull << 20);
    const auto x = h.tensor("x", {123457}, DataType::Fp32);  // shares not a whole number of chunks; odd tail
    const auto after = h.tensor("after", {64}, DataType::Fp32);
    h.fillRandom(x, 1.0f, 2.0f);
    const auto kept = h.fillRandom(after, 1.0f, 2.0f);
    auto memSet = makeOp("MemSet", {x}, {x});
    memSet.blockDim = 7;
    h.run(memSet);
    for (const float v : h.read(x)) ASSERT_EQ(v, 0.0f);
    EXPECT_EQ(h.read(after), kept);
}

}  // namespace
}  // namespace ascendsim::test

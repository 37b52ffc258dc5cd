// MemSet reads its tiling before any work, as CANN's DynamicMemSet does (fill.cpp,
// docs/fidelity.md §25c): every block, also one with nothing to clear, first moves the 96 B
// header record and the tensor's record from the launch's workspace into UB, each move followed
// by the scalar unit's wait for it; ZerosLike, a kernel with its tiling in its arguments, does not.
// Fill reads its one-element value tensor the same way, once per block (§49).
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

}  // namespace
}  // namespace ascendsim::test

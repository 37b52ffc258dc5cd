// Slice (models/kernels/layout/copy/slice.cpp) whose kept rows are shorter than a 32 B block: CANN's
// TIK strided_slice small-last-dim mode — a core's consecutive rows moved one by one into a
// one-block buffer, each copied by the scalar unit into a dense row once its move landed, the
// dense row stored as one move (docs/fidelity.md §153). 16-bit rows keep the elementwise stream.
#include <gtest/gtest.h>

#include "models/kernels/kernel_registry.h"
#include "tests/models/kernels/cube_test_support.h"
#include "tests/models/kernels/test_chip.h"

namespace ascendsim::test {
namespace {

struct SliceBlock {
    std::vector<std::uint64_t> loadBytes, storeBytes, loadGm;
    std::uint64_t scalarCopies = 0;          // elements the scalar unit copied
    std::uint64_t loadsWaitedByScalar = 0;   // loads whose MTE2 -> S wait came before the next load
    std::uint64_t stridedStores = 0;         // stores of more than one burst
};

std::vector<SliceBlock> blocksOf(const LoweredKernel& kernel) {
    std::vector<SliceBlock> blocks;
    for (std::uint32_t block = 0; block < kernel.blockDim; ++block) {
        SliceBlock b;
        bool loadPending = false;
        auto stream = kernel.program({block, CoreKind::Vector, 0, 0});
        std::vector<Instruction> chunk;
        while (stream->next(chunk)) {
            for (const Instruction& i : chunk) {
                if (const auto* s = std::get_if<ScalarWork>(&i.operands)) b.scalarCopies += s->loads;
                if (i.opcode == Opcode::WaitFlag) {
                    const Flag& f = std::get<Flag>(i.operands);
                    if (loadPending && f.src == Pipe::Mte2 && f.dst == Pipe::Scalar) ++b.loadsWaitedByScalar, loadPending = false;
                }
                const auto* d = std::get_if<DataMove>(&i.operands);
                if (d == nullptr) continue;
                if (d->src == MemSpace::GM) {
                    b.loadBytes.push_back(d->totalBytes());
                    b.loadGm.push_back(d->srcAddr);
                    loadPending = true;
                } else if (d->dst == MemSpace::GM) {
                    b.storeBytes.push_back(d->totalBytes());
                    if (d->burstCount > 1) ++b.stridedStores;
                }
            }
            chunk.clear();
        }
        blocks.push_back(b);
    }
    return blocks;
}

LoweredKernel loweredSlice(const TensorInfo& x, const TensorInfo& y, std::vector<std::int64_t> offsets,
                           std::uint32_t blockDim) {
    auto op = makeOp("Slice", {x}, {y});
    op.attrs["offsets"] = offsets;
    op.attrs["size"] = y.shape;
    op.blockDim = blockDim;
    return KernelRegistry::instance().lower(op, ascend910B1()).front();
}

// The Qwen3 sample's [4,24] → [4,1] fp32 (offsets 0, 2): four one-row moves of 4 B from x's rows
// 96 B apart, each waited for by the scalar copy, and one 16 B store of the dense row.
TEST(SliceSmallRows, EachRowIsMovedAloneAndTheDenseRowStoredOnce) {
    const auto x = ndTensorAt("x", {4, 24}, DataType::Fp32, 0x10000);
    const auto y = ndTensorAt("y", {4, 1}, DataType::Fp32, 0x20000);
    const auto blocks = blocksOf(loweredSlice(x, y, {0, 2}, 1));
    ASSERT_EQ(blocks.size(), 1u);
    const SliceBlock& b = blocks[0];
    ASSERT_EQ(b.loadBytes.size(), 4u);
    for (std::size_t r = 0; r < 4; ++r) {
        EXPECT_EQ(b.loadBytes[r], 4u);
        EXPECT_EQ(b.loadGm[r], 0x10000u + r * 96 + 2 * 4) << "row " << r;
    }
    EXPECT_EQ(b.loadsWaitedByScalar, 4u);
    EXPECT_EQ(b.scalarCopies, 4u);
    EXPECT_EQ(b.storeBytes, std::vector<std::uint64_t>{16u});
    EXPECT_EQ(b.stridedStores, 0u);
}

// Over several blocks each takes ceil(rows / blocks) consecutive rows (strided_slice's out_loops)
// and stores them as one dense run: [3,10,6] → [3,10,2] int32 (rows of 8 B), 30 rows on 7 blocks
// of 5, the last two blocks idle.
TEST(SliceSmallRows, BlocksTakeConsecutiveRunsOfRowsAndStoreEachOnce) {
    const auto x = ndTensorAt("x", {3, 10, 6}, DataType::Int32, 0x10000);
    const auto y = ndTensorAt("y", {3, 10, 2}, DataType::Int32, 0x20000);
    const auto blocks = blocksOf(loweredSlice(x, y, {0, 0, 3}, 7));
    ASSERT_EQ(blocks.size(), 7u);
    std::uint64_t rows = 0;
    for (std::size_t k = 0; k < blocks.size(); ++k) {
        const SliceBlock& b = blocks[k];
        const std::uint64_t expected = k < 6 ? 5 : 0;
        EXPECT_EQ(b.loadBytes.size(), expected) << "block " << k;
        EXPECT_EQ(b.loadsWaitedByScalar, expected) << "block " << k;
        EXPECT_EQ(b.scalarCopies, 2 * expected) << "block " << k;
        if (expected > 0) EXPECT_EQ(b.storeBytes, std::vector<std::uint64_t>{expected * 8}) << "block " << k;
        else EXPECT_TRUE(b.storeBytes.empty()) << "block " << k;
        for (std::size_t r = 0; r < b.loadGm.size(); ++r, ++rows)
            EXPECT_EQ(b.loadGm[r], 0x10000u + (rows * 6 + 3) * 4) << "row " << rows;
    }
    EXPECT_EQ(rows, 30u);
}

// 16-bit rows shorter than a block (strided_slice transposes them with vnchwconv instead) and rows
// of a block or more keep the elementwise stream: no scalar copies.
TEST(SliceSmallRows, SixteenBitRowsAndBlockRowsKeepTheElementwiseStream) {
    const auto x16 = ndTensorAt("x", {4, 24}, DataType::Bf16, 0x10000);
    const auto y16 = ndTensorAt("y", {4, 1}, DataType::Bf16, 0x20000);
    for (const auto& b : blocksOf(loweredSlice(x16, y16, {0, 2}, 1))) EXPECT_EQ(b.scalarCopies, 0u);
    const auto x = ndTensorAt("x", {4, 24}, DataType::Fp32, 0x10000);
    const auto y = ndTensorAt("y", {4, 8}, DataType::Fp32, 0x20000);
    for (const auto& b : blocksOf(loweredSlice(x, y, {0, 8}, 1))) EXPECT_EQ(b.scalarCopies, 0u);
}

}  // namespace
}  // namespace ascendsim::test

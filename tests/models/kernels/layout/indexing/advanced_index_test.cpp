// Index / IndexPutV2 (models/kernels/layout/indexing/advanced_index.cpp): one indexed element move per
// access, the indices read by the scalar unit, the dense side moved once, each element's move
// waiting for the one before it; bad index sets refused.
#include <gtest/gtest.h>

#include "models/kernels/kernel_registry.h"
#include "tests/models/kernels/cube_test_support.h"
#include "tests/models/kernels/test_chip.h"

namespace ascendsim::test {
namespace {

struct Moves {
    std::uint64_t indexedReads = 0, indexedWrites = 0, denseGmRead = 0, denseGmWritten = 0,
                  scalarLoads = 0;
};

// Summed over every block program.
Moves movesOf(const LoweredKernel& kernel) {
    Moves m;
    forEachBlockInstruction(kernel, CoreKind::Vector, [&](const Instruction& i) {
        if (const auto* s = std::get_if<ScalarWork>(&i.operands)) m.scalarLoads += s->loads;
        const auto* d = std::get_if<DataMove>(&i.operands);
        if (d == nullptr) return;
        if (d->indexed()) {
            (d->dst == MemSpace::GM ? m.indexedWrites : m.indexedReads) += 1;
            EXPECT_EQ(d->burstBytes, 4u);
        } else if (d->src == MemSpace::GM) {
            m.denseGmRead += d->totalBytes();
        } else if (d->dst == MemSpace::GM) {
            m.denseGmWritten += d->totalBytes();
        }
    });
    return m;
}

LoweredKernel lowered(OpInstance op, std::uint32_t blockDim) {
    op.blockDim = blockDim;
    return KernelRegistry::instance().lower(op, ascend910B1()).front();
}

TEST(VectorAdvancedIndex, IndexReadsOneElementPerAccess) {
    const auto x = ndTensorAt("x", {64, 1000}, DataType::Fp32, 0x100000);
    const auto i0 = ndTensorAt("i0", {300}, DataType::Int64, 0x10000),
               i1 = ndTensorAt("i1", {300}, DataType::Int64, 0x20000);
    const auto y = ndTensorAt("y", {300}, DataType::Fp32, 0x30000);
    const LoweredKernel k = lowered(makeOp("Index", {x, i0, i1}, {y}), 7);
    const Moves m = movesOf(k);
    EXPECT_EQ(m.indexedReads, 300u);
    EXPECT_EQ(m.denseGmRead, 2u * 300 * 8);  // the two index tensors, once
    EXPECT_EQ(m.denseGmWritten, 300u * 4);   // y
    EXPECT_EQ(m.scalarLoads,
              3u * 300);  // one GetValue per index, one per element copied to the row
}

// Index's elements go out in CANN's tasks of 128 (index.py's TASK_ALIGN), task t to block
// t % blocks: each task is one index load, its element reads and one store of its dense run, so
// with fewer tasks than blocks the first blocks take 128 elements and the rest none.
TEST(VectorAdvancedIndex, IndexDealsTasksOf128ElementsRoundRobin) {
    auto perBlock = [](std::uint64_t elements, std::uint32_t blockDim) {
        const auto x = ndTensorAt("x", {4096, 1000}, DataType::Fp32, 0x1000000);
        const auto i0 = ndTensorAt("i0", {static_cast<std::int64_t>(elements)}, DataType::Int64, 0x10000),
                   i1 = ndTensorAt("i1", {static_cast<std::int64_t>(elements)}, DataType::Int64, 0x20000);
        const auto y = ndTensorAt("y", {static_cast<std::int64_t>(elements)}, DataType::Fp32, 0x30000);
        const LoweredKernel k = lowered(makeOp("Index", {x, i0, i1}, {y}), blockDim);
        std::vector<std::pair<std::uint64_t, std::uint64_t>> blocks;  // (element reads, dense stores)
        for (std::uint32_t block = 0; block < k.blockDim; ++block) {
            std::pair<std::uint64_t, std::uint64_t> counts{0, 0};
            auto stream = k.program({block, CoreKind::Vector, 0, 0});
            std::vector<Instruction> chunk;
            while (stream->next(chunk)) {
                for (const Instruction& i : chunk)
                    if (const auto* d = std::get_if<DataMove>(&i.operands)) {
                        if (d->indexed()) ++counts.first;
                        if (d->dst == MemSpace::GM) ++counts.second;
                    }
                chunk.clear();
            }
            blocks.push_back(counts);
        }
        return blocks;
    };
    // 600 elements on 3 blocks: tasks of 128, 128, 128, 128, 88; block 0 runs tasks 0 and 3.
    EXPECT_EQ(perBlock(600, 3), (std::vector<std::pair<std::uint64_t, std::uint64_t>>{{256, 2}, {216, 2}, {128, 1}}));
    // Qwen3's 4096 elements on 40 blocks: 32 tasks, blocks 32-39 idle (an even share would be 103).
    const auto qwen = perBlock(4096, 40);
    for (std::uint32_t block = 0; block < 40; ++block)
        EXPECT_EQ(qwen[block].first, block < 32 ? 128u : 0u) << "block " << block;
}

// The order within a block: Index's scalar unit waits for each element's read (MTE2 -> S) before
// the next read is issued; IndexPutV2's write waits for its value's read (MTE2 -> MTE3) and the
// next read for that write (MTE3 -> MTE2).
TEST(VectorAdvancedIndex, EachElementWaitsForTheOneBeforeIt) {
    const auto x = ndTensorAt("x", {64, 1000}, DataType::Fp32, 0x100000);
    const auto i0 = ndTensorAt("i0", {40}, DataType::Int64, 0x10000),
               i1 = ndTensorAt("i1", {40}, DataType::Int64, 0x20000);
    const auto dense = ndTensorAt("y", {40}, DataType::Fp32, 0x30000);
    auto sequence = [](const LoweredKernel& k) {
        std::string s;
        forEachBlockInstruction(k, CoreKind::Vector, [&](const Instruction& i) {
            const auto* d = std::get_if<DataMove>(&i.operands);
            if (d != nullptr && (d->indexed() || d->totalBytes() == 4))
                s += d->dst == MemSpace::GM ? 'W' : 'R';
            if (const auto* f = std::get_if<Flag>(&i.operands);
                f != nullptr && i.opcode == Opcode::WaitFlag) {
                if (f->src == Pipe::Mte2 && f->dst == Pipe::Scalar) s += 's';
                if (f->src == Pipe::Mte2 && f->dst == Pipe::Mte3) s += 'w';
                if (f->src == Pipe::Mte3 && f->dst == Pipe::Mte2) s += 'r';
            }
        });
        return s;
    };
    // One block: the tile's indices are waited for (s), then each element is read and waited for.
    std::string index = "s";
    for (int k = 0; k < 40; ++k) index += "Rs";
    EXPECT_EQ(sequence(lowered(makeOp("Index", {x, i0, i1}, {dense}), 1)), index);
    std::string put = "s";
    for (int k = 0; k < 40; ++k) put += (k > 0 ? "rRwW" : "RwW");
    put += "r";
    EXPECT_EQ(sequence(lowered(makeOp("IndexPutV2", {x, dense, i0, i1}, {x}), 1)), put);
}

TEST(VectorAdvancedIndex, IndexPutWritesOneElementPerAccessOverEveryBlock) {
    const auto self = ndTensorAt("self", {64, 1000}, DataType::Fp32, 0x100000);
    const auto values = ndTensorAt("v", {300}, DataType::Fp32, 0x40000);
    const auto i0 = ndTensorAt("i0", {300}, DataType::Int64, 0x10000),
               i1 = ndTensorAt("i1", {300}, DataType::Int64, 0x20000);
    const LoweredKernel k = lowered(makeOp("IndexPutV2", {self, values, i0, i1}, {self}), 7);
    const Moves m = movesOf(k);
    EXPECT_EQ(m.indexedWrites, 300u);
    EXPECT_EQ(m.indexedReads, 0u);
    EXPECT_EQ(m.denseGmRead, 300u * 4 + 2u * 300 * 8);
    EXPECT_EQ(m.denseGmWritten, 0u);
    // One index tensor for a 2-D self is a row index, not modelled: refused with the reason.
    EXPECT_THROW(KernelRegistry::instance().lower(makeOp("IndexPutV2", {self, values, i0}, {self}),
                                                  ascend910B1()),
                 LoweringError);
}

// NonZero: every block counts its share, writes the count, meets the others at the all-AIV barrier,
// reads every count back and stores its coordinates (within y's bytes).
TEST(VectorNonZero, CountsMeetAtTheBarrierThenCoordinatesAreStored) {
    const auto x = ndTensorAt("x", {64, 100}, DataType::Bool, 0x10000);
    const auto y = ndTensorAt("y", {6400, 2}, DataType::Int64, 0x100000);
    const LoweredKernel k = lowered(makeOp("NonZero", {x}, {y}), 4);
    EXPECT_EQ(k.workspaceBytes, 4u * 32);
    std::uint64_t xRead = 0, countsRead = 0, yWritten = 0, countsWritten = 0;
    std::vector<int> events;
    forEachBlockInstruction(
        k, CoreKind::Vector,
        [&](const Instruction& i) {
            if (i.opcode == Opcode::CrossCoreSet) events.push_back(1);
            if (i.opcode == Opcode::CrossCoreWait) events.push_back(-1);
            const auto* d = std::get_if<DataMove>(&i.operands);
            if (d == nullptr) return;
            if (d->src == MemSpace::GM)
                (d->srcAddr >= 0x800000 ? countsRead : xRead) += d->totalBytes();
            if (d->dst == MemSpace::GM)
                (d->dstAddr >= 0x800000 ? countsWritten : yWritten) += d->totalBytes();
        },
        0x800000);
    EXPECT_EQ(events,
              (std::vector<int>{1, -1, 1, -1, 1, -1, 1, -1}));  // each block: set, then wait
    EXPECT_EQ(xRead, 6400u);             // x once (it fits in UB for the second pass)
    EXPECT_EQ(countsRead, 4u * 4 * 32);  // every block reads every count
    EXPECT_EQ(countsWritten, 4u * 32);
    EXPECT_EQ(yWritten, 6400u * 2 * 8);
    // y smaller than the upper bound: stores stop at its end.
    const LoweredKernel small =
        lowered(makeOp("NonZero", {x}, {ndTensorAt("y", {1}, DataType::Int64, 0x100000)}), 4);
    EXPECT_NO_THROW(small.program({3, CoreKind::Vector, 0, 0x800000}));
}

}  // namespace
}  // namespace ascendsim::test

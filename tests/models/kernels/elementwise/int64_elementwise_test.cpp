// int64 elementwise ops on a 32-bit lane vector unit
// (models/kernels/elementwise/int64_elementwise.h): the word-level programs move exactly the
// tensors' bytes, split words with vreduces, carry with a compare and a select, and int64 Mul runs
// on the scalar unit.
#include <gtest/gtest.h>

#include "models/kernels/elementwise/int64_elementwise.h"
#include "models/kernels/kernel_registry.h"
#include "tests/models/kernels/cube_test_support.h"
#include "tests/models/kernels/test_chip.h"

namespace ascendsim::test {
namespace {

struct Census {
    std::uint64_t gmRead = 0, gmWritten = 0, scalarCycles = 0;
    std::map<VectorOp, std::uint64_t> vectors;
};

Census census(const LoweredKernel& kernel) {
    Census c;
    forEachBlockInstruction(kernel, CoreKind::Vector, [&](const Instruction& i) {
        if (const auto* m = std::get_if<DataMove>(&i.operands)) {
            if (m->src == MemSpace::GM) c.gmRead += m->totalBytes();
            if (m->dst == MemSpace::GM) c.gmWritten += m->totalBytes();
        }
        if (const auto* v = std::get_if<VectorInstr>(&i.operands)) ++c.vectors[v->op];
        if (const auto* s = std::get_if<ScalarWork>(&i.operands)) c.scalarCycles += s->cycles;
    });
    return c;
}

LoweredKernel lowerOne(OpInstance op, std::uint32_t blockDim) {
    op.blockDim = blockDim;
    const auto kernels = KernelRegistry::instance().lower(op, ascend910B1());
    EXPECT_EQ(kernels.size(), 1u);
    return kernels.front();
}

TEST(VectorInt64Elementwise, SubSplitsWordsAndCarriesOverEveryBlock) {
    const auto x = ndTensorAt("x", {4096, 1}, DataType::Int64, 0x10000),
               y = ndTensorAt("y", {4096, 1}, DataType::Int64, 0x40000);
    const auto dense =
        lowerOne(makeOp("Sub", {x, ndTensorAt("x2", {4096, 1}, DataType::Int64, 0x20000)}, {y}), 8);
    const Census c = census(dense);
    EXPECT_EQ(c.gmRead, 2u * 4096 * 8);
    EXPECT_EQ(c.gmWritten, 4096u * 8);
    EXPECT_GT(c.vectors.at(VectorOp::CompareGt), 0u);  // the borrow
    EXPECT_GT(c.vectors.at(VectorOp::Select), 0u);
    // A scalar x2 is one 32 B block per block, and its words need no split.
    const auto scalar =
        lowerOne(makeOp("Sub", {x, ndTensorAt("s", {}, DataType::Int64, 0x30000)}, {y}), 8);
    const Census s = census(scalar);
    EXPECT_EQ(s.gmRead, 4096u * 8 + 8 * 32);
    EXPECT_LT(s.vectors.at(VectorOp::Gather), c.vectors.at(VectorOp::Gather));
}

TEST(VectorInt64Elementwise, ComparesWriteOneBytePerElement) {
    const auto x = ndTensorAt("x", {5, 32}, DataType::Int64, 0x10000),
               x2 = ndTensorAt("x2", {5, 32}, DataType::Int64, 0x20000);
    const Census c = census(
        lowerOne(makeOp("Equal", {x, x2}, {ndTensorAt("y", {5, 32}, DataType::Bool, 0x30000)}), 1));
    EXPECT_EQ(c.gmRead, 2u * 160 * 8);
    EXPECT_EQ(c.gmWritten, 160u);
    EXPECT_GT(c.vectors.at(VectorOp::Cast), 0u);  // int32 mask → fp16 → uint8
}

TEST(VectorInt64Elementwise, MulRunsOnTheScalarUnitAndCastsKeepOrDropWords) {
    const auto a = ndTensorAt("a", {4096}, DataType::Int64, 0x10000),
               b = ndTensorAt("b", {4096}, DataType::Int64, 0x20000);
    const Census mul = census(
        lowerOne(makeOp("Mul", {a, b}, {ndTensorAt("y", {4096}, DataType::Int64, 0x30000)}), 8));
    EXPECT_TRUE(mul.vectors.empty());
    EXPECT_GE(mul.scalarCycles, 4096u * 12);
    OpInstance narrow = makeOp("Cast", {a}, {ndTensorAt("y", {4096}, DataType::Int32, 0x30000)});
    narrow.attrs["dst_type"] = std::string("int32");
    const Census n = census(lowerOne(narrow, 8));
    EXPECT_EQ(n.gmRead, 4096u * 8);
    EXPECT_EQ(n.gmWritten, 4096u * 4);
    OpInstance wrongTarget = narrow;
    wrongTarget.attrs["dst_type"] = std::string("fp32");
    EXPECT_THROW(KernelRegistry::instance().lower(wrongTarget, ascend910B1()), LoweringError);
    OpInstance widen = makeOp("Cast", {ndTensorAt("m", {4096}, DataType::Bool, 0x10000)},
                              {ndTensorAt("y", {4096}, DataType::Int64, 0x30000)});
    widen.attrs["dst_type"] = std::string("int64");
    const Census w = census(lowerOne(widen, 8));
    EXPECT_EQ(w.gmRead, 4096u);
    EXPECT_EQ(w.gmWritten, 4096u * 8);
}

// Every word step reads the one before it: a PipeBarrier<PIPE_V> stands between each two steps of
// a chunk (and none where the vector work of a chunk ends: its hand-off to MTE3 waits anyway).
TEST(VectorInt64Elementwise, WordStepsWaitForEachOtherBehindVectorBarriers) {
    const auto x = ndTensorAt("x", {64}, DataType::Int64, 0x10000),
               y = ndTensorAt("y", {64}, DataType::Int64, 0x40000);
    const LoweredKernel k =
        lowerOne(makeOp("Sub", {x, ndTensorAt("s", {}, DataType::Int64, 0x30000)}, {y}), 1);
    std::string v;  // the vector pipe's instructions: 'v' a vector instruction, '|' a barrier
    forEachBlockInstruction(k, CoreKind::Vector, [&](const Instruction& i) {
        if (i.pipe != Pipe::Vector) return;
        if (i.opcode == Opcode::Vector) v += 'v';
        if (i.opcode == Opcode::Barrier) v += '|';
    });
    // One chunk of 64 elements (one repeat each): split (2), low, borrow, select, high, carry,
    // interleave.
    EXPECT_EQ(v, "v|v|v|v|v|v|v|v");
}

// docs/fidelity.md §176: the int64 broadcast-pattern binaries (Add / Sub / Mul / compares and
// BroadcastTo of int64) run through a larger code image than the chip's default on the split chips;
// Cast's one-case binaries, the fp32 BroadcastTo and the coupled chip's static kernels keep the
// chip's image (codeBytes 0).
TEST(VectorInt64Elementwise, BroadcastPatternBinariesRunThroughALargerImageOnSplitChips) {
    for (const bool split : {true, false}) {
        const ChipConfig chip = split ? ascend910B1() : coupledChip();
        const std::uint32_t large = split ? kInt64BroadcastBinaryCodeBytes : 0u;
        const auto lower = [&chip](OpInstance op) {
            op.blockDim = 1;
            const auto kernels = KernelRegistry::instance().lower(op, chip);
            EXPECT_EQ(kernels.size(), 1u);
            EXPECT_EQ(kernelTaskOf(kernels.front()).codeBytes, kernels.front().codeBytes);
            return kernels.front().codeBytes;
        };
        const auto x = ndTensorAt("x", {5, 32}, DataType::Int64, 0x10000),
                   x2 = ndTensorAt("x2", {5, 32}, DataType::Int64, 0x20000),
                   y = ndTensorAt("y", {5, 32}, DataType::Int64, 0x30000);
        EXPECT_EQ(lower(makeOp("Sub", {x, x2}, {y})), large) << chip.name;
        EXPECT_EQ(lower(makeOp("Mul", {x, x2}, {y})), large) << chip.name;
        EXPECT_EQ(lower(makeOp("Equal", {x, x2}, {ndTensorAt("b", {5, 32}, DataType::Bool, 0x30000)})), large) << chip.name;
        OpInstance narrow = makeOp("Cast", {x}, {ndTensorAt("n", {5, 32}, DataType::Int32, 0x30000)});
        narrow.attrs["dst_type"] = std::string("int32");
        EXPECT_EQ(lower(narrow), 0u) << chip.name;
        // AlexNet's accuracy BroadcastTo [1,32] → [5,32]: int64 and, for contrast, fp32.
        const auto row = ndTensorAt("row", {1, 32}, DataType::Int64, 0x40000);
        EXPECT_EQ(lower(makeOp("BroadcastTo", {row}, {y})), large) << chip.name;
        EXPECT_EQ(lower(makeOp("BroadcastTo", {ndTensorAt("f", {1, 32}, DataType::Fp32, 0x40000)},
                               {ndTensorAt("g", {5, 32}, DataType::Fp32, 0x30000)})),
                  0u)
            << chip.name;
    }
}

}  // namespace
}  // namespace ascendsim::test

// MaxPoolWithArgmaxV1's two CANN implementations (max_pool_argmax_geometry.h): fp32 runs the
// DSL's PoolingWithArg NO_SPLIT schedule (UB tiles of whole fractals of 16 output positions, a move
// per input row, img2col one 32 B block per repeat, dense window ops, a mask store per tap;
// max_pool_with_argmax.cpp), fp16 the TIK form (whole planes or bands of rows, 8 positions per
// repeat; max_pool_with_argmax_tik_test.cpp). docs/fidelity.md §173 has the real rows the DSL form
// is measured against.
#include <gtest/gtest.h>

#include <variant>

#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

struct ArgmaxPoolProgram {
    std::uint64_t loads = 0, maskStores = 0, perTapStores = 0, windowOps = 0, onePositionOps = 0;
    std::uint64_t oneBlockCopies = 0;  // x's dtype, one 32 B block per repeat (the DSL's img2col)
    std::uint64_t storedBytes = 0;
    std::uint64_t loadEventsUsed = 0;  // distinct event ids of the MTE2 → V flags (buffers in play)
};

// Counts every block's moves and the window ops (Max, CompareGt) and one-block Copies of x's dtype.
ArgmaxPoolProgram inspect(const LoweredKernel& kernel, DataType dtype, std::uint64_t taps) {
    ArgmaxPoolProgram p;
    std::uint32_t loadEvents = 0;  // bit e: a load handed on with event id e
    forEachBlockInstruction(kernel, CoreKind::Vector, [&](const Instruction& instruction) {
        if (const auto* move = std::get_if<DataMove>(&instruction.operands)) {
            if (move->src == MemSpace::GM) ++p.loads;
            if (move->dst != MemSpace::GM) return;
            p.storedBytes += move->totalBytes();
            if (move->burstCount == taps) ++p.maskStores;
            else ++p.perTapStores;
        } else if (const auto* f = std::get_if<Flag>(&instruction.operands)) {
            if (instruction.opcode == Opcode::SetFlag && f->src == Pipe::Mte2 && f->dst == Pipe::Vector)
                loadEvents |= 1u << f->eventId;
        } else if (const auto* v = std::get_if<VectorInstr>(&instruction.operands)) {
            if (v->dtype != dtype) return;
            if (v->op == VectorOp::Copy && v->mask == elementsPerBlock(dtype)) ++p.oneBlockCopies;
            if (v->op != VectorOp::Max && v->op != VectorOp::CompareGt) return;
            ++p.windowOps;
            if (v->mask == 16) ++p.onePositionOps;
        }
    });
    for (std::uint32_t bits = loadEvents; bits != 0; bits &= bits - 1) ++p.loadEventsUsed;
    return p;
}

TEST(VectorMaxPoolArgmaxForms, Fp32RunsTheDslFractalTilesAndFp16TheTikForm) {
    constexpr std::int64_t kN = 2, kC = 64, kH = 55, kW = 55, kOh = 27, kOw = 27, kTaps = 9;
    const ChipConfig chip = ascend910B1();
    for (const DataType dtype : {DataType::Fp32, DataType::Fp16}) {
        CubeOpHarness h(chip, 64ull << 20);
        const auto x = h.tensor("x", {kN, kC, kH, kW}, dtype), y = h.tensor("y", {kN, kC, kOh, kOw}, dtype);
        const auto mask = h.tensor("argmax", {kN, kC / 16, kTaps, (kOh * kOw + 15) / 16 + 1, 16}, DataType::Int16);
        auto op = makeOp("MaxPoolWithArgmaxV1", {x}, {y, mask});
        op.attrs["ksize"] = std::vector<std::int64_t>{3, 3};
        op.attrs["strides"] = std::vector<std::int64_t>{2, 2};
        op.blockDim = 1u;  // every tile in one block, so a form's buffers all come into play
        const auto kernels = h.lower(op);
        ASSERT_EQ(kernels.size(), 1u);
        const ArgmaxPoolProgram p = inspect(kernels[0], dtype, kTaps);
        const std::uint64_t planes = kN * kC / 16, outputRows = planes * kOh;
        ASSERT_GT(p.windowOps, 0u);
        if (dtype == DataType::Fp32) {
            // 27 × 27 = 729 outputs are 46 fractals; a tile holds 7 (every tap's fractals, 9 · 7 KiB,
            // within (192 KiB − 256 B) / 3), so 7 tiles a plane. Six tiles of 112 positions span 5
            // output rows each (11 input rows), the last (57 positions) 3 rows (7 input rows).
            EXPECT_EQ(p.loads, planes * (6 * 11 + 7));  // a move per input row
            EXPECT_EQ(p.perTapStores, planes * 7 * (1 + kTaps));  // y, then one mask move per tap
            EXPECT_EQ(p.maskStores, 0u);
            // y, and every tap's bits of whole fractals (one uint16 per position).
            EXPECT_EQ(p.storedBytes, y.bytes() + planes * kTaps * 46 * 16 * 2);
            // img2col: per tap, C0 half and output row a tile touches (7 tiles touch 6 · 5 + 3 rows).
            EXPECT_EQ(p.oneBlockCopies, planes * kTaps * 2 * (6 * 5 + 3));
            EXPECT_EQ(p.onePositionOps, 0u);  // the window ops run dense over the fractals
            EXPECT_EQ(p.loadEventsUsed, 1u);  // one buffer: a tile loads after the previous tile's compute
        } else {
            EXPECT_GE(p.storedBytes, y.bytes() + planes * kTaps * kOh * kOw * 2) << dataTypeName(dtype);
            EXPECT_LT(p.loads, outputRows / 4);  // whole bands of rows per tile
            EXPECT_EQ(p.maskStores, 0u);
            EXPECT_EQ(p.onePositionOps, 0u);  // 8 positions per repeat
            EXPECT_EQ(p.loadEventsUsed, 2u);  // units alternate between two sets of UB parts
        }
    }
}

}  // namespace
}  // namespace ascendsim::test

// MaxPoolWithArgmaxV1's two CANN implementations (max_pool_argmax_geometry.h): fp32 runs the
// DSL's reduce_window form (one output row per tile, one position per vector repeat, every tap's
// mask rows in one strided store), fp16 the TIK form (whole planes or bands of rows, 8 positions per
// repeat; max_pool_with_argmax_tik_test.cpp). docs/fidelity.md §25 has the real per-row costs the
// DSL form reproduces; §47 its one buffer (a row's moves do not overlap the previous row's compute).
#include <gtest/gtest.h>

#include <variant>

#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

struct ArgmaxPoolProgram {
    std::uint64_t loads = 0, maskStores = 0, perTapStores = 0, windowOps = 0, onePositionOps = 0;
    std::uint64_t storedBytes = 0;
    std::uint64_t loadEventsUsed = 0;  // distinct event ids of the MTE2 → V flags (buffers in play)
};

// Counts every block's moves and the window ops (Max, CompareGt) of x's dtype.
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
            if (v->dtype != dtype || (v->op != VectorOp::Max && v->op != VectorOp::CompareGt)) return;
            ++p.windowOps;
            if (v->mask == 16) ++p.onePositionOps;
        }
    });
    for (std::uint32_t bits = loadEvents; bits != 0; bits &= bits - 1) ++p.loadEventsUsed;
    return p;
}

TEST(VectorMaxPoolArgmaxForms, Fp32RunsTheDslFormRowByRowAndFp16TheTikForm) {
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
        // Both forms store y; the DSL form every tap's mask entries once, the TIK form its bands'
        // 16-aligned mask rows (the last band's past the plane's end, into its padding row).
        if (dtype == DataType::Fp32)
            EXPECT_EQ(p.storedBytes, y.bytes() + planes * kTaps * kOh * kOw * 2) << dataTypeName(dtype);
        else
            EXPECT_GE(p.storedBytes, y.bytes() + planes * kTaps * kOh * kOw * 2) << dataTypeName(dtype);
        ASSERT_GT(p.windowOps, 0u);
        if (dtype == DataType::Fp32) {
            EXPECT_EQ(p.loads, outputRows);       // one tile (one input band) per output row
            EXPECT_EQ(p.maskStores, outputRows);  // the row's taps in one strided store
            EXPECT_EQ(p.perTapStores, outputRows);  // and the row's y
            EXPECT_EQ(p.onePositionOps, p.windowOps);
            EXPECT_EQ(p.loadEventsUsed, 1u);  // one buffer: a row loads after the previous row's compute
        } else {
            EXPECT_LT(p.loads, outputRows / 4);  // whole bands of rows per tile
            EXPECT_EQ(p.maskStores, 0u);
            EXPECT_EQ(p.onePositionOps, 0u);  // 8 positions per repeat
            EXPECT_EQ(p.loadEventsUsed, 2u);  // units alternate between two sets of UB parts
        }
    }
}

}  // namespace
}  // namespace ascendsim::test

// Padded fractal TransData (models/kernels/layout/trans_data/trans_data_padded.h): the plain side moves only
// its real elements, the fractal side whole fractals (padding written as zeros into them, dropped
// on the way back), in few tiles however small the matrices.
#include <gtest/gtest.h>

#include "models/kernels/kernel_registry.h"
#include "tests/models/kernels/cube_test_support.h"
#include "tests/models/kernels/test_chip.h"

namespace ascendsim::test {
namespace {

struct Traffic {
    std::uint64_t read = 0, written = 0, moves = 0, duplicates = 0;
};

Traffic trafficOf(const OpInstance& op) {
    const LoweredKernel k = KernelRegistry::instance().lower(op, ascend910B1()).front();
    Traffic t;
    forEachBlockInstruction(k, CoreKind::Vector, [&](const Instruction& i) {
        if (const auto* v = std::get_if<VectorInstr>(&i.operands)) t.duplicates += v->op == VectorOp::Duplicate;
        const auto* d = std::get_if<DataMove>(&i.operands);
        if (d == nullptr) return;
        ++t.moves;
        if (d->src == MemSpace::GM) t.read += d->totalBytes();
        if (d->dst == MemSpace::GM) t.written += d->totalBytes();
    });
    return t;
}

OpInstance transData(TensorInfo x, TensorInfo y, const std::string& to) {
    x.deviceAddr = 0x100000;
    y.deviceAddr = 0x1000000;
    OpInstance op = makeOp("TransData", {x}, {y});
    op.attrs["dst_format"] = to;
    return op;
}

TensorInfo tensor(const std::string& name, std::vector<std::int64_t> shape, DataType dtype, TensorFormat format) {
    return TensorInfo{name, std::move(shape), dtype, format, 0};
}

TEST(VectorTransDataPadded, StemWeightFillsWholeFractalZBlocks) {
    const auto w = tensor("w", {64, 3, 11, 11}, DataType::Fp32, TensorFormat::NCHW);
    const auto fz = tensor("fz", {121, 4, 16, 16}, DataType::Fp32, TensorFormat::FractalZ);
    const Traffic to = trafficOf(transData(w, fz, "FRACTAL_Z"));
    EXPECT_EQ(to.read, 64u * 3 * 121 * 4);          // the weight's real elements
    EXPECT_EQ(to.written, 121u * 4 * 16 * 16 * 4);  // whole fractals, 13 of 16 channels zero
    EXPECT_GT(to.duplicates, 0u);
    const Traffic back = trafficOf(transData(fz, w, "NCHW"));
    EXPECT_EQ(back.read, 121u * 4 * 16 * 16 * 4);
    EXPECT_EQ(back.written, 64u * 3 * 121 * 4);
    // Co not a multiple of 16 pads too; a FRACTAL_Z of the wrong size is refused.
    const Traffic co = trafficOf(transData(tensor("w", {20, 3, 3, 3}, DataType::Fp32, TensorFormat::NCHW),
                                           tensor("fz", {9, 2, 16, 8}, DataType::Fp32, TensorFormat::FractalZ), "FRACTAL_Z"));
    EXPECT_EQ(co.read, 20u * 3 * 9 * 4);
    EXPECT_EQ(co.written, 9u * 2 * 16 * 8 * 4);
    EXPECT_THROW(trafficOf(transData(w, tensor("fz", {121, 5, 16, 16}, DataType::Fp32, TensorFormat::FractalZ), "FRACTAL_Z")),
                 LoweringError);
}

TEST(VectorTransDataPadded, NarrowColumnsPadToWholeStrips) {
    // A classifier of 1000 classes: 63 strips of 16 columns, the last one 8 wide.
    const auto nd = tensor("x", {32, 1000}, DataType::Fp16, TensorFormat::ND);
    const auto nz = tensor("y", {32, 1008}, DataType::Fp16, TensorFormat::FractalNz);
    const Traffic to = trafficOf(transData(nd, nz, "FRACTAL_NZ"));
    EXPECT_EQ(to.read, 32u * 1000 * 2);
    EXPECT_EQ(to.written, 63u * 32 * 16 * 2);
    const Traffic back = trafficOf(transData(nz, nd, "ND"));
    EXPECT_EQ(back.written, 32u * 1000 * 2);
    // 8192 planes of 6×6, one 16×16 fractal each: whole planes per tile, not a tile per plane.
    const Traffic planes = trafficOf(transData(tensor("x", {8192, 6, 6}, DataType::Fp16, TensorFormat::ND),
                                               tensor("y", {8192, 16, 16}, DataType::Fp16, TensorFormat::FractalNz),
                                               "FRACTAL_NZ"));
    EXPECT_EQ(planes.read, 8192u * 36 * 2);
    EXPECT_EQ(planes.written, 8192u * 256 * 2);
    EXPECT_LT(planes.moves, 8192u / 8);
}

}  // namespace
}  // namespace ascendsim::test

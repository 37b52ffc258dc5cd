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

// What one block of a padded FRACTAL_NZ conversion issues on a chip: its GM loads, UB → UB moves
// and vector instructions by kind.
struct BlockWork {
    std::uint64_t loads = 0, loaded = 0, ubMoves = 0, gathers = 0, vors = 0;
};

BlockWork blockWorkOf(const OpInstance& op, const ChipConfig& chip, std::uint32_t block = 0) {
    const LoweredKernel k = KernelRegistry::instance().lower(op, chip).front();
    BlockWork w;
    forEachProgramInstruction(k, CoreKind::Vector, [&](const Instruction& i) {
        if (const auto* v = std::get_if<VectorInstr>(&i.operands)) {
            w.gathers += v->op == VectorOp::Gather;
            w.vors += v->op == VectorOp::Or;
        }
        const auto* d = std::get_if<DataMove>(&i.operands);
        if (d == nullptr) return;
        if (d->src == MemSpace::GM) ++w.loads, w.loaded += d->totalBytes();
        if (d->src == MemSpace::UB && d->dst == MemSpace::UB) ++w.ubMoves;
    }, block);
    return w;
}

// §139: the coupled chips' DSL form. CANN's tiling grows a tile until the tiles number no more than
// the cores, so a block's share that fits in UB is one tile (one load), and the reorder is `vor`
// block moves, with one align_pad / remove_pad a tile for packed rows that are not whole blocks.
TEST(VectorTransDataPadded, CoupledChipsDslFormLoadsABlocksShareAsOneTileAndMovesBlocksByVor) {
    const ChipConfig chip = coupledChip();
    // 1024 planes of 6×6 fp16 over 32 blocks: 32 planes (8 KiB of fractals) a block, one tile.
    const auto planes = tensor("x", {1024, 6, 6}, DataType::Fp16, TensorFormat::ND);
    const auto fractals = tensor("y", {1024, 16, 16}, DataType::Fp16, TensorFormat::FractalNz);
    const BlockWork to = blockWorkOf(transData(planes, fractals, "FRACTAL_NZ"), chip);
    EXPECT_EQ(to.loads, 1u);
    EXPECT_EQ(to.loaded, 32u * 36 * 2);
    EXPECT_EQ(to.ubMoves, 1u);  // align_pad: the packed 12 B rows onto 32 B rows
    EXPECT_EQ(to.gathers, 0u);
    EXPECT_GT(to.vors, 0u);
    const BlockWork back = blockWorkOf(transData(fractals, planes, "ND"), chip);
    EXPECT_EQ(back.loads, 1u);
    EXPECT_EQ(back.ubMoves, 1u);  // remove_pad
    EXPECT_EQ(back.gathers, 0u);
    // 16 384 planes: 512 a block, more than UB holds — 127 planes a tile (256 KiB over 8 B a
    // fractal element: source, destination and the aligned rows), so 5 tiles, not 16 of 8192 elements.
    const BlockWork many = blockWorkOf(transData(tensor("x", {16384, 6, 6}, DataType::Fp16, TensorFormat::ND),
                                                 tensor("y", {16384, 16, 16}, DataType::Fp16, TensorFormat::FractalNz),
                                                 "FRACTAL_NZ"), chip);
    EXPECT_EQ(many.loads, 5u);
    // 1000 classes: rows of 2000 B land block-aligned, so the strips move by vor alone.
    const BlockWork classes = blockWorkOf(transData(tensor("x", {32, 1000}, DataType::Fp16, TensorFormat::ND),
                                                    tensor("y", {32, 1008}, DataType::Fp16, TensorFormat::FractalNz),
                                                    "FRACTAL_NZ"), chip);
    EXPECT_EQ(classes.ubMoves, 0u);
    EXPECT_EQ(classes.gathers, 0u);
    EXPECT_GT(classes.vors, 0u);
    // The 910B parts run Ascend C's TransData: the Gather stays, in tiles of at most 8192 elements.
    const BlockWork split = blockWorkOf(transData(planes, fractals, "FRACTAL_NZ"), ascend910B1());
    EXPECT_GT(split.gathers, 0u);
    EXPECT_EQ(split.vors, 0u);
}

}  // namespace
}  // namespace ascendsim::test

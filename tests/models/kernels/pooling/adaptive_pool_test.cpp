// AdaptiveAvgPool2d to output sizes other than [1,1] (PyTorch's windows: start = floor(i·H/oh),
// end = ceil((i+1)·H/oh)) against a reference computed here in double, over the block_dim sweep;
// and the [1,1] output's two plans (CANN's ReduceMean over H·W, docs/fidelity.md §87).
#include <gtest/gtest.h>

#include <variant>

#include "models/kernels/reduction/dsl_reduce_dispatch.h"
#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

std::vector<double> adaptiveAverage(const std::vector<float>& x, std::int64_t planes,
                                    std::int64_t h, std::int64_t w, std::int64_t oh,
                                    std::int64_t ow) {
    std::vector<double> y;
    for (std::int64_t p = 0; p < planes; ++p) {
        for (std::int64_t i = 0; i < oh; ++i) {
            for (std::int64_t j = 0; j < ow; ++j) {
                const std::int64_t h0 = i * h / oh, h1 = ((i + 1) * h + oh - 1) / oh;
                const std::int64_t w0 = j * w / ow, w1 = ((j + 1) * w + ow - 1) / ow;
                double sum = 0;
                for (std::int64_t r = h0; r < h1; ++r)
                    for (std::int64_t c = w0; c < w1; ++c)
                        sum += x[static_cast<std::size_t>((p * h + r) * w + c)];
                y.push_back(sum / static_cast<double>((h1 - h0) * (w1 - w0)));
            }
        }
    }
    return y;
}

void checkAdaptivePool(
    const std::vector<std::int64_t>& shape, std::int64_t oh, std::int64_t ow, DataType dtype,
    const std::vector<std::optional<std::uint32_t>>& blockDims = blockDimSweep()) {
    const ChipConfig chip = ascend910B1();
    for (const auto& blockDim : blockDims) {
        CubeOpHarness h(chip);
        const auto x = h.tensor("x", shape, dtype);
        const auto y = h.tensor("y", {shape[0], shape[1], oh, ow}, dtype);
        const auto in = h.fillRandom(x, -3, 3);
        h.fill(y, 77.0f);  // every output must be written
        auto op = makeOp("AdaptiveAvgPool2d", {x}, {y});
        op.attrs["output_size"] = std::vector<std::int64_t>{oh, ow};
        op.blockDim = blockDim;
        h.run(op);
        const auto expected = adaptiveAverage(in, shape[0] * shape[1], shape[2], shape[3], oh, ow);
        expectNear(h.read(y), roundedTo(dtype, expected), absoluteTolerance(dtype),
                   2 * relativeTolerance(dtype),
                   "AdaptiveAvgPool2d to " + std::to_string(oh) + "x" + std::to_string(ow) + ", " +
                       blockDimName(blockDim));
    }
}

TEST(VectorAdaptivePool, DividingSizesAverageEqualWindows) {
    checkAdaptivePool({2, 8, 14, 14}, 7, 7, DataType::Fp16);  // 2x2 windows
    checkAdaptivePool({1, 3, 7, 7}, 7, 7,
                      DataType::Fp32);  // identity: one-element windows, 3 of 8 planes used
}

TEST(VectorAdaptivePool, NonDividingSizesUseOverlappingWindowsOfSeveralSizes) {
    checkAdaptivePool({2, 3, 10, 10}, 3, 3, DataType::Fp32);  // windows [0,4) [3,7) [6,10)
    checkAdaptivePool({1, 70, 9, 13}, 4, 5,
                      DataType::Bf16);  // a full 64-plane group and a partial one
    checkAdaptivePool({1, 5, 3, 3}, 5, 4, DataType::Fp16);  // upsampling: windows shared by outputs
}

TEST(VectorAdaptivePool, LargePlanesSplitIntoBandsOfOutputRows) {
    // 56x56 fp16 planes: a tile holds a band of output rows, and W·P rows too wide for the 8-bit
    // repeat stride fall back to one instruction per output row.
    checkAdaptivePool({1, 64, 56, 56}, 6, 6, DataType::Fp16, {std::nullopt, 1u, 7u});
    checkAdaptivePool({1, 8, 112, 112}, 50, 30, DataType::Fp32, {std::nullopt, 7u});
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    auto op = makeOp("AdaptiveAvgPool2d", {h.tensor("x", {1, 64, 56, 56}, DataType::Fp16)},
                     {h.tensor("y", {1, 64, 6, 6}, DataType::Fp16)});
    op.attrs["output_size"] = std::vector<std::int64_t>{6, 6};
    op.blockDim = 1;
    const auto kernels = h.lower(op);
    ASSERT_EQ(kernels.size(), 1u);
    // One 64-plane group: more than one load and one store means the rows came in bands.
    EXPECT_GT(countProgram(kernels[0], BlockProgramRequest{.blockIdx = 0}).moves, 2u);
}

TEST(VectorAdaptivePool, RunsOnCoupledChipsToo) {
    const ChipConfig chip = coupledChip();
    CubeOpHarness h(chip);
    const auto x = h.tensor("x", {2, 16, 12, 9}, DataType::Fp16);
    const auto y = h.tensor("y", {2, 16, 5, 4}, DataType::Fp16);
    const auto in = h.fillRandom(x, -3, 3);
    auto op = makeOp("AdaptiveAvgPool2d", {x}, {y});
    op.attrs["output_size"] = std::vector<std::int64_t>{5, 4};
    const auto kernels = h.run(op);
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_EQ(kernels[0].type, TaskType::AiCore);
    expectNear(h.read(y), roundedTo(DataType::Fp16, adaptiveAverage(in, 32, 12, 9, 5, 4)),
               absoluteTolerance(DataType::Fp16), 2 * relativeTolerance(DataType::Fp16),
               "AdaptiveAvgPool2d on a coupled chip");
}

// The loads of x in block 0 of the 1×1 pool of `shape` (fp16, the 910B1, default block dim), and
// whether that block starts with the reduce binary's dispatch.
struct GlobalPoolBlock {
    std::vector<DataMove> loads;
    bool dispatchFirst = false;
};
GlobalPoolBlock globalPoolBlock0(const std::vector<std::int64_t>& shape) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip, 1 << 20);  // GM is not touched: only the program is inspected
    auto op = makeOp("AdaptiveAvgPool2d", {h.tensor("x", shape, DataType::Fp16)},
                     {h.tensor("y", {shape[0], shape[1], 1, 1}, DataType::Fp16)});
    op.attrs["output_size"] = std::vector<std::int64_t>{1, 1};
    const auto kernels = h.lower(op);
    EXPECT_EQ(kernels.size(), 1u);
    GlobalPoolBlock block;
    bool first = true;
    for (const Instruction& instruction : blockProgram(kernels.at(0), 0, CoreKind::Vector)) {
        const auto* work = std::get_if<ScalarWork>(&instruction.operands);
        if (first && instruction.opcode == Opcode::Scalar && work && work->cycles == kDslReduceDispatchScalarCycles)
            block.dispatchFirst = true;
        const auto* move = std::get_if<DataMove>(&instruction.operands);
        if (move && move->src == MemSpace::GM) block.loads.push_back(*move);
        if (instruction.opcode == Opcode::DataMove || instruction.opcode == Opcode::Vector) first = false;
    }
    return block;
}

// ResNet-50's head, [32, 2048, 7, 7] fp16: 98 B planes. CANN's ReduceMean takes its transpose case
// for such rows: a tile's planes move as one run (no gap on either side), where one padded burst
// per plane would pay the path's padded-burst issue for each (§74).
TEST(VectorAdaptivePool, GlobalPoolOfUnalignedPlanesMovesRunsOfPlanes) {
    const GlobalPoolBlock block = globalPoolBlock0({32, 2048, 7, 7});
    EXPECT_TRUE(block.dispatchFirst);
    ASSERT_FALSE(block.loads.empty());
    for (const DataMove& load : block.loads) {
        EXPECT_EQ(load.srcGapBytes, 0u);
        EXPECT_EQ(load.dstGapBytes, 0u);
        EXPECT_GT(std::uint64_t{load.burstCount} * load.burstBytes, 8u * 98u);
    }
}

// 16 × 16 fp16 planes are whole 32 B blocks: the normal last-axis case, one plane a row.
TEST(VectorAdaptivePool, GlobalPoolOfAlignedPlanesReducesOnePlaneARow) {
    const GlobalPoolBlock block = globalPoolBlock0({4, 64, 16, 16});
    EXPECT_TRUE(block.dispatchFirst);
    ASSERT_FALSE(block.loads.empty());
    for (const DataMove& load : block.loads) EXPECT_EQ(load.burstBytes % 512, 0u);
    checkAdaptivePool({2, 24, 16, 16}, 1, 1, DataType::Fp16);
}

TEST(VectorAdaptivePool, GlobalPoolOfUnalignedPlanesAveragesEveryPlane) {
    checkAdaptivePool({3, 20, 7, 7}, 1, 1, DataType::Fp16);  // 60 planes: a partial group of 64
    checkAdaptivePool({2, 9, 5, 3}, 1, 1, DataType::Fp32);
}

TEST(VectorAdaptivePool, ARowTooWideForUbIsALoweringError) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    auto op = makeOp("AdaptiveAvgPool2d", {h.tensor("x", {1, 8, 4, 20000}, DataType::Fp32)},
                     {h.tensor("y", {1, 8, 2, 2}, DataType::Fp32)});
    op.attrs["output_size"] = std::vector<std::int64_t>{2, 2};
    EXPECT_THROW(h.lower(op), LoweringError);
}

}  // namespace
}  // namespace ascendsim::test

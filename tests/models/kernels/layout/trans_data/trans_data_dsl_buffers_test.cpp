// TBE's DSL TransData keeps one buffer per UB tensor (models/kernels/layout/trans_data/trans_data_dsl_buffers.h,
// docs/fidelity.md §113): on coupled chips (the 910A runs the DSL kernel) the vnchwconv, padded
// FRACTAL_NZ and fp32 NC1HWC0 → NCHW programs hand every load on to V with one event id, and still
// move the data right; the 910B parts keep their two buffers, except the fp32 NCHW ↔ NC1HWC0 forms,
// which run there as the DSL schedules them too (trans_data_nchwconv.cpp, docs/fidelity.md §112).
#include <gtest/gtest.h>

#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

struct Conversion {
    std::string name;
    std::vector<std::int64_t> xShape, yShape;
    DataType dtype;
    TensorFormat xFormat, yFormat;
    std::string dstFormat;
    std::uint32_t eventsOn910B1 = 3;  // the MTE2 → V event ids block 0 uses with ping-pong buffers
};

// The MTE2 → V event ids of block 0 of a one-block launch (several tiles), and whether y equals
// the reference permutation of x (checked by a round trip where the way back is modelled).
std::uint32_t loadEventsOfOneBlock(const ChipConfig& chip, const Conversion& c) {
    CubeOpHarness h(chip);
    auto x = h.tensor("x", c.xShape, c.dtype);
    x.format = c.xFormat;
    auto y = h.tensor("y", c.yShape, c.dtype);
    y.format = c.yFormat;
    auto op = makeOp("TransData", {x}, {y});
    op.attrs["dst_format"] = c.dstFormat;
    op.blockDim = 1;
    const LoweredKernel kernel = KernelRegistry::instance().lower(op, chip).front();
    BlockMoveCounts counts;
    forEachBlockInstruction(kernel, CoreKind::Vector, [&](const Instruction& i) { counts.count(i); });
    EXPECT_GT(counts.loads, 2u) << c.name << " on " << chip.name << ": needs several tiles";
    return counts.loadEvents;
}

const std::vector<Conversion>& conversions() {
    static const std::vector<Conversion> all = {
        {"fp16 NCHW → NC1HWC0 (vnchwconv)", {4, 64, 13, 13}, {4, 64, 13, 13}, DataType::Fp16, TensorFormat::NCHW,
         TensorFormat::NC1HWC0, "NC1HWC0"},
        {"fp16 ND [512,6,6] → FRACTAL_NZ (padded)", {512, 6, 6}, {512, 16, 16}, DataType::Fp16, TensorFormat::ND,
         TensorFormat::FractalNz, "FRACTAL_NZ"},
        {"fp32 FRACTAL_NZ → ND [512,6,6] (padded)", {512, 16, 16}, {512, 6, 6}, DataType::Fp32, TensorFormat::FractalNz,
         TensorFormat::ND, "ND"},
        {"fp32 NC1HWC0 → NCHW", {4, 64, 13, 13}, {4, 64, 13, 13}, DataType::Fp32, TensorFormat::NC1HWC0,
         TensorFormat::NCHW, "NCHW", 1},
    };
    return all;
}

TEST(VectorTransDataDslBuffers, CoupledChipsLoadEveryTileIntoOneBuffer) {
    for (const Conversion& c : conversions()) {
        EXPECT_EQ(loadEventsOfOneBlock(coupledChip(), c), 1u) << c.name << ": event id 0 only";
        EXPECT_EQ(loadEventsOfOneBlock(ascend910B1(), c), c.eventsOn910B1)
            << c.name << ": the 910B1's buffers (one for its fp32 DSL schedule, §112; two otherwise)";
    }
}

TEST(VectorTransDataDslBuffers, OneBufferMovesTheSameData) {
    // fp16 NCHW ↔ NC1HWC0 and fp32 NC1HWC0 → NCHW on the coupled chip, over the block-dim sweep.
    const ChipConfig chip = coupledChip();
    for (const auto& blockDim : blockDimSweep()) {
        CubeOpHarness h(chip);
        const auto x = h.tensor("x", {3, 48, 13, 13}, DataType::Fp16);
        auto y = h.tensor("y", {3, 48, 13, 13}, DataType::Fp16);
        y.format = TensorFormat::NC1HWC0;
        const auto xs = h.fillRandom(x);
        auto there = makeOp("TransData", {x}, {y});
        there.attrs["dst_format"] = std::string("NC1HWC0");
        there.blockDim = blockDim;
        h.run(there);
        const auto back = h.tensor("back", {3, 48, 13, 13}, DataType::Fp16);
        auto again = makeOp("TransData", {y}, {back});
        again.attrs["dst_format"] = std::string("NCHW");
        again.blockDim = blockDim;
        h.run(again);
        EXPECT_EQ(h.read(back), xs) << "fp16 round trip, " << blockDimName(blockDim);

        auto blocked = h.tensor("blocked", {2, 32, 13, 13}, DataType::Fp32);
        blocked.format = TensorFormat::NC1HWC0;
        const auto bs = h.fillRandom(blocked);
        const auto planar = h.tensor("planar", {2, 32, 13, 13}, DataType::Fp32);
        auto way = makeOp("TransData", {blocked}, {planar});
        way.attrs["dst_format"] = std::string("NCHW");
        way.blockDim = blockDim;
        h.run(way);
        // NC1HWC0 [2, 4, 169, 8] → NCHW [2, 32, 169]
        std::vector<float> expected(bs.size());
        for (std::size_t n = 0; n < 2; ++n)
            for (std::size_t c = 0; c < 32; ++c)
                for (std::size_t p = 0; p < 169; ++p)
                    expected[(n * 32 + c) * 169 + p] = bs[((n * 4 + c / 8) * 169 + p) * 8 + c % 8];
        EXPECT_EQ(h.read(planar), expected) << "fp32 way back, " << blockDimName(blockDim);
    }
}

}  // namespace
}  // namespace ascendsim::test

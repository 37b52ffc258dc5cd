// The batch-norm kernels place their UB tiles so that vector instructions seldom wait for UB
// bank groups or banks (ub_bank_model.h): the streamed operands of a binary op sit in opposite
// bank-group halves, destinations on other banks, and channel values are broadcast as whole
// repeats rather than one block read eight times. What remains: an fp16→fp32 cast meets its
// source's bank on one repeat in six, and the reductions' pairwise fold writes a source's bank on
// one add in three.
#include <gtest/gtest.h>

#include "models/core/ub_bank_model.h"
#include "models/core/ub_bank_slices.h"
#include "models/kernels/normalization/channel_vector_ops.h"
#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

struct StallShare {
    std::uint64_t repeats = 0, stalls = 0;
};

// Bank stall cycles per repeat over block 0's vector instructions. Excluded: Gathers (their reads
// are data-dependent and they run once per tile) and squares (x·x reads every block twice).
StallShare bankStalls(const ChipConfig& chip, const LoweredKernel& kernel) {
    UbBankModel banks(chip.ub);
    StallShare share;
    auto stream = kernel.program({0, CoreKind::Vector, 0, 0});
    std::vector<Instruction> chunk;
    while (stream->next(chunk)) {
        for (const auto& instruction : chunk) {
            if (instruction.opcode != Opcode::Vector) continue;
            const auto& v = std::get<VectorInstr>(instruction.operands);
            if (v.op == VectorOp::Gather || (v.op == VectorOp::Mul && v.src0 == v.src1)) continue;
            share.repeats += v.repeats;
            share.stalls += banks.conflicts(v).totalStallCycles();
        }
        chunk.clear();
    }
    return share;
}

// Slot s is bank (s / 2) % banks — the buffer lies in that bank's 64 KiB slice of UB, the guide's
// mapping (ub_bank_slices.h) — and group half s % 2; a buffer that leaves its slice does not fit.
TEST(VectorBatchNormBanks, SlotsPlaceBuffersInTheirBanksSlice) {
    const ChipConfig chip = ascend910B1();
    const UbBankSlices slices = ubBankSlices(chip.ub);
    ASSERT_EQ(slices.sliceBytes, 64u * 1024);
    BankSlotAllocator ub(chip);
    const std::uint64_t x = ub.allocate(1000, 0), y = ub.allocate(1000, 0), z = ub.allocate(100, 1);
    const std::uint64_t t = ub.allocate(40000, 2), u = ub.allocate(40000, 4), v = ub.allocate(100, 5);
    EXPECT_EQ(x, 0u);
    EXPECT_EQ(y % slices.groupRowBytes, 0u);
    EXPECT_EQ(z % slices.groupRowBytes, slices.halfGroupBytes);
    for (const std::uint64_t a : {x, y, z}) EXPECT_EQ(slices.sliceOf(a), 0u);
    EXPECT_EQ(t, slices.sliceBytes);
    EXPECT_EQ(u, 2 * slices.sliceBytes);
    EXPECT_EQ(slices.sliceOf(v), 2u);
    EXPECT_EQ(v % slices.groupRowBytes, slices.halfGroupBytes);
    EXPECT_TRUE(ub.fits(3 * slices.sliceBytes));
    // A unary op from slot 0 to slot 2 (same groups, next bank) never reads and writes one bank.
    VectorInstr copy{.op = VectorOp::Adds, .dtype = DataType::Fp32, .srcType = DataType::Fp32, .dst = t, .src0 = x};
    copy.repeats = 4;
    UbBankModel banks(chip.ub);
    EXPECT_EQ(banks.conflicts(copy).totalStallCycles(), 0u);
    ub.allocate(30000, 2);  // 40000 + 30000 bytes leave slice 1
    EXPECT_FALSE(ub.fits(3 * slices.sliceBytes));
}

TEST(VectorBatchNormBanks, ResNetShapedTilesRunWithoutBankStalls) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip, 1 << 20);  // GM is not touched: only addresses matter
    const std::vector<std::int64_t> act = {32, 64, 28, 28};
    auto t = [&](std::vector<std::int64_t> shape, DataType dtype) { return h.tensor("t", std::move(shape), dtype); };
    auto channel = [&] { return t({64}, DataType::Fp32); };
    std::vector<OpInstance> ops;
    ops.push_back(makeOp("BNTrainingReduce", {t(act, DataType::Fp16)}, {channel(), channel()}));
    ops.push_back(makeOp("BNTrainingUpdate", {t(act, DataType::Fp16), channel(), channel(), channel(), channel()},
                         {t(act, DataType::Fp16)}));
    ops.push_back(makeOp("BNTrainingUpdateGrad", {t(act, DataType::Fp16), t(act, DataType::Fp16), channel(), channel()},
                         {channel(), channel()}));
    ops.push_back(makeOp("BNTrainingReduceGrad",
                         {t(act, DataType::Fp16), t(act, DataType::Fp16), channel(), channel(), channel(), channel(), channel()},
                         {t(act, DataType::Fp16)}));
    for (std::size_t i = 0; i < ops.size(); ++i) {
        const bool reduction = ops[i].type == "BNTrainingReduce" || ops[i].type == "BNTrainingUpdateGrad";
        const StallShare share = bankStalls(chip, h.lower(ops[i]).at(0));
        ASSERT_GT(share.repeats, 0u) << ops[i].type;
        EXPECT_LT(static_cast<double>(share.stalls), (reduction ? 0.35 : 0.1) * static_cast<double>(share.repeats))
            << ops[i].type << ": " << share.stalls << " stall cycles over " << share.repeats << " repeats";
    }
}

// ResNet's 7×7 layers run in channel slabs: the slab and its coefficient tiles share offsets, so
// every apply step keeps its operands on their bank slots.
TEST(VectorBatchNormBanks, ChannelSlabsRunWithoutBankStalls) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip, 1 << 20);  // GM is not touched: only addresses matter
    const std::vector<std::int64_t> act = {32, 512, 7, 7};
    std::vector<TensorInfo> inputs = {h.tensor("x", act, DataType::Fp16)};
    for (int k = 0; k < 4; ++k) inputs.push_back(h.tensor("p", {512}, DataType::Fp16));
    const StallShare share = bankStalls(chip, h.lower(makeOp("BNInfer", inputs, {h.tensor("y", act, DataType::Fp16)})).at(0));
    ASSERT_GT(share.repeats, 0u);
    EXPECT_LT(static_cast<double>(share.stalls), 0.1 * static_cast<double>(share.repeats))
        << share.stalls << " stall cycles over " << share.repeats << " repeats";
}

}  // namespace
}  // namespace ascendsim::test

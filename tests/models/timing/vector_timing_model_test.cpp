// VectorTimingModel: per-class cycles per repeat exactly as hardware.md §2.6 derives them, and
// start-up within ±1 of the measured start-up.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "models/timing/transfer_timing.h"
#include "sim/config/chip_config_loader.h"

namespace ascendsim {
namespace {

ChipConfig chip910B1() {
    const char* src = std::getenv("ASCENDSIM_SOURCE_DIR");
    return loadChipByName("Ascend910B1",
                          (std::filesystem::path(src ? src : ".") / "configs").string());
}

VectorInstr instrOf(VectorOp op, std::uint16_t repeats, DataType dtype = DataType::Fp16) {
    VectorInstr v;
    v.op = op;
    v.repeats = repeats;
    v.dtype = dtype;
    return v;
}

struct ClassExpectation {
    VectorOp op;
    DataType dtype;
    std::uint64_t cyclesPerRepeat;  // 256 B / measured steady B per cycle (§2.6)
    double startupCycles;           // §2.6 start-up row (3-4 → 3.5)
};

TEST(VectorTimingModel, CyclesPerRepeatExactAndStartupWithinOnePerClass) {
    const ChipConfig chip = chip910B1();
    const VectorTimingModel model(chip);
    const ClassExpectation expectations[] = {
        {VectorOp::Abs, DataType::Fp16, 1, 3.5},       {VectorOp::Adds, DataType::Fp16, 1, 3.5},
        {VectorOp::Add, DataType::Fp16, 2, 3.5},       {VectorOp::Mul, DataType::Fp32, 2, 3.5},
        {VectorOp::Exp, DataType::Fp16, 4, 3.5},       {VectorOp::Exp, DataType::Fp32, 2, 3.5},
        {VectorOp::Div, DataType::Fp16, 4, 3.5},
        // vmla: 6 measured = 4 here + the 2 stall cycles the device's UB bank model always adds
        // for its access pattern (checked on the Device in tests/models/calibration).
        {VectorOp::MulAdd, DataType::Fp16, 4, 3.5},
        {VectorOp::ReduceSum, DataType::Fp16, 7, 7},   {VectorOp::ReduceMax, DataType::Fp16, 7, 7},
        {VectorOp::Gather, DataType::Fp16, 24, 27},    {VectorOp::Gather, DataType::Fp32, 12, 27},
        {VectorOp::Sort, DataType::Fp16, 16, 22},      {VectorOp::Cast, DataType::Fp16, 1, 3.5},
    };
    for (const auto& e : expectations) {
        const std::uint64_t one = model.cycles(instrOf(e.op, 1, e.dtype));
        const std::uint64_t many = model.cycles(instrOf(e.op, 101, e.dtype));
        EXPECT_EQ((many - one) / 100, e.cyclesPerRepeat) << vectorOpName(e.op);
        EXPECT_EQ((many - one) % 100, 0u) << vectorOpName(e.op);
        const double startup = static_cast<double>(one - e.cyclesPerRepeat);
        EXPECT_NEAR(startup, e.startupCycles, 1.0) << vectorOpName(e.op);
    }
}

// A 64-row fp32 row max: vcgmax over 64 repeats costs what vcopy does (unary, §2.6), a seventh
// of the whole-row vcmax it replaces; on fp16 vcgmax is a reduction again.
TEST(VectorTimingModel, BlockReduceMaxCostsOneCyclePerRepeatOnFp32) {
    const ChipConfig chip = chip910B1();
    const VectorTimingModel model(chip);
    const std::uint64_t blockReduce = model.cycles(instrOf(VectorOp::BlockReduceMax, 64, DataType::Fp32));
    EXPECT_EQ(blockReduce, model.cycles(instrOf(VectorOp::Copy, 64, DataType::Fp32)));
    EXPECT_EQ(model.cycles(instrOf(VectorOp::BlockReduceMax, 65, DataType::Fp32)) - blockReduce, 1u);
    EXPECT_EQ(model.cycles(instrOf(VectorOp::BlockReduceSum, 65, DataType::Fp32)) - blockReduce, 1u);
    EXPECT_EQ(model.cycles(instrOf(VectorOp::BlockBroadcast, 65, DataType::Fp32)) - blockReduce, 1u);
    EXPECT_EQ(model.cycles(instrOf(VectorOp::BlockReduceMax, 65, DataType::Fp16)) -
                  model.cycles(instrOf(VectorOp::BlockReduceMax, 64, DataType::Fp16)),
              7u);
    EXPECT_GT(model.cycles(instrOf(VectorOp::ReduceMax, 64, DataType::Fp32)), 6 * blockReduce);
}

TEST(VectorTimingModel, Fp32OverrideAppliesOnlyToWideTypes) {
    const ChipConfig chip = chip910B1();
    const VectorTimingModel model(chip);
    EXPECT_GT(model.cycles(instrOf(VectorOp::Ln, 10, DataType::Fp16)),
              model.cycles(instrOf(VectorOp::Ln, 10, DataType::Fp32)));
    EXPECT_EQ(model.cycles(instrOf(VectorOp::Add, 10, DataType::Fp16)),
              model.cycles(instrOf(VectorOp::Add, 10, DataType::Int32)));
}

// vector.classes.bitsort (docs/chip-config.md, docs/fidelity.md §109): the 910B parts time the
// region sort vbitsort by its own class, a fixed 2540 cycles and 16 a repeat, while the merge stays
// at the sort class's 22 + 16 a repeat; the 910A's config has no bitsort class and times it as a
// sort-class instruction (its region sort, vrpsort16, is one).
TEST(VectorTimingModel, VbitsortHasItsOwnClassOn910BAndTheSortClassWhereAChipHasNone) {
    const char* src = std::getenv("ASCENDSIM_SOURCE_DIR");
    const std::string configs = (std::filesystem::path(src ? src : ".") / "configs").string();
    const VectorInstr bitSort = instrOf(VectorOp::BitSort, 32, DataType::Fp32);
    const VectorInstr merge = instrOf(VectorOp::Sort, 32, DataType::Fp32);
    EXPECT_EQ(vectorClassOf(VectorOp::BitSort), VectorClass::BitSort);
    EXPECT_STREQ(vectorOpName(VectorOp::BitSort), "vbitsort");
    for (const char* name : {"Ascend910B1", "Ascend910B2", "Ascend910B4_1650"}) {
        const ChipConfig chip = loadChipByName(name, configs);
        const VectorTimingModel model(chip);
        EXPECT_EQ(model.cycles(bitSort), 2540u + 32u * 16u) << name;
        EXPECT_EQ(model.cycles(merge), 22u + 32u * 16u) << name;
    }
    const ChipConfig a910 = loadChipByName("Ascend910", configs);
    const VectorTimingModel coupled(a910);
    EXPECT_EQ(coupled.cycles(bitSort), coupled.cycles(merge));
    const ChipConfig whatIf = loadChipByName("Ascend910B1", configs, {"vector.classes.bitsort.startup_cycles=22"});
    EXPECT_EQ(VectorTimingModel(whatIf).cycles(bitSort), 22u + 32u * 16u);
}

}  // namespace
}  // namespace ascendsim

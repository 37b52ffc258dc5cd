// What the replay knows of L2 and memory at a kernel's start beyond its produced inputs
// (docs/fidelity.md §16): plain layouts name one tensor, an aclnnInplace kernel writes over its
// input, and a copy into an existing tensor overwrites one a kernel just touched.
#include <gtest/gtest.h>

#include "sim/config/chip_config_loader.h"
#include "sim/replay/run/inplace_kernels.h"
#include "sim/replay/run/kernel_replay.h"
#include "sim/replay/run/producer_inputs.h"
#include "sim/replay/run/tensor_identity.h"
#include "sim/replay/rules/replay_op_rules.h"

namespace ascendsim {
namespace {

RealKernel rowOf(const std::string& name, const std::string& in, const std::string& inFormats, const std::string& out,
                 const std::string& outFormat = "ND") {
    RealKernel k;
    k.name = name;
    k.type = name.substr(name.rfind('_') + 1);
    k.stream.assign(1, '2');  // not = "2": GCC 12 -Wrestrict false positive
    k.acceleratorCore = "AI_VECTOR_CORE";
    k.blockDim = 40;
    k.inputShapes = in;
    k.inputDtypes = "FLOAT";
    k.inputFormats = inFormats;
    k.outputShapes = out;
    k.outputDtypes = "FLOAT";
    k.outputFormats = outFormat;
    return k;
}

TEST(ReplayL2Residency, PlainLayoutsMatchEachOtherButNotPrivateOnes) {
    EXPECT_EQ(matchedFormat("NCHW"), "ND");
    EXPECT_EQ(matchedFormat("ND"), "ND");
    EXPECT_EQ(matchedFormat("FORMAT_NCL"), "ND");
    EXPECT_EQ(matchedFormat("NC1HWC0"), "NC1HWC0");
    EXPECT_EQ(matchedFormat("FRACTAL_NZ"), "FRACTAL_NZ");
    // Qwen3's RoPE writes [4096,1,16,128] as ND and the TensorMove after it reads it as NCHW.
    RealProfile profile;
    profile.kernels = {rowOf("RotaryPositionEmbedding", "64,1,16,128", "ND", "64,1,16,128", "ND"),
                       rowOf("aclnnCat_TensorMoveAiCore_TensorMove", "64,1,16,128", "NCHW", "64,1,16,128", "NCHW"),
                       rowOf("aclnnCast_CastAiCore_Cast", "64,1,16,128", "NC1HWC0", "8")};
    const auto produced = producedInputs(profile, 0);
    EXPECT_EQ(produced[1], std::vector<std::size_t>{0});
    EXPECT_TRUE(produced[2].empty());  // a private layout of the same shape is another tensor
}

// torch_npu records a Foreach kernel's outputs flattened (aclnnForeachAddListV2 over [64,3,11,11]
// and [64]: outputs "23232;64"); output j is the result for input j, so it takes input j's shape.
// A single flattened output, or one whose element count differs, keeps its own.
TEST(ReplayL2Residency, AListKernelsFlattenedOutputsTakeTheirInputsShapes) {
    RealKernel foreach = rowOf("aclnnForeachAddListV2_ForeachAddListV2_ForeachAddList", "64,3,11,11;64;64,3,11,11;64;",
                               "NCHW;ND;NCHW;ND;ND", "23232;64", "NCHW;ND");
    foreach.inputDtypes = "FLOAT;FLOAT;FLOAT;FLOAT;FLOAT";
    foreach.outputDtypes = "FLOAT;FLOAT";
    const std::vector<TensorKey> keys = outputKeys(foreach);
    ASSERT_EQ(keys.size(), 2u);
    EXPECT_EQ(keys[0], (TensorKey{"64,3,11,11", "FLOAT", "ND"}));
    EXPECT_EQ(keys[1], (TensorKey{"64", "FLOAT", "ND"}));
    EXPECT_EQ(std::get<0>(outputKeys(rowOf("aclnnCast_CastAiCore_Cast", "64,3,11,11", "NCHW", "23232"))[0]), "23232");
    foreach.outputShapes = "23233;64";
    EXPECT_EQ(std::get<0>(outputKeys(foreach)[0]), "23233");
}

TEST(ReplayL2Residency, InPlaceKernelsAreTheAclnnInplaceApisButNotCopy) {
    EXPECT_TRUE(isInPlaceKernel(rowOf("aclnnInplaceRelu_Relu_Relu", "8", "ND", "8")));
    EXPECT_TRUE(isInPlaceKernel(rowOf("aclnnInplaceMuls_MulAiCore_Mul", "8;", "ND;ND", "8")));
    EXPECT_FALSE(isInPlaceKernel(rowOf("aclnnMuls_MulAiCore_Mul", "8;", "ND;ND", "8")));
    EXPECT_FALSE(isInPlaceKernel(rowOf("aclnnInplaceCopy_TensorMoveAiCore_TensorMove", "8", "ND", "8")));
    EXPECT_TRUE(isCopyIntoExisting(rowOf("aclnnInplaceCopy_TensorMoveAiCore_TensorMove", "8", "ND", "8")));
}

// aclnnApplyAdamWV2 updates varRef, mRef and vRef (inputs 0-2) and its row records no output
// (docs/fidelity.md §107); an aclnnInplace* kernel's output 0 is its input 0.
TEST(ReplayL2Residency, ApplyAdamWV2WritesVarMAndVInPlace) {
    RealKernel adam = rowOf("aclnnApplyAdamWV2_ApplyAdamWV2_ApplyAdamWV2", "8;8;8;8;1", "ND;ND;ND;ND;ND", "N/A");
    EXPECT_EQ(adam.type, "ApplyAdamWV2");
    EXPECT_EQ(inPlaceInputs(adam), (std::vector<std::size_t>{0, 1, 2}));
    EXPECT_TRUE(isInPlaceKernel(adam));
    EXPECT_EQ(inPlaceInputs(rowOf("aclnnInplaceRelu_Relu_Relu", "8", "ND", "8")), std::vector<std::size_t>{0});
    EXPECT_TRUE(inPlaceInputs(rowOf("aclnnInplaceCopy_TensorMoveAiCore_TensorMove", "8", "ND", "8")).empty());
    EXPECT_TRUE(inPlaceInputs(rowOf("aclnnMuls_MulAiCore_Mul", "8;", "ND;ND", "8")).empty());
}

// In place, every output of ApplyAdamW lands on its input (var, m, v): its stores hit the lines its
// loads brought in. With every line a miss brings into L2 evicting a dirty one (a victim share of
// 1, §103), the three outputs placed apart would each pay their lines of write-back too.
TEST(ReplayL2Residency, EveryInPlaceOutputIsPlacedOnItsInput) {
    ChipConfig chip = loadChipByName("Ascend910B4_1650", defaultConfigDir());
    chip.blockArgumentReadBytes = 0;
    RealKernel row = rowOf("aclnnApplyAdamWV2_ApplyAdamWV2_ApplyAdamWV2", "1048576;1048576;1048576;1048576;1",
                           "ND;ND;ND;ND;ND", "N/A");
    row.inputDtypes = "FLOAT;FLOAT;FLOAT;FLOAT;INT64";
    const OpInstance adam = replayOp(row);
    ReplayPlacement apart;
    apart.codeResident = true;
    apart.victimDirtyShare = 1.0;
    ReplayPlacement inPlace = apart;
    inPlace.inPlace = true;
    const double separate = simulateReplayOp(adam, chip, L2State::Timeline, apart).durationUs;
    const double over = simulateReplayOp(adam, chip, L2State::Timeline, inPlace).durationUs;
    // 4 x 4 MiB read and 4 (in place) or 7 (apart) x 4 MiB written back.
    EXPECT_LT(over, 0.85 * separate);
}

// Grad clipping in Qwen3: Muls reads the gradient g and writes t; copy_(g, t) then writes g back.
// The copy's target is the tensor the Muls just read; a copy after unrelated kernels is not.
TEST(ReplayL2Residency, ACopyTargetCountsWhenARecentKernelTouchedATensorOfItsShape) {
    RealProfile profile;
    profile.kernels = {rowOf("aclnnMuls_MulAiCore_Mul", "3072;", "ND;ND", "3072"),
                       rowOf("aclnnInplaceCopy_TensorMoveAiCore_TensorMove", "3072", "ND", "3072"),
                       rowOf("aclnnAdd_AddAiCore_Add", "8;8", "ND;ND", "8"),
                       rowOf("aclnnAdd_AddAiCore_Add", "8;8", "ND;ND", "8"),
                       rowOf("aclnnAdd_AddAiCore_Add", "8;8", "ND;ND", "8"),
                       rowOf("aclnnInplaceCopy_TensorMoveAiCore_TensorMove", "3072", "ND", "3072")};
    const auto targets = residentCopyTargets(profile, 1 << 20);
    EXPECT_EQ(targets[1], std::vector<std::size_t>{0});
    EXPECT_TRUE(targets[0].empty());  // not a copy: its output is a new allocation
    EXPECT_TRUE(targets[5].empty());  // the 3072 tensors were touched 4 launches back
    EXPECT_TRUE(residentCopyTargets(profile, 8 << 10)[1].empty());  // the 12 KiB target exceeds 8 KiB
}

// An in-place Relu whose input a kernel just wrote (dirty in L2) stores over those dirty lines:
// on the 910B class (eager write-back, paid as lines become dirty) that costs no HBM, so it runs
// far faster than the same Relu writing a new tensor. Cold, the stores dirty the clean lines the
// loads filled and pay as a new tensor's would.
TEST(ReplayL2Residency, AnInPlaceKernelOverADirtyInputSavesTheHbmWrites) {
    ChipConfig chip = loadChipByName("Ascend910B4_1650", defaultConfigDir());
    chip.blockArgumentReadBytes = 0;  // the stores' cost alone, without the launch's fixed turns (§58)
    ASSERT_GT(chip.l2.writeBackQueueBytes, 0u);
    const OpInstance relu = replayOp(rowOf("aclnnInplaceRelu_Relu_Relu", "1048576", "ND", "1048576"));
    ReplayPlacement produced;
    produced.residentBytes = {4u << 20};
    produced.codeResident = true;  // the stores' cost alone, without the cold code fetch (§21)
    ReplayPlacement producedInPlace = produced;
    producedInPlace.inPlace = true;
    const double newTensor = simulateReplayOp(relu, chip, L2State::Producer, produced).durationUs;
    const double overInput = simulateReplayOp(relu, chip, L2State::Producer, producedInPlace).durationUs;
    // 4 MiB written at 0.99 x 800 GB/s is 5.3 us; from L2 alone it is a fraction of that.
    EXPECT_LT(overInput, 0.6 * newTensor);
    ReplayPlacement coldInPlace;
    coldInPlace.inPlace = true;
    const double cold = simulateReplayOp(relu, chip, L2State::Cold).durationUs;
    EXPECT_NEAR(simulateReplayOp(relu, chip, L2State::Cold, coldInPlace).durationUs, cold, 0.1 * cold);
}

}  // namespace
}  // namespace ascendsim

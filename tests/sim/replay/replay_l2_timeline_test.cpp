// `--l2 timeline` (l2_timeline.h): the profile's rows walked in launch order through an LRU of
// tensors; an input is resident when an earlier kernel wrote or read a tensor of its identity and
// the tensors used since have not pushed it out of the L2's capacity.
#include <gtest/gtest.h>

#include <algorithm>

#include "sim/replay/run/kernel_replay.h"
#include "sim/replay/run/l2_timeline.h"
#include "sim/replay/run/replay_run.h"

namespace ascendsim {
namespace {

// A vector kernel reading fp32 ND tensors of shapes `in` and writing `out` (cells ';'-separated).
RealKernel rowOf(const std::string& in, const std::string& out, const std::string& name = "aclnnAdd_AddAiCore_Add") {
    RealKernel k;
    k.name = name;
    k.type = "Add";
    k.stream.assign(1, '2');  // not = "2": GCC 12 -Wrestrict false positive
    k.acceleratorCore = "AI_VECTOR_CORE";
    k.blockDim = 1;
    k.inputShapes = in;
    k.outputShapes = out;
    for (const auto* cells : {&in, &out}) {
        std::string dtypes = "FLOAT", formats = "ND";
        for (char c : *cells)
            if (c == ';') dtypes += ";FLOAT", formats += ";ND";
        (cells == &in ? k.inputDtypes : k.outputDtypes) = dtypes;
        (cells == &in ? k.inputFormats : k.outputFormats) = formats;
    }
    return k;
}

constexpr std::uint64_t kKiB = 1024;
using Indices = std::vector<std::size_t>;
constexpr TimelineStart kEmpty = TimelineStart::Empty;

// A tensor kernel 1 only read ([256] fp32, 1 KiB) is still in L2 for kernel 2; so is the output
// kernel 1 wrote. A tensor nobody touched before is cold.
TEST(L2Timeline, ATensorAnEarlierKernelReadOrWroteIsWarm) {
    RealProfile profile;
    profile.kernels = {rowOf("256", "512"), rowOf("256;512;128", "64")};
    const L2Timeline timeline = l2Timeline(profile, 64 * kKiB, kEmpty);
    EXPECT_TRUE(timeline.residentInputs[0].empty());
    // Inputs 0 (read by kernel 1) and 1 (written by it), least recently used first; [128] is cold.
    EXPECT_EQ(timeline.residentInputs[1], (Indices{0, 1}));
}

// A 0-d input (an empty shape cell with a dtype: Muls' scalar) is never tracked by identity: cold
// unless the replay takes scalars as held (--l2-scalars held, §134e), then held, newest, with no
// writer. An absent input (no dtype) stays cold either way.
TEST(L2Timeline, ZeroDimensionalInputsAreHeldOnlyWhenScalarsAreHeld) {
    RealProfile profile;
    RealKernel muls = rowOf("256;", "256", "aclnnMuls_MulAiCore_Mul");
    RealKernel absent = rowOf("256;", "256");
    absent.inputDtypes = "FLOAT;DT_UNDEFINED";
    profile.kernels = {rowOf("256", "256"), muls, absent};
    const L2Timeline cold = l2Timeline(profile, 64 * kKiB, kEmpty);
    EXPECT_EQ(cold.residentInputs[1], Indices{0});
    const L2Timeline held = l2Timeline(profile, 64 * kKiB, kEmpty, 0, {ScalarInputs::Held});
    EXPECT_EQ(held.residentInputs[1], (Indices{0, 1}));
    ASSERT_EQ(held.residentWriters[1].size(), 2u);
    EXPECT_FALSE(held.residentWriters[1][1].present());
    EXPECT_EQ(held.residentInputs[2], Indices{0});
}

// Past the capacity the least recently used tensor leaves L2: with 4 KiB, kernel 2's 2 KiB in and
// 2 KiB out push kernel 1's [256] out; with 16 KiB it stays.
TEST(L2Timeline, TensorsUsedSincePushAnInputOutOfTheCapacity) {
    RealProfile profile;
    profile.kernels = {rowOf("256", "16"), rowOf("512", "512"), rowOf("256", "8")};
    EXPECT_TRUE(l2Timeline(profile, 4 * kKiB, kEmpty).residentInputs[2].empty());
    EXPECT_EQ(l2Timeline(profile, 16 * kKiB, kEmpty).residentInputs[2], Indices{0});
}

// Least recently used, not first in: A ([256]) is read again after B ([384]), so when C ([400])
// overflows 4 KiB, B leaves and A stays.
TEST(L2Timeline, ATensorReadAgainOutlivesOneReadOnce) {
    RealProfile profile;
    profile.kernels = {rowOf("256", "16"), rowOf("384", "8"), rowOf("256", "4"), rowOf("400", "2"),
                       rowOf("256;384", "1")};
    EXPECT_EQ(l2Timeline(profile, 4 * kKiB, kEmpty).residentInputs[4], Indices{0});
}

// A tensor larger than L2 is never held, and streaming it flushes what was.
TEST(L2Timeline, ATensorLargerThanL2IsNeverHeldAndFlushesIt) {
    RealProfile profile;
    profile.kernels = {rowOf("256", "16"), rowOf("4096", "16"), rowOf("256;4096", "8")};
    EXPECT_TRUE(l2Timeline(profile, 8 * kKiB, kEmpty).residentInputs[2].empty());
}

// Every output is a new tensor that occupies L2 beside older ones of its identity; an
// aclnnInplaceCopy writes into the held tensor of its output's identity (a resident copy target).
TEST(L2Timeline, OutputsAreNewTensorsAndACopyTargetIsResidentWhenHeld) {
    RealProfile profile;
    profile.kernels = {rowOf("512", "512"), rowOf("512;16", "512"), rowOf("1024", "512", "aclnnInplaceCopy_TensorMove")};
    const L2Timeline timeline = l2Timeline(profile, 8 * kKiB, kEmpty);
    EXPECT_EQ(timeline.residentInputs[1], Indices{0});
    EXPECT_EQ(timeline.residentOutputs[2], Indices{0});
    EXPECT_TRUE(timeline.residentOutputs[1].empty());  // a plain output is a new allocation
    // Three 2 KiB tensors of one identity, 64 B and 4 KiB overflow 8 KiB: the two least recently
    // used [512] leave, yet the newest (the copy's target) is still held for a later read.
    profile.kernels.push_back(rowOf("512", "1"));
    EXPECT_EQ(l2Timeline(profile, 8 * kKiB, kEmpty).residentInputs[3], Indices{0});
}

// CANN's MemSet before an accumulating kernel ("aclnnMm_MatMulCommon_MemSet" before
// "aclnnMm_MatMulCommon_MatMulV2", memset_owner.h) clears the owner's output: the owner then
// writes into the tensor the MemSet just wrote, held in L2 (AlexNet's weight gradient [4096,4096]
// fp32 writes 64 MiB at 2.2 TB/s with victim rate 0.0, docs/fidelity.md §101), not a new one.
TEST(L2Timeline, AnOutputItsOwnMemSetClearedIsResident) {
    RealKernel memset = rowOf("512", "512", "aclnnMm_MatMulCommon_MemSet");
    memset.type = "MemSet";
    RealKernel owner = rowOf("16;16", "512", "aclnnMm_MatMulCommon_MatMulV2");
    owner.type = "MatMulV2";
    owner.outputClearedByMemSet = true;
    RealProfile profile;
    profile.kernels = {memset, owner};
    EXPECT_EQ(l2Timeline(profile, 64 * kKiB, kEmpty).residentOutputs[1], Indices{0});
    // Without its MemSet the output is a new allocation, as every other output.
    profile.kernels[1].outputClearedByMemSet = false;
    EXPECT_TRUE(l2Timeline(profile, 64 * kKiB, kEmpty).residentOutputs[1].empty());
}

// The same kernel launched again works on other tensors of its identity (a loop over layers or
// parameter groups): it never finds the tensors its own previous launch touched, while another
// kernel reading them does.
TEST(L2Timeline, TheSameKernelLaunchedAgainReadsOtherTensors) {
    RealProfile profile;
    profile.kernels = {rowOf("256;256", "256"), rowOf("256;256", "256"), rowOf("256", "8")};
    const L2Timeline timeline = l2Timeline(profile, 64 * kKiB, kEmpty);
    EXPECT_TRUE(timeline.residentInputs[1].empty());
    EXPECT_EQ(timeline.residentInputs[2], Indices{0});
}

// A loop of two kernels over same-shaped tensors (grad clipping: a Mul reads gradient g and
// writes t, a copy writes t back into g, per parameter): the Mul's next launch works on the next
// parameter's gradient, so it finds neither g nor t of the previous one although the copy touched
// them last; a kernel outside the loop still finds the copy's tensors.
TEST(L2Timeline, AKernelNeverFindsATensorAnyOfItsLaunchesTouched) {
    RealKernel copyBack = rowOf("256", "256", "aclnnInplaceCopy_TensorMove");
    copyBack.type = "TensorMove";
    RealKernel reader = rowOf("256", "4");
    reader.type = "ReduceSum";
    RealProfile profile;
    profile.kernels = {rowOf("256", "256"), copyBack, rowOf("256", "256"), copyBack, reader};
    const L2Timeline timeline = l2Timeline(profile, 64 * kKiB, kEmpty);
    EXPECT_EQ(timeline.residentInputs[1], Indices{0});   // the copy reads the t the Mul wrote
    EXPECT_EQ(timeline.residentOutputs[1], Indices{0});  // into the g the Mul read
    EXPECT_TRUE(timeline.residentInputs[2].empty());     // the next parameter's g is cold
    EXPECT_EQ(timeline.residentInputs[4], Indices{0});
}

// Steady state: the profile is a step of a loop, so its first kernel finds what its last ones
// left; from an empty L2 it finds nothing.
TEST(L2Timeline, InSteadyStateTheFirstKernelFindsWhatTheLastLeft) {
    RealProfile profile;
    profile.kernels = {rowOf("256", "16"), rowOf("1024", "256")};
    EXPECT_TRUE(l2Timeline(profile, 64 * kKiB, kEmpty).residentInputs[0].empty());
    EXPECT_EQ(l2Timeline(profile, 64 * kKiB, TimelineStart::SteadyState).residentInputs[0], Indices{0});
}

// The replay groups kernels by what was resident: the same Add once cold (the tensor streamed
// before it, larger than L2, flushed L2 in the step before) and once after another kernel wrote
// its inputs is two distinct kernels, and only the second preloads its inputs.
TEST(L2Timeline, TheReplayKeysKernelsByTheirResidentInputs) {
    RealKernel writer = rowOf("512", "256;256");
    writer.type = "Split";
    RealProfile profile;
    profile.hasShapes = true;
    profile.kernels = {rowOf("256;256", "256"), rowOf("32768", "8"), writer, rowOf("256;256", "256")};
    for (auto& k : profile.kernels) k.durationUs = 1.0;
    const auto cold = distinctKernels(profile, L2State::Cold, 64 * kKiB);
    const auto timeline = distinctKernels(profile, L2State::Timeline, 64 * kKiB);
    EXPECT_EQ(cold.size(), 3u);
    ASSERT_EQ(timeline.size(), 4u);
    // In launch order: the Add cold, the flush, the writer, the Add over the writer's outputs with
    // both inputs held (in the order they are preloaded, least recently used first).
    EXPECT_TRUE(timeline[0].residentInputs.empty());
    EXPECT_TRUE(timeline[1].residentInputs.empty());
    EXPECT_TRUE(timeline[2].residentInputs.empty());
    EXPECT_EQ(timeline[3].residentInputs.size(), 2u);
    EXPECT_EQ(timeline[0].sample.type, timeline[3].sample.type);
}

}  // namespace
}  // namespace ascendsim

namespace ascendsim {
namespace {

// l2.partial_read_fill (docs/fidelity.md §94): each held input names the kernel whose write it still
// holds as written; a read after the write leaves none (the read made its lines whole).
TEST(L2TimelineWriters, AHeldInputNamesItsLastWriterUnlessARead) {
    RealProfile profile;
    // Row 0 writes [512]; row 1 reads [256] and writes [128]; row 2 reads [512] (row 0's output,
    // output 0) and [128] (row 1's); row 3 reads [512] again, after row 2's read.
    profile.kernels = {rowOf("64", "512"), rowOf("256", "128"), rowOf("512;128", "8"), rowOf("512", "4")};
    const L2Timeline timeline = l2Timeline(profile, 64 * 1024, TimelineStart::Empty);
    ASSERT_EQ(timeline.residentInputs[2], (std::vector<std::size_t>{0, 1}));
    ASSERT_EQ(timeline.residentWriters[2].size(), 2u);
    EXPECT_EQ(timeline.residentWriters[2][0].row, 0u);
    EXPECT_EQ(timeline.residentWriters[2][0].output, 0u);
    EXPECT_EQ(timeline.residentWriters[2][1].row, 1u);
    ASSERT_EQ(timeline.residentWriters[3].size(), 1u);
    EXPECT_FALSE(timeline.residentWriters[3][0].present());
}

// The writers split a timeline group only on a chip whose L2 keeps partial lines.
TEST(L2TimelineWriters, WritersSplitGroupsOnlyWhenTheChipKeepsPartialLines) {
    RealProfile profile;
    profile.hasShapes = true;
    // Row 2 and row 4 launch one kernel on a held [512] written by two different kernels.
    profile.kernels = {rowOf("64", "512"), rowOf("2", "1"), rowOf("512", "8", "aclnnMul"),
                       rowOf("32", "512", "aclnnSub"), rowOf("512", "8", "aclnnMul")};
    profile.kernels[3].type = "Sub";
    ChipConfig chip;
    chip.l2.partialLineFill = PartialLineFill::None;
    const std::size_t without = distinctKernels(profile, L2State::Timeline, 64 * 1024, &chip).size();
    chip.l2.partialLineFill = PartialLineFill::OnRead;
    const auto groups = distinctKernels(profile, L2State::Timeline, 64 * 1024, &chip);
    EXPECT_EQ(groups.size(), without + 1);
    std::size_t withWriter = 0;
    for (const auto& g : groups)
        if (g.residentWriters.size() == 1 && g.residentWriters[0]) ++withWriter;
    EXPECT_EQ(withWriter, 2u);
}


// The share of a row's incoming bytes whose victims are dirty (docs/fidelity.md §103, §107), 4 KiB
// of L2: kernel 1 reads A and writes B (2 KiB each, L2 full); kernel 2's 2 KiB push out 2 KiB of
// kernel 1's tensors, which it touched together (their lines interleave in age): half of it B,
// which kernel 1 wrote (share 0.5); kernel 3's 1 KiB push out B's remaining lines (share 1).
TEST(L2TimelineVictims, ARowsVictimsAreDirtyWhenAKernelWroteThem) {
    RealProfile profile;
    profile.kernels = {rowOf("512", "512"), rowOf("256", "256"), rowOf("128", "128")};
    const L2Timeline timeline = l2Timeline(profile, 4 * kKiB, kEmpty);
    ASSERT_EQ(timeline.victimDirtyShare.size(), 3u);
    EXPECT_DOUBLE_EQ(timeline.victimDirtyShare[0], 0.0);  // L2 had room
    EXPECT_DOUBLE_EQ(timeline.victimDirtyShare[1], 0.5);
    EXPECT_DOUBLE_EQ(timeline.victimDirtyShare[2], 1.0);
}

// ApplyAdamWV2 records var, m, v, grad and no output (docs/fidelity.md §107): it writes var, m and
// v in place, so they are dirty. Its four 1 KiB tensors fill 4 KiB of L2, touched together (tile
// by tile), so the 2 KiB a later row brings in push out equal parts of all four: 3 / 4 dirty.
TEST(L2TimelineVictims, AnOptimizerWithNoRecordedOutputsDirtiesWhatItUpdates) {
    RealProfile profile;
    RealKernel adam = rowOf("256;256;256;256", "N/A", "aclnnApplyAdamWV2_ApplyAdamWV2_ApplyAdamWV2");
    adam.type = "ApplyAdamWV2";
    profile.kernels = {adam, rowOf("504", "8", "aclnnMul")};
    const L2Timeline timeline = l2Timeline(profile, 4 * kKiB, kEmpty);
    EXPECT_DOUBLE_EQ(timeline.victimDirtyShare[0], 0.0);
    EXPECT_DOUBLE_EQ(timeline.victimDirtyShare[1], 0.75);
}

// copy_(self, src) writes another tensor than the src it reads: with only src of the output's
// identity held, the copy's target is not resident.
TEST(L2Timeline, ACopyNeverTargetsTheTensorItReads) {
    RealProfile profile;
    profile.kernels = {rowOf("64", "256"), rowOf("256", "256", "aclnnInplaceCopy_TensorMove")};
    const L2Timeline timeline = l2Timeline(profile, 64 * kKiB, kEmpty);
    EXPECT_EQ(timeline.residentInputs[1], Indices{0});
    EXPECT_TRUE(timeline.residentOutputs[1].empty());
}

// A tensor larger than L2 (8 KiB written into 4 KiB) leaves L2 full of its last lines, dirty: the
// next row's cold reads evict them (share 1), though no read can find them.
TEST(L2TimelineVictims, ATensorStreamedPastL2LeavesItsDirtyLinesBehind) {
    RealProfile profile;
    profile.kernels = {rowOf("8", "2048"), rowOf("256", "8", "aclnnMul")};
    const L2Timeline timeline = l2Timeline(profile, 4 * kKiB, kEmpty);
    EXPECT_TRUE(timeline.residentInputs[1].empty());
    EXPECT_DOUBLE_EQ(timeline.victimDirtyShare[1], 1.0);
    // Read rather than written, the lines it leaves are clean.
    profile.kernels = {rowOf("2048", "N/A"), rowOf("256", "8", "aclnnMul")};
    EXPECT_DOUBLE_EQ(l2Timeline(profile, 4 * kKiB, kEmpty).victimDirtyShare[1], 0.0);
}

// Three rows: a forward op's kernel (linked as forward op 0) reading `forwardIn` and writing
// `forwardOut`, an unlinked kernel reading `otherIn` and writing [256], and a kernel reading [256]
// that runs in forward op 0's backward node when `linked`.
RealProfile forwardOtherBackward(const std::string& forwardIn, const std::string& forwardOut, const std::string& otherIn,
                                 bool linked) {
    RealProfile profile;
    profile.kernels = {rowOf(forwardIn, forwardOut), rowOf(otherIn, "256", "aclnnMul_MulAiCore_Mul"),
                       rowOf("256", "8", "aclnnCast_CastAiCore_Cast")};
    profile.kernels[0].forwardOp = 0;
    if (linked) profile.kernels[2].backwardOf = 0;
    return profile;
}

// A backward node's kernel reads the tensor its forward op read (autograd_links.h, §140), not the
// newest tensor of that identity: kernel 1 writes a newer [256] after the forward op (kernel 0)
// read X; the backward kernel finds X, which no write touched since (no writer), where the shape
// rule alone finds kernel 1's output.
TEST(L2Timeline, ABackwardKernelReadsTheTensorItsForwardOpRead) {
    const L2Timeline unlinked = l2Timeline(forwardOtherBackward("256", "128", "128", false), 64 * kKiB, kEmpty);
    ASSERT_EQ(unlinked.residentInputs[2], Indices{0});
    EXPECT_EQ(unlinked.residentWriters[2][0].row, 1u);
    const L2Timeline linked = l2Timeline(forwardOtherBackward("256", "128", "128", true), 64 * kKiB, kEmpty);
    ASSERT_EQ(linked.residentInputs[2], Indices{0});
    EXPECT_FALSE(linked.residentWriters[2][0].present());
}

// The saved tensor is that tensor, held or not: once L2 has pushed X out, the backward kernel
// reads it cold even though a newer tensor of its identity is held (6 KiB: kernel 1's 4 KiB read
// and 1 KiB write evict X, the least recently used).
TEST(L2Timeline, ASavedTensorPushedOutIsColdThoughItsIdentityIsHeld) {
    EXPECT_EQ(l2Timeline(forwardOtherBackward("256", "16", "1024", false), 6 * kKiB, kEmpty).residentInputs[2],
              Indices{0});
    EXPECT_TRUE(l2Timeline(forwardOtherBackward("256", "16", "1024", true), 6 * kKiB, kEmpty).residentInputs[2].empty());
}

// A forward op that also wrote a tensor of the identity (an elementwise op: Relu's y has x's
// shape) does not say which of them autograd saved: the backward kernel keeps the shape rule.
TEST(L2Timeline, AnIdentityTheForwardOpAlsoWroteIsNotNamed) {
    const L2Timeline timeline = l2Timeline(forwardOtherBackward("256", "256", "128", true), 64 * kKiB, kEmpty);
    ASSERT_EQ(timeline.residentInputs[2], Indices{0});
    EXPECT_EQ(timeline.residentWriters[2][0].row, 1u);
}

// Under --l2-views autograd (§140g), a backward node's kernel whose input has an identity L2 holds
// no tensor of reads a view of the node's tensor of the same dtype, layout and bytes (a ReduceSum
// over [N, C, H·W] of the node's dy [N, C, H, W]): kernel 0 of node 0 reads [32,4] (512 B), kernel
// 1 of the node reads [128] (512 B) — held, the tensor kernel 0 read (no writer). By default, or
// outside the node, [128] is a new tensor, read cold.
RealProfile nodeReadsThenReshapes(const std::string& reshaped, std::size_t secondNode) {
    RealProfile profile;
    profile.kernels = {rowOf("32,4", "8", "aclnnCast_CastAiCore_Cast"), rowOf(reshaped, "4", "aclnnReduceSum")};
    profile.kernels[0].backwardOf = 0;
    profile.kernels[1].backwardOf = secondNode;
    return profile;
}
constexpr TimelineReads kNodeViews{ScalarInputs::Cold, ViewInputs::NodeViews};

TEST(L2Timeline, ABackwardKernelReadsAReshapeOfATensorItsNodeTouched) {
    const L2Timeline views = l2Timeline(nodeReadsThenReshapes("128", 0), 64 * kKiB, kEmpty, 0, kNodeViews);
    ASSERT_EQ(views.residentInputs[1], Indices{0});
    EXPECT_FALSE(views.residentWriters[1][0].present());
    EXPECT_TRUE(l2Timeline(nodeReadsThenReshapes("128", 0), 64 * kKiB, kEmpty).residentInputs[1].empty());
}

// A view has its source's bytes and runs in its source's node: [64] (256 B) is not a view of
// [32,4], nor is [128] launched in another node or outside any.
TEST(L2Timeline, AReshapeNeedsTheSameBytesAndTheSameBackwardNode) {
    EXPECT_TRUE(l2Timeline(nodeReadsThenReshapes("64", 0), 64 * kKiB, kEmpty, 0, kNodeViews).residentInputs[1].empty());
    EXPECT_TRUE(l2Timeline(nodeReadsThenReshapes("128", 1), 64 * kKiB, kEmpty, 0, kNodeViews).residentInputs[1].empty());
    EXPECT_TRUE(l2Timeline(nodeReadsThenReshapes("128", RealKernel::kNoAutogradOp), 64 * kKiB, kEmpty, 0, kNodeViews)
                    .residentInputs[1]
                    .empty());
}

// The view read touches its source (under the source's identity, bringing nothing new in): the
// source becomes more recent than kernel 0's output [8], so when kernel 2's [256] (1 KiB) takes
// L2 one byte over its 1583 B, [8] leaves and kernel 3 still finds [32,4].
TEST(L2Timeline, AReshapeReadKeepsItsSourceRecentlyUsed) {
    RealProfile profile = nodeReadsThenReshapes("128", 0);
    profile.kernels.push_back(rowOf("256", "N/A"));
    profile.kernels.push_back(rowOf("32,4", "N/A", "aclnnMul_MulAiCore_Mul"));
    const L2Timeline views = l2Timeline(profile, 1583, kEmpty, 0, kNodeViews);
    EXPECT_EQ(views.residentInputs[3], Indices{0});
}

// A backward kernel reads what its forward op saved and the gradient its node received, written
// by the node before it — never a gradient an older node wrote (§146): node 0 writes a [256], node
// 1 a [64]; node 2's [256] input is read cold. Outside a node, or when the [256] came from the node
// just before, the shape rule finds it.
RealProfile gradientTwoNodesBack(std::size_t secondNode, std::size_t readerNode) {
    RealProfile profile;
    profile.kernels = {rowOf("8", "256", "aclnnReluGrad"), rowOf("8", "64", "aclnnMul_MulAiCore_Mul"),
                       rowOf("256", "4", "aclnnReduceSum")};
    profile.kernels[0].backwardOf = 0;
    profile.kernels[1].backwardOf = secondNode;
    profile.kernels[2].backwardOf = readerNode;
    return profile;
}

TEST(L2Timeline, ABackwardKernelNeverReadsTheGradientOfANodeTwoBack) {
    EXPECT_TRUE(l2Timeline(gradientTwoNodesBack(1, 2), 64 * kKiB, kEmpty).residentInputs[2].empty());
    EXPECT_EQ(l2Timeline(gradientTwoNodesBack(1, RealKernel::kNoAutogradOp), 64 * kKiB, kEmpty).residentInputs[2],
              Indices{0});
    EXPECT_EQ(l2Timeline(gradientTwoNodesBack(0, 2), 64 * kKiB, kEmpty).residentInputs[2], Indices{0});
}

// An input of an identity its forward op read is that op's tensor, never a view of the node's
// (§146: AdaptiveAvgPool3dGrad's saved x [32,256,1,6,6] is not the node's dy [8192,1,6,6]):
// forward op 0 reads and writes [128] (so neither is named), a 1 KiB read and the node's [32,4]
// push both out of 1583 B; the node's [128] input is then read cold, not as a view of [32,4].
TEST(L2Timeline, AnIdentityTheForwardOpReadIsNeverAView) {
    RealProfile profile;
    profile.kernels = {rowOf("128", "128", "aclnnRelu_ReluAiCore_Relu"), rowOf("256", "N/A"),
                       rowOf("32,4", "8", "aclnnCast_CastAiCore_Cast"), rowOf("128", "4", "aclnnReduceSum")};
    profile.kernels[0].forwardOp = 0;
    profile.kernels[2].backwardOf = 0;
    profile.kernels[3].backwardOf = 0;
    EXPECT_TRUE(l2Timeline(profile, 1583, kEmpty, 0, kNodeViews).residentInputs[3].empty());
    // Without the forward op's read, [128] is a view of the node's [32,4].
    profile.kernels[0].forwardOp = RealKernel::kNoAutogradOp;
    EXPECT_EQ(l2Timeline(profile, 1583, kEmpty, 0, kNodeViews).residentInputs[3], Indices{0});
}

// An input of a shape L2 holds no tensor of, with the bytes and dtype of a tensor the kernel just
// before wrote, is that tensor reshaped between the launches (§144e: the DropOutDoMask's [32,9216]
// read by the Transpose as [8192,1,6,6]): kernel 0 writes [32,16] (2 KiB), kernel 1 reads [512]
// (2 KiB) — held, written by kernel 0 — under any --l2-views.
TEST(L2Timeline, AKernelReadsAReshapeOfWhatTheKernelBeforeWrote) {
    RealProfile profile;
    profile.kernels = {rowOf("8", "32,16", "aclnnCast_CastAiCore_Cast"), rowOf("512", "4", "aclnnReduceSum")};
    const L2Timeline timeline = l2Timeline(profile, 64 * kKiB, kEmpty);
    ASSERT_EQ(timeline.residentInputs[1], Indices{0});
    EXPECT_EQ(timeline.residentWriters[1][0].row, 0u);
    EXPECT_EQ(l2Timeline(profile, 64 * kKiB, kEmpty, 0, kNodeViews).residentInputs[1], Indices{0});
}

// Only the kernel just before: with another launch between, [512] is a new tensor, read cold; nor
// is [256] (1 KiB) a view of the 2 KiB [32,16].
TEST(L2Timeline, AReshapeOfAnotherWriteNeedsTheKernelJustBeforeAndItsBytes) {
    RealProfile between;
    between.kernels = {rowOf("8", "32,16", "aclnnCast_CastAiCore_Cast"), rowOf("8", "2", "aclnnMul_MulAiCore_Mul"),
                       rowOf("512", "4", "aclnnReduceSum")};
    EXPECT_TRUE(l2Timeline(between, 64 * kKiB, kEmpty).residentInputs[2].empty());
    RealProfile smaller;
    smaller.kernels = {rowOf("8", "32,16", "aclnnCast_CastAiCore_Cast"), rowOf("256", "4", "aclnnReduceSum")};
    EXPECT_TRUE(l2Timeline(smaller, 64 * kKiB, kEmpty).residentInputs[1].empty());
}

// Once read as [512], the tensor is found under that shape too, as a cold read of [512] would
// have brought it in: a later kernel reading [512] finds it, whoever launched between (Qwen3's
// qkv MatMul output [4096,4096], read by two Slices as [4096,8,512]).
TEST(L2Timeline, AReshapeReadIsFoundUnderItsShapeAfterwards) {
    RealProfile profile;
    profile.kernels = {rowOf("8", "32,16", "aclnnCast_CastAiCore_Cast"), rowOf("512", "4", "aclnnReduceSum"),
                       rowOf("8", "2", "aclnnMul_MulAiCore_Mul"), rowOf("512", "1", "aclnnSlice")};
    const L2Timeline timeline = l2Timeline(profile, 64 * kKiB, kEmpty);
    ASSERT_EQ(timeline.residentInputs[3], Indices{0});
    EXPECT_FALSE(timeline.residentWriters[3][0].present());  // kernel 1's read came after the write
}

// ReluGrad(gradients, features): features is the tensor its forward op (relu) wrote (§146g), even
// when the two inputs share one identity and a newer tensor of it is held. Forward op 0 writes Y
// [64]; forward op 1 reads it and writes Z [64]; backward node 1 writes the gradient G [64]; node
// 0's ReluGrad then reads G and Y — not G and Z (row 1's), the newest other tensor of the
// identity, which an "Add" row of the same shapes takes.
TEST(L2Timeline, ReluGradsFeaturesAreTheTensorItsForwardOpWrote) {
    RealProfile profile;
    profile.kernels = {rowOf("64", "64"), rowOf("64", "64", "aclnnGelu_GeluAiCore_Gelu"), rowOf("8", "64"),
                       rowOf("64;64", "64", "aclnnThresholdBackward_ReluGrad_ReluGrad")};
    profile.kernels[1].type = "Gelu";
    profile.kernels[0].forwardOp = 0;
    profile.kernels[1].forwardOp = 1;
    profile.kernels[2].backwardOf = 1;
    profile.kernels[3].backwardOf = 0;
    const auto writerRows = [](const L2Timeline& t) {
        std::vector<std::size_t> rows;
        for (const TensorWriter& w : t.residentWriters[3]) rows.push_back(w.row);
        std::sort(rows.begin(), rows.end());
        return rows;
    };
    profile.kernels[3].type = "ReluGrad";
    const L2Timeline relu = l2Timeline(profile, 64 * kKiB, kEmpty);
    EXPECT_EQ(relu.residentInputs[3].size(), 2u);
    // G (row 2's) and Y, which row 1's read leaves with no writer.
    EXPECT_EQ(writerRows(relu), (Indices{2, TensorWriter::kNone}));
    profile.kernels[3].type = "Add";
    EXPECT_EQ(writerRows(l2Timeline(profile, 64 * kKiB, kEmpty)), (Indices{1, 2}));
}

}  // namespace
}  // namespace ascendsim

// UB bank conflicts (hardware.md §2.6): the rules and their effect on the vector pipe.
#include "models/core/ub_bank_model.h"

#include <gtest/gtest.h>

#include <vector>

#include "models/device/device_run.h"
#include "models/core/pmu_accounting.h"

namespace ascendsim::test {
namespace {

VectorInstr add(std::uint64_t dst, std::uint64_t src0, std::uint64_t src1, std::uint16_t repeats) {
    return std::get<VectorInstr>(vadd(dst, src0, src1, repeats).operands);
}

const UbBanking kBanking{16, 3, 4096, 32};  // 910B: 16 groups × 3 banks, 32 B rows

TEST(UbBankModel, SourcesInDifferentGroupsAndDestinationInAnotherBank_AreConflictFree) {
    UbBankModel model(kBanking);
    // src0 blocks 0-7 → groups 0-7, src1 blocks 8-15 → groups 8-15, dst in the next 64 KiB slice
    // (groups 0-7, bank 1 of each).
    const UbBankConflicts c = model.conflicts(add(0x10000, 0, 256, 8));
    EXPECT_EQ(c.bankGroupStallCycles, 0u);
    EXPECT_EQ(c.bankStallCycles, 0u);
}

TEST(UbBankModel, TwoReadsInOneBankGroup_StallOneCyclePerBeat) {
    UbBankModel model(kBanking);
    // src1 = src0 + 16 blocks: same groups → every group is read twice per beat.
    const UbBankConflicts c = model.conflicts(add(1024 + 256, 0, 512, 8));
    EXPECT_EQ(c.bankGroupStallCycles, 8u);
    EXPECT_EQ(c.bankStallCycles, 0u);
}

TEST(UbBankModel, ReadAndWriteOfTheSameBank_IsABankConflict) {
    UbBankModel model(kBanking);
    // In place on src0: each beat reads and writes the same 8 banks.
    const UbBankConflicts c = model.conflicts(add(0, 0, 256, 5));
    EXPECT_EQ(c.bankStallCycles, 5u);
    EXPECT_EQ(c.bankGroupStallCycles, 0u);
}

// The Ascend C guide's examples for 220x ("避免UB的bank冲突"): one 32 B block read at `src` and
// one written at `dst` (mask 8 fp32 = one block), or two blocks read.
UbBankConflicts oneBlock(UbBankModel& model, std::uint64_t dst, std::uint64_t src0, std::uint64_t src1) {
    VectorInstr v = add(dst, src0, src1, 1);
    v.mask = 8;
    v.dtype = DataType::Fp32;
    return model.conflicts(v);
}

TEST(UbBankModel, GuideExamples_ReadWriteConflictOnlyInTheSameBank) {
    UbBankModel model(kBanking);
    const std::uint64_t elsewhere = 0x20000 + 0x100;  // bank 40 (group 8), clear of both
    // src 0x10020 (bank 17) and dst 0x10000 (bank 16): different banks and groups.
    EXPECT_EQ(oneBlock(model, 0x10000, 0x10020, elsewhere).bankStallCycles, 0u);
    // src 0x10020 and dst 0x10E20, 3.5 KiB apart: both bank 17, a read/write conflict.
    EXPECT_EQ(oneBlock(model, 0x10E20, 0x10020, elsewhere).bankStallCycles, 1u);
    // Same group (1), different banks (17 and 33): a read and a write do not conflict.
    EXPECT_EQ(oneBlock(model, 0x20020, 0x10020, elsewhere).totalStallCycles(), 0u);
    // The 64 KiB slices: 0x0020 (bank 1) and 0x10020 (bank 17) are different banks of group 1.
    EXPECT_EQ(oneBlock(model, 0x0020, 0x10020, elsewhere).bankStallCycles, 0u);
}

TEST(UbBankModel, GuideExamples_TwoReadsOfOneGroupConflictWhateverTheBank) {
    UbBankModel model(kBanking);
    const std::uint64_t dst = 0x20000 + 0x100;  // group 8, bank 40
    // src0 0x10020 (bank 17) and src1 0x20020 (bank 33): same group 1.
    EXPECT_EQ(oneBlock(model, dst, 0x10020, 0x20020).bankGroupStallCycles, 1u);
    // src0 0x10020 and src1 0x10000: groups 1 and 0.
    EXPECT_EQ(oneBlock(model, dst, 0x10020, 0x10000).bankGroupStallCycles, 0u);
}

TEST(UbBankModel, GuideExamples_StridedWriteAcrossTheSliceBoundary) {
    UbBankModel model(kBanking);
    // dst 0x1FE00 with block stride 16 (512 B): 8 blocks in group 0 → 8 beats for one repeat.
    VectorInstr v = std::get<VectorInstr>(vadds(0x1FE00, 0x100, 1).operands);
    v.dstBlockStride = 16;
    EXPECT_EQ(model.conflicts(v).bankGroupStallCycles, 7u);
    // Block stride 8 (256 B): groups 0 and 8 alternate, 4 blocks each → 4 beats.
    v.dstBlockStride = 8;
    EXPECT_EQ(model.conflicts(v).bankGroupStallCycles, 3u);
}

// vnchwconv's 16 addresses as two groups of 8 (VectorOp::NchwConv): an evenly spaced list stays
// one 16-block operand, a list whose second 8 lie a half stride away is two 8-block operands, and
// a 32-bit destination (pairs) always is.
TEST(UbBankModel, NchwConvListsItsBlocksAsTwoGroupsOfEight) {
    VectorInstr even{.op = VectorOp::NchwConv, .dtype = DataType::Fp16, .dst = 0x8000, .src0 = 0, .dstBlockStride = 1,
                     .src0BlockStride = 3, .dstRepeatStride = 16, .src0RepeatStride = 1};
    const UbAccessPattern one = ubAccessPatternOf(even);
    ASSERT_EQ(one.operandCount, 2u);
    EXPECT_EQ(one.operands[0].blocksPerBeat, 16u);
    EXPECT_EQ(one.operands[0].blockStrideBytes, 96u);
    VectorInstr wide{.op = VectorOp::NchwConv, .dtype = DataType::Fp32, .dst = 0x8000, .src0 = 0, .dstBlockStride = 1,
                     .src0BlockStride = 5, .dstRepeatStride = 16, .src0RepeatStride = 2};
    wide.src0HalfStride = 1;
    wide.dstHalfStride = 8;
    const UbAccessPattern two = ubAccessPatternOf(wide);
    ASSERT_EQ(two.operandCount, 4u);
    EXPECT_EQ(two.operands[0].baseBytes, 0u);
    EXPECT_EQ(two.operands[1].baseBytes, 32u);        // the second 8 rows' blocks: the next 8 positions
    EXPECT_EQ(two.operands[1].blockStrideBytes, 160u);
    EXPECT_EQ(two.operands[2].baseBytes, 0x8000u);
    EXPECT_EQ(two.operands[3].baseBytes, 0x8000u + 8 * 32);  // pair j's second block: cell 8 + j
    EXPECT_TRUE(two.operands[3].isWrite);
    EXPECT_EQ(two.operands[3].blocksPerBeat, 8u);
}

TEST(UbBankModel, StridedOperandInOneGroup_SerialisesItsBlocks) {
    UbBankModel model(kBanking);
    VectorInstr v = add(512, 0, 256, 1);
    v.src0BlockStride = 16;  // all 8 blocks of src0 in group 0
    const UbBankConflicts c = model.conflicts(v);
    EXPECT_EQ(c.bankGroupStallCycles, 7u);
}

TEST(UbBankModel, BroadcastOperandWithBlockStrideZero_IsReadOnceWithoutConflict) {
    UbBankModel model(kBanking);
    VectorInstr v = add(0x10000, 0, 256, 4);
    v.src1BlockStride = 0;  // all 8 blocks of a repeat use the block at 256 (one bank group)
    const UbAccessPattern p = ubAccessPatternOf(v);
    EXPECT_EQ(p.operands[1].blocksPerBeat, 1u);
    const UbBankConflicts c = model.conflicts(v);
    EXPECT_EQ(c.bankGroupStallCycles, 0u);
    EXPECT_EQ(c.bankStallCycles, 0u);

    PmuCounters counters;
    countVector(v, p, 8, counters);
    EXPECT_EQ(counters[PmuEvent::UbReadVector],
              4u * (8 + 1));  // 32 B units: src0 8 blocks, src1 one
}

TEST(UbBankModel, DestinationWithBlockStrideZero_StillWritesEveryBlock) {
    VectorInstr v = add(512, 0, 256, 1);
    v.dstBlockStride = 0;
    EXPECT_EQ(ubAccessPatternOf(v).operands[2].blocksPerBeat, 8u);
}

TEST(UbBankModel, PeriodicShortcut_MatchesBeatByBeatCount) {
    UbBankModel model(kBanking);
    for (std::uint16_t repeats : {1, 5, 6, 7, 48, 255}) {
        VectorInstr v = add(0x10000 - 96, 0, 512 + 64, repeats);
        v.src1RepeatStride = 5;
        UbAccessPattern p = ubAccessPatternOf(v);
        std::uint64_t expected = 0;
        for (std::uint16_t r = 0; r < repeats; ++r) {
            UbAccessPattern one = p;
            one.beats = 1;
            for (std::size_t i = 0; i < one.operandCount; ++i)
                one.operands[i].baseBytes += std::uint64_t{r} * one.operands[i].beatStrideBytes;
            expected += model.conflicts(one).totalStallCycles();
        }
        EXPECT_EQ(model.conflicts(v).totalStallCycles(), expected) << repeats << " repeats";
    }
}

TEST(UbBankConflicts, ConflictingVectorAccess_StallsThePipeAndIsCounted) {
    DeviceRun clean;
    const PmuCounters ok = clean.runOne(vectorTask({vadd(0x10000, 0, 256, 8)})).blocks.at(0).counters;
    EXPECT_EQ(ok[PmuEvent::VecBankGroupConflict], 0u);
    EXPECT_EQ(ok[PmuEvent::VecBankConflict], 0u);
    EXPECT_EQ(ok[PmuEvent::VecBusy], 3 + 8 * 2u);  // binary: 2 cycles per repeat

    DeviceRun conflicting;
    const PmuCounters bad = conflicting.runOne(vectorTask({vadd(1024 + 256, 0, 512, 8)})).blocks.at(0).counters;
    EXPECT_EQ(bad[PmuEvent::VecBankGroupConflict], 8u);
    EXPECT_EQ(bad[PmuEvent::VecBusy], ok[PmuEvent::VecBusy] + 8);
    EXPECT_EQ(bad.totalCycles, ok.totalCycles + 8);
}

TEST(UbBankConflicts, VectorOverlappingAnMteTransferToUb_CountsResourceConflicts) {
    DeviceRun alone;
    const PmuCounters quiet = alone.runOne(vectorTask({vadds(8192, 16384, 50)})).blocks.at(0).counters;
    EXPECT_EQ(quiet[PmuEvent::VecResourceConflict], 0u);

    DeviceRun shared;
    // The vadds (delivered at cycle 2) runs while MTE2 writes UB at 64 B/cycle for 100 cycles.
    const PmuCounters busy =
        shared.runOne(vectorTask({gmToUb(0, 6400), vadds(8192, 16384, 50)})).blocks.at(0).counters;
    EXPECT_GT(busy[PmuEvent::VecResourceConflict], 0u);
    EXPECT_EQ(busy[PmuEvent::VecBusy], quiet[PmuEvent::VecBusy] + busy[PmuEvent::VecResourceConflict]);
}


TEST(UbBankModel, MemoisedResult_EqualsDirectResultForShiftedAndRandomPatterns) {
    UbBankModel model(kBanking);
    const std::uint64_t periodBytes = 16 * 3 * 4096;
    std::uint64_t state = 99;
    auto next = [&state](std::uint64_t bound) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return (state >> 33) % bound;
    };
    for (int i = 0; i < 2000; ++i) {
        VectorInstr v = add(32 * next(2000), 32 * next(2000), 32 * next(2000), static_cast<std::uint16_t>(1 + next(255)));
        v.src0RepeatStride = static_cast<std::uint16_t>(next(20));
        v.src1BlockStride = static_cast<std::uint8_t>(1 + next(20));
        v.mask = static_cast<std::uint16_t>(1 + next(128));
        if (i % 4 == 0) v.op = VectorOp::ReduceSum;
        const UbAccessPattern p = ubAccessPatternOf(v);
        ASSERT_EQ(model.cachedConflicts(p).totalStallCycles(), model.conflicts(p).totalStallCycles()) << i;
        // The same pattern a whole number of mapping periods further on hits the memo.
        UbAccessPattern shifted = p;
        for (std::size_t o = 0; o < shifted.operandCount; ++o) shifted.operands[o].baseBytes += 3 * periodBytes;
        ASSERT_EQ(model.cachedConflicts(shifted).bankGroupStallCycles, model.conflicts(p).bankGroupStallCycles) << i;
        ASSERT_EQ(model.cachedConflicts(shifted).bankStallCycles, model.conflicts(shifted).bankStallCycles) << i;
    }
}

TEST(UbBankModel, MemoisedResult_StaysExactWhenFewPatternsRepeatInRandomOrder) {
    // A kernel's handful of patterns recurring: served from the core's recent entries, which
    // evict each other, and from the shared memo, shared with a second model.
    UbBankModel model(kBanking);
    UbBankModel other(kBanking);
    std::uint64_t state = 7;
    auto next = [&state](std::uint64_t bound) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return (state >> 33) % bound;
    };
    std::vector<UbAccessPattern> patterns;
    for (int i = 0; i < 24; ++i) {
        VectorInstr v = add(32 * next(2000), 32 * next(2000), 32 * next(2000), static_cast<std::uint16_t>(1 + next(255)));
        v.dstRepeatStride = static_cast<std::uint16_t>(next(20));
        patterns.push_back(ubAccessPatternOf(v));
    }
    for (int i = 0; i < 5000; ++i) {
        const UbAccessPattern& p = patterns[next(i < 2500 ? 6 : patterns.size())];
        UbBankModel& user = i % 3 == 0 ? other : model;
        const UbBankConflicts expected = model.conflicts(p);
        const UbBankConflicts got = user.cachedConflicts(p);
        ASSERT_EQ(got.bankGroupStallCycles, expected.bankGroupStallCycles) << i;
        ASSERT_EQ(got.bankStallCycles, expected.bankStallCycles) << i;
    }
}

}  // namespace
}  // namespace ascendsim::test

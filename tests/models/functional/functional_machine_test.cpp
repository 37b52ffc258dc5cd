// FunctionalMachine: the data effect of every instruction kind, and the checks that reject
// out-of-bounds, misaligned, unbalanced-flag and deadlocking programs.
#include "models/functional/functional_machine.h"

#include <gtest/gtest.h>

#include "models/kernels/test_chip.h"

namespace ascendsim {
namespace {

using test::ascend910B1;

KernelTask singleBlock(TaskType type, std::vector<Instruction> program) {
    KernelTask task;
    task.type = type;
    task.blockDim = 1;
    task.program = [program](const BlockProgramRequest&) { return std::make_unique<FixedInstructionStream>(program); };
    return task;
}

// A MIX task with one AIC program and one program per AIV (sub-block index).
KernelTask mixTask(std::uint32_t groups, std::vector<Instruction> cube, std::vector<Instruction> vector0,
                   std::vector<Instruction> vector1) {
    KernelTask task;
    task.type = TaskType::MixAic;
    task.blockDim = groups;
    task.mixBlockDim = 2 * groups;
    task.program = [=](const BlockProgramRequest& r) {
        const auto& p = r.coreKind == CoreKind::Cube ? cube : (r.subBlockIdx == 0 ? vector0 : vector1);
        return std::make_unique<FixedInstructionStream>(p);
    };
    return task;
}

DataMove move(MemSpace src, std::uint64_t srcAddr, MemSpace dst, std::uint64_t dstAddr, std::uint32_t bytes) {
    DataMove m;
    m.src = src;
    m.dst = dst;
    m.srcAddr = srcAddr;
    m.dstAddr = dstAddr;
    m.burstBytes = bytes;
    return m;
}

std::string errorOf(FunctionalMachine& machine, const KernelTask& task) {
    try {
        machine.runKernel(task);
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "";
}

// L0C[m×n] = A·B from GM (fp16) on an AIC, then FixPipe to GM with `fix` applied.
std::vector<Instruction> matmulToGm(std::uint32_t m, std::uint32_t k, std::uint32_t n, DataMove fix) {
    Mmad mm;
    mm.m = static_cast<std::uint16_t>(m);
    mm.k = static_cast<std::uint16_t>(k);
    mm.n = static_cast<std::uint16_t>(n);
    mm.l0bAddr = 0;
    fix.src = MemSpace::L0C;
    fix.dst = MemSpace::GM;
    fix.burstBytes = m * n * 4;
    return {Instruction::move(move(MemSpace::GM, 0, MemSpace::L0A, 0, m * k * 2)),
            Instruction::move(move(MemSpace::GM, 1024, MemSpace::L0B, 0, k * n * 2)), Instruction::mmad(mm),
            Instruction::move(fix)};
}

TEST(FunctionalMachine, DataMoveBurstsSkipTheGapsOnBothSides) {
    const auto chip = ascend910B1();
    FunctionalMachine machine(chip, 1 << 20);
    std::vector<float> rows(4 * 8);
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = static_cast<float>(i);
    machine.writeTensor(0, DataType::Fp32, rows);
    DataMove in = move(MemSpace::GM, 8, MemSpace::UB, 0, 16);  // columns 2..5 of each 8-wide row
    in.burstCount = 4;
    in.srcGapBytes = 16;
    DataMove out = move(MemSpace::UB, 0, MemSpace::GM, 4096, 64);
    machine.runKernel(singleBlock(TaskType::AiVectorCore, {Instruction::move(in), Instruction::move(out)}));
    EXPECT_EQ(machine.readTensor(4096, DataType::Fp32, 16),
              (std::vector<float>{2, 3, 4, 5, 10, 11, 12, 13, 18, 19, 20, 21, 26, 27, 28, 29}));
}

TEST(FunctionalMachine, FixPipeConvertsAccumulatorsToFp16WithReluOnTheFly) {
    const auto chip = ascend910B1();
    FunctionalMachine machine(chip, 1 << 20);
    machine.writeTensor(0, DataType::Fp16, {1, 2, -3, 4});    // A 2×2
    machine.writeTensor(1024, DataType::Fp16, {1, 0, 0, 1});  // B = I
    DataMove fix;
    fix.dstAddr = 8192;
    fix.srcType = DataType::Fp32;
    fix.dstType = DataType::Fp16;
    fix.reluOnTheFly = true;
    machine.runKernel(singleBlock(TaskType::AiCore, matmulToGm(2, 2, 2, fix)));
    EXPECT_EQ(machine.readTensor(8192, DataType::Fp16, 4), (std::vector<float>{1, 2, 0, 4}));
}

TEST(FunctionalMachine, AtomicAddAccumulatesIntoGmInsteadOfOverwriting) {
    const auto chip = ascend910B1();
    FunctionalMachine machine(chip, 1 << 20);
    machine.writeTensor(0, DataType::Fp16, {1, 2, 3, 4});
    machine.writeTensor(1024, DataType::Fp16, {1, 0, 0, 1});
    machine.writeTensor(8192, DataType::Fp32, {10, 10, 10, 10});
    DataMove fix;
    fix.dstAddr = 8192;
    fix.srcType = fix.dstType = DataType::Fp32;
    fix.atomicAdd = true;
    auto program = matmulToGm(2, 2, 2, fix);
    program.push_back(program.back());  // a second atomic write of the same tile
    machine.runKernel(singleBlock(TaskType::AiCore, program));
    EXPECT_EQ(machine.readTensor(8192, DataType::Fp32, 4), (std::vector<float>{12, 14, 16, 18}));
}

TEST(FunctionalMachine, Int8MmadIsExactAndTransposesAndBiasApply) {
    const auto chip = ascend910B1();
    FunctionalMachine machine(chip, 1 << 20);
    machine.writeTensor(0, DataType::Int8, {127, -128, 100, 5, -7, 3});  // A stored transposed: k×m = 3×2
    machine.writeTensor(1024, DataType::Int8, {127, 127, 127, -1, 2, 3});  // B stored transposed: n×k = 2×3
    machine.writeTensor(2048, DataType::Int32, {1000, -1000});             // bias [n]
    Mmad mm;
    mm.m = 2;
    mm.k = 3;
    mm.n = 2;
    mm.dtype = DataType::Int8;
    mm.transposeA = mm.transposeB = true;
    mm.addBiasFromTable = true;
    DataMove bias = move(MemSpace::GM, 2048, MemSpace::L1, 0, 8);
    DataMove table = move(MemSpace::L1, 0, MemSpace::BiasTable, 0, 8);
    DataMove fix = move(MemSpace::L0C, 0, MemSpace::GM, 8192, 16);
    fix.srcType = fix.dstType = DataType::Int32;
    machine.runKernel(singleBlock(TaskType::AiCore, {Instruction::move(move(MemSpace::GM, 0, MemSpace::L0A, 0, 6)),
                                                     Instruction::move(move(MemSpace::GM, 1024, MemSpace::L0B, 0, 6)),
                                                     Instruction::move(bias), Instruction::move(table),
                                                     Instruction::mmad(mm), Instruction::move(fix)}));
    // A = [[127, 100, -7], [-128, 5, 3]], B columns (127,127,127) and (-1,2,3)
    EXPECT_EQ(machine.readTensor(8192, DataType::Int32, 4),
              (std::vector<float>{127 * 127 + 100 * 127 - 7 * 127 + 1000, -127 + 200 - 21 - 1000,
                                  -128 * 127 + 5 * 127 + 3 * 127 + 1000, 128 + 10 + 9 - 1000}));
}

TEST(FunctionalMachine, Img2ColReadsZerosForPaddingAndEnumeratesChannelsFastest) {
    const auto chip = ascend910B1();
    FunctionalMachine machine(chip, 1 << 20);
    // Slab [h=2][w=2][c=2]: value = 10·h + 5·w + c + 1.
    machine.writeTensor(0, DataType::Fp16, {1, 2, 6, 7, 11, 12, 16, 17});
    Img2ColLoad l;
    l.srcAddr = 0;
    l.channels = 2;
    l.inH = l.inW = 2;
    l.kernelH = l.kernelW = 2;
    l.padTop = l.padLeft = 1;
    l.outW = 3;
    l.firstOutPos = 0;  // output (0,0): taps (−1,−1) (−1,0) (0,−1) (0,0)
    l.m = 1;
    l.k = 8;
    Mmad identity;
    // L0A is not readable from GM: multiply by an identity to get the im2col row out.
    std::vector<float> eye(64, 0.0f);
    for (int i = 0; i < 8; ++i) eye[static_cast<std::size_t>(i * 9)] = 1.0f;
    machine.writeTensor(1024, DataType::Fp16, eye);
    identity.m = 1;
    identity.k = 8;
    identity.n = 8;
    DataMove fix = move(MemSpace::L0C, 0, MemSpace::GM, 8192, 32);
    fix.srcType = fix.dstType = DataType::Fp32;
    machine.runKernel(singleBlock(TaskType::AiCore, {Instruction::move(move(MemSpace::GM, 0, MemSpace::L1, 0, 16)),
                                                     Instruction::img2col(l),
                                                     Instruction::move(move(MemSpace::GM, 1024, MemSpace::L0B, 0, 128)),
                                                     Instruction::mmad(identity), Instruction::move(fix)}));
    EXPECT_EQ(machine.readTensor(8192, DataType::Fp32, 8), (std::vector<float>{0, 0, 0, 0, 0, 0, 1, 2}));
}

TEST(FunctionalMachine, OutOfBoundsAccessNamesInstructionBufferAndAddress) {
    const auto chip = ascend910B1();
    FunctionalMachine machine(chip, 1 << 20);
    const auto error = errorOf(machine, singleBlock(TaskType::AiCore, {Instruction::move(
                                                                          move(MemSpace::GM, 0, MemSpace::L0A, 65024, 1024))}));
    EXPECT_NE(error.find("DataMove"), std::string::npos) << error;
    EXPECT_NE(error.find("L0A"), std::string::npos) << error;
    EXPECT_NE(error.find("0xfe00"), std::string::npos) << error;
}

TEST(FunctionalMachine, MisalignedLocalAddressIsRejected) {
    const auto chip = ascend910B1();
    FunctionalMachine machine(chip, 1 << 20);
    const auto error = errorOf(machine, singleBlock(TaskType::AiCore, {Instruction::move(move(MemSpace::GM, 0, MemSpace::L0B, 256, 64))}));
    EXPECT_NE(error.find("512-byte aligned"), std::string::npos) << error;
    EXPECT_NE(errorOf(machine, singleBlock(TaskType::AiVectorCore, {Instruction::move(move(MemSpace::GM, 0, MemSpace::UB, 16, 64))}))
                  .find("32-byte aligned"),
              std::string::npos);
}

TEST(FunctionalMachine, AicHasNoUnifiedBufferAndMissingPathsAreRejected) {
    const auto chip = ascend910B1();
    FunctionalMachine machine(chip, 1 << 20);
    EXPECT_NE(errorOf(machine, singleBlock(TaskType::AiCore, {Instruction::move(move(MemSpace::GM, 0, MemSpace::UB, 0, 64))}))
                  .find("does not exist on an AIC"),
              std::string::npos);
    EXPECT_NE(errorOf(machine, singleBlock(TaskType::AiCore, {Instruction::move(move(MemSpace::GM, 0, MemSpace::L0C, 0, 64))}))
                  .find("does not exist"),
              std::string::npos);
}

TEST(FunctionalMachine, UnbalancedFlagsAreProgramErrors) {
    const auto chip = ascend910B1();
    FunctionalMachine machine(chip, 1 << 20);
    EXPECT_NE(errorOf(machine, singleBlock(TaskType::AiCore, {Instruction::waitFlag(Pipe::Mte2, Pipe::Mte1, 0)}))
                  .find("without an earlier SetFlag"),
              std::string::npos);
    EXPECT_NE(errorOf(machine, singleBlock(TaskType::AiCore, {Instruction::setFlag(Pipe::Mte2, Pipe::Mte1, 0)}))
                  .find("still set"),
              std::string::npos);
    EXPECT_EQ(errorOf(machine, singleBlock(TaskType::AiCore, {Instruction::setFlag(Pipe::Mte2, Pipe::Mte1, 0),
                                                              Instruction::waitFlag(Pipe::Mte2, Pipe::Mte1, 0)})),
              "");
}

TEST(FunctionalMachine, MixBlocksInterleaveAtCrossCoreFlags) {
    const auto chip = ascend910B1();
    FunctionalMachine machine(chip, 1 << 20);
    machine.writeTensor(0, DataType::Fp32, std::vector<float>(8, 3.0f));
    // AIV 0 doubles a GM row that the AIC publishes by flag; AIV 1 only synchronises. The AIC waits
    // for both AIVs before reading the result back into L1 and out again.
    VectorInstr twice;
    twice.op = VectorOp::Muls;
    twice.dtype = twice.srcType = DataType::Fp32;
    twice.mask = 8;
    twice.scalar = 2.0f;
    const std::vector<Instruction> cube{Instruction::crossCoreSet(0, 2, Pipe::Mte2), Instruction::crossCoreWait(1, 2),
                                        Instruction::move(move(MemSpace::GM, 4096, MemSpace::L1, 0, 32)),
                                        Instruction::move(move(MemSpace::L1, 0, MemSpace::GM, 8192, 32))};
    const std::vector<Instruction> vector0{Instruction::crossCoreWait(0, 2), Instruction::move(move(MemSpace::GM, 0, MemSpace::UB, 0, 32)),
                                           Instruction::vector(twice), Instruction::move(move(MemSpace::UB, 0, MemSpace::GM, 4096, 32)),
                                           Instruction::crossCoreSet(1, 2, Pipe::Mte3)};
    const std::vector<Instruction> vector1{Instruction::crossCoreWait(0, 2), Instruction::crossCoreSet(1, 2, Pipe::Mte3)};
    machine.runKernel(mixTask(2, cube, vector0, vector1));
    EXPECT_EQ(machine.readTensor(8192, DataType::Fp32, 8), std::vector<float>(8, 6.0f));
}

TEST(FunctionalMachine, CrossCoreWaitThatNoCoreSatisfiesIsADeadlock) {
    const auto chip = ascend910B1();
    FunctionalMachine machine(chip, 1 << 20);
    // The AIC needs a set from each of its two AIVs; only AIV 0 sets.
    const auto error = errorOf(machine, mixTask(1, {Instruction::crossCoreWait(1, 2)}, {Instruction::crossCoreSet(1, 2, Pipe::Mte3)}, {}));
    EXPECT_NE(error.find("deadlocked"), std::string::npos) << error;
    EXPECT_NE(error.find("AIC of block 0"), std::string::npos) << error;
}

// Block b of a vector kernel copies its input row to a shared GM row, then (with the mode-0
// SyncAll barrier) reads its right neighbour's shared row: only correct if every block has written
// before any reads. Rows are 8 fp32 (32 B).
KernelTask rotateThroughGm(std::uint32_t blocks, bool barrier) {
    KernelTask task;
    task.type = TaskType::AiVectorCore;
    task.blockDim = blocks;
    task.program = [blocks, barrier](const BlockProgramRequest& r) {
        const std::uint64_t row = 32, in = 0, shared = 4096, out = 8192;
        std::vector<Instruction> p{Instruction::move(move(MemSpace::GM, in + r.blockIdx * row, MemSpace::UB, 0, 32)),
                                   Instruction::move(move(MemSpace::UB, 0, MemSpace::GM, shared + r.blockIdx * row, 32))};
        if (barrier) {
            p.push_back(Instruction::crossCoreSet(3, 0, Pipe::Mte3));
            p.push_back(Instruction::crossCoreWait(3, 0));
        }
        const std::uint64_t neighbour = (r.blockIdx + 1) % blocks;
        p.push_back(Instruction::move(move(MemSpace::GM, shared + neighbour * row, MemSpace::UB, 256, 32)));
        p.push_back(Instruction::move(move(MemSpace::UB, 256, MemSpace::GM, out + r.blockIdx * row, 32)));
        return std::make_unique<FixedInstructionStream>(std::move(p));
    };
    return task;
}

std::vector<float> rowsOf(std::uint32_t blocks, std::uint32_t rotateBy) {
    std::vector<float> values;
    for (std::uint32_t b = 0; b < blocks; ++b) values.insert(values.end(), 8, static_cast<float>((b + rotateBy) % blocks + 1));
    return values;
}

TEST(FunctionalMachine, AllCoresFlagIsABarrierAcrossTheBlocksOfAKernel) {
    const auto chip = ascend910B1();
    for (const bool barrier : {true, false}) {
        FunctionalMachine machine(chip, 1 << 20);
        machine.writeTensor(0, DataType::Fp32, rowsOf(4, 0));
        machine.runKernel(rotateThroughGm(4, barrier));
        const std::vector<float> result = machine.readTensor(8192, DataType::Fp32, 32);
        if (barrier)
            EXPECT_EQ(result, rowsOf(4, 1));
        else  // one block after another: block b reads row b + 1 before block b + 1 wrote it
            EXPECT_NE(result, rowsOf(4, 1));
    }
}

TEST(FunctionalMachine, AllCoresFlagNeedsEveryBlockResident) {
    const auto chip = ascend910B1();
    FunctionalMachine machine(chip, 1 << 20);
    const auto error = errorOf(machine, rotateThroughGm(chip.vectorCoreCount + 1, true));
    EXPECT_NE(error.find("every block must be resident"), std::string::npos) << error;
}

TEST(FunctionalMachine, GroupFlagModesNeedAMixKernel) {
    const auto chip = ascend910B1();
    FunctionalMachine machine(chip, 1 << 20);
    const auto error = errorOf(machine, singleBlock(TaskType::AiVectorCore, {Instruction::crossCoreSet(1, 1, Pipe::Vector)}));
    EXPECT_NE(error.find("not MIX"), std::string::npos) << error;
}

TEST(FunctionalMachine, CoupledChipsHaveNoCrossCoreFlags) {
    const auto chip = test::coupledChip();
    FunctionalMachine machine(chip, 1 << 20);
    const auto error = errorOf(machine, singleBlock(TaskType::AiCore, {Instruction::crossCoreWait(1, 0)}));
    EXPECT_NE(error.find("split (220x) organisation only"), std::string::npos) << error;
}

TEST(FunctionalMachine, HazardCheckingRequiresFlagsBetweenPipesSharingABuffer) {
    const auto chip = ascend910B1();
    FunctionalMachine machine(chip, 1 << 20);
    machine.setHazardChecking(true);
    const auto load = Instruction::move(move(MemSpace::GM, 0, MemSpace::L1, 0, 512));
    const auto toL0 = Instruction::move(move(MemSpace::L1, 0, MemSpace::L0A, 0, 512));
    // MTE1 reading what MTE2 writes, with no flag between them: a read-after-write race.
    const auto race = errorOf(machine, singleBlock(TaskType::AiCore, {load, toL0}));
    EXPECT_NE(race.find("read-after-write hazard on L1"), std::string::npos) << race;
    EXPECT_EQ(errorOf(machine, singleBlock(TaskType::AiCore, {load, Instruction::setFlag(Pipe::Mte2, Pipe::Mte1, 0),
                                                              Instruction::waitFlag(Pipe::Mte2, Pipe::Mte1, 0), toL0})),
              "");
    // Reloading L1 while MTE1 may still read it: a write-after-read race, ordered by a barrier.
    const std::vector<Instruction> reload{load, Instruction::setFlag(Pipe::Mte2, Pipe::Mte1, 0),
                                          Instruction::waitFlag(Pipe::Mte2, Pipe::Mte1, 0), toL0, load};
    EXPECT_NE(errorOf(machine, singleBlock(TaskType::AiCore, reload)).find("write-after-read"), std::string::npos);
    auto ordered = reload;
    ordered.insert(ordered.end() - 1, Instruction::barrier(Pipe::All));
    EXPECT_EQ(errorOf(machine, singleBlock(TaskType::AiCore, ordered)), "");
}

}  // namespace
}  // namespace ascendsim

// The coupled chips' store of a cube output tile through UB (cube_block_output_ub.h), driven
// directly with small hand-made operands: the L0C→UB move keeps the FixPipe move's conversion but
// pads rows to 32 B, the bias is cast when its dtype differs and added with a repeat stride of 0, a
// fused epilogue operand of unpadded rows is multiplied in whole 256 B repeats, and UB→GM writes
// the FixPipe move's GM rows. End-to-end programs on a coupled chip are in
// cube/cube_coupled_test.cpp.
#include "models/kernels/tiling/cube_block_output_ub.h"

#include <gtest/gtest.h>

#include <memory>
#include <variant>
#include <vector>

#include "tests/models/kernels/tiling/cube_block_test_support.h"

namespace ascendsim::test {
namespace {

// Operands of one output tile: `rows` × `columns` fp32 accumulators stored as `outType` at GM
// kOutGm, with an optional bias of `biasType` and an optional fused epilogue operand.
class OutputUbTestOperands final : public CubeOperands {
public:
    static constexpr std::uint64_t kOutGm = 0x10000;
    static constexpr std::uint64_t kBiasGm = 0x20000;
    std::uint32_t rows = 16, columns = 16;
    DataType outType = DataType::Fp16;
    bool bias = false;
    DataType biasType = DataType::Fp16;
    bool epilogue = false;

    std::uint64_t tileCount() const override { return 1; }
    std::uint32_t tileM(std::uint64_t) const override { return rows; }
    std::uint32_t tileN(std::uint64_t) const override { return columns; }
    std::uint32_t chunkCount(std::uint64_t) const override { return 1; }
    void chunk(std::uint64_t, std::uint32_t, std::uint64_t& start, std::uint32_t& length) const override {
        start = 0;
        length = 16;
    }
    void loadChunkA(std::uint64_t, const CubeStep&, std::uint64_t, ProgramBuilder&) const override {}
    void loadChunkB(std::uint64_t, const CubeStep&, std::uint64_t, ProgramBuilder&) const override {}
    void loadStep(std::uint64_t, const CubeStep&, const CubeL1Chunk&, std::uint64_t, std::uint64_t, Mmad&,
                  ProgramBuilder&) const override {}
    bool hasBias() const override { return bias; }
    CubeBiasSlice biasSlice(std::uint64_t) const override { return {kBiasGm, biasType, columns}; }
    bool hasEpilogueOperand() const override { return epilogue; }
    DataMove epilogueOperandLoad(std::uint64_t, std::uint64_t ubAddr) const override {
        DataMove load;
        load.dst = MemSpace::UB;
        load.dstAddr = ubAddr;
        load.burstCount = rows;
        load.burstBytes = columns * static_cast<std::uint32_t>(bytesOf(outType));
        return load;
    }
    DataMove storeMove(std::uint64_t, std::uint64_t l0cAddr) const override {
        DataMove store;
        store.src = MemSpace::L0C;
        store.dst = MemSpace::GM;
        store.srcAddr = l0cAddr;
        store.dstAddr = kOutGm;
        store.burstCount = rows;
        store.burstBytes = columns * 4;  // fp32 accumulators
        store.dstGapBytes = 1000;
        store.srcType = DataType::Fp32;
        store.dstType = outType;
        store.atomicAdd = true;
        return store;
    }
};

// A coupled plan's UB layout for one tile: staging slots from 0, bias slots and a cast slice above.
CubeBufferPlan coupledPlan() {
    CubeBufferPlan plan;
    plan.outputThroughUb = true;
    plan.ubSlotBytes = 0x4000;
    plan.ubBiasAddr = 0x8000;
    plan.ubBiasSlotBytes = 0x400;
    plan.ubBiasCastAddr = 0x8800;
    plan.ubEpilogueAddr = 0xA000;
    plan.ubEpilogueSlotBytes = 0x2000;
    return plan;
}

std::vector<DataMove> outputUbMoves(const std::vector<Instruction>& program) {
    std::vector<DataMove> moves;
    for (const auto& instruction : program)
        if (instruction.opcode == Opcode::DataMove) moves.push_back(std::get<DataMove>(instruction.operands));
    return moves;
}

std::vector<VectorInstr> outputUbVectors(const std::vector<Instruction>& program) {
    std::vector<VectorInstr> vectors;
    for (const auto& instruction : program)
        if (instruction.opcode == Opcode::Vector) vectors.push_back(std::get<VectorInstr>(instruction.operands));
    return vectors;
}

// Stores the one tile the way the block program does: the cube's L0C slot primed, acquired,
// published and consumed before the store, drained with the UB buffers at the end.
std::vector<Instruction> storeOneTile(const std::shared_ptr<OutputUbTestOperands>& ops, const CubeBufferPlan& plan) {
    std::vector<Instruction> program;
    ProgramBuilder b(program);
    CubeBlockOutputUb output(ops, plan);
    PingPongBuffer l0c(0, 0, Pipe::Cube, Pipe::Vector, 0, 1);
    l0c.prime(b);
    output.prime(b);
    if (ops->hasBias()) output.loadBiasToUb(0, b);
    if (output.epilogueOperand()) output.loadEpilogueOperand(0, b);
    l0c.acquire(b);
    l0c.publish(b);
    l0c.consume(b);
    output.storeThroughUb(0, ops->hasBias(), l0c, b);
    l0c.drain(b);
    output.drain(b);
    return program;
}

TEST(CubeBlockOutputUb, APlanWithoutTheUbPathPrimesAndDrainsNothing) {
    auto ops = std::make_shared<OutputUbTestOperands>();
    ops->bias = ops->epilogue = true;
    std::vector<Instruction> program;
    ProgramBuilder b(program);
    CubeBlockOutputUb output(ops, CubeBufferPlan{});
    output.prime(b);
    output.drain(b);
    EXPECT_TRUE(program.empty());
    EXPECT_FALSE(output.epilogueOperand());
}

TEST(CubeBlockOutputUb, RowsArePaddedTo32BytesInUbAndWrittenToTheFixPipeMovesGmRows) {
    auto ops = std::make_shared<OutputUbTestOperands>();
    ops->columns = 20;  // 40 B of fp16 a row: 64 B in UB
    const auto moves = outputUbMoves(storeOneTile(ops, coupledPlan()));
    ASSERT_EQ(moves.size(), 2u);
    const DataMove& toUb = moves[0];
    EXPECT_EQ(toUb.src, MemSpace::L0C);
    EXPECT_EQ(toUb.dst, MemSpace::UB);
    EXPECT_EQ(toUb.burstBytes, 80u);  // the fp32 accumulators, converted on the way
    EXPECT_EQ(toUb.dstGapBytes, 24u);
    EXPECT_EQ(toUb.dstType, DataType::Fp16);
    EXPECT_FALSE(toUb.atomicAdd);
    const DataMove& toGm = moves[1];
    EXPECT_EQ(toGm.src, MemSpace::UB);
    EXPECT_EQ(toGm.dst, MemSpace::GM);
    EXPECT_EQ(toGm.dstAddr, OutputUbTestOperands::kOutGm);
    EXPECT_EQ(toGm.burstCount, 16u);
    EXPECT_EQ(toGm.burstBytes, 40u);
    EXPECT_EQ(toGm.srcGapBytes, 24u);
    EXPECT_EQ(toGm.dstGapBytes, 1000u);
    EXPECT_TRUE(toGm.atomicAdd);
}

TEST(CubeBlockOutputUb, EveryFlagWaitedForIsSetAndThePrimedOnesAreDrained) {
    auto ops = std::make_shared<OutputUbTestOperands>();
    ops->bias = ops->epilogue = true;
    expectCubeBlockFlagsBalanced(storeOneTile(ops, coupledPlan()));
}

TEST(CubeBlockOutputUb, ABiasOfAnotherDtypeIsCastThenAddedToEveryRowWithRepeatStrideZero) {
    auto ops = std::make_shared<OutputUbTestOperands>();
    ops->bias = true;
    ops->biasType = DataType::Fp32;
    const CubeBufferPlan plan = coupledPlan();
    const auto vectors = outputUbVectors(storeOneTile(ops, plan));
    ASSERT_EQ(vectors.size(), 2u);
    EXPECT_EQ(vectors[0].op, VectorOp::Cast);
    EXPECT_EQ(vectors[0].srcType, DataType::Fp32);
    EXPECT_EQ(vectors[0].dst, plan.ubBiasCastAddr);
    EXPECT_EQ(vectors[1].op, VectorOp::Add);
    EXPECT_EQ(vectors[1].src1, plan.ubBiasCastAddr);
    EXPECT_EQ(vectors[1].src1RepeatStride, 0u);
    EXPECT_EQ(vectors[1].repeats, 16u);  // one repeat a row
    EXPECT_EQ(vectors[1].mask, 16u);
}

TEST(CubeBlockOutputUb, AnEpilogueOperandOfUnpaddedRowsIsMultipliedInWholeRepeats) {
    auto ops = std::make_shared<OutputUbTestOperands>();
    ops->epilogue = true;  // 16 rows of 16 fp16: 512 B, two 256 B repeats
    const CubeBufferPlan plan = coupledPlan();
    const auto program = storeOneTile(ops, plan);
    const auto moves = outputUbMoves(program);
    ASSERT_EQ(moves.size(), 3u);
    EXPECT_EQ(moves[0].dstAddr, plan.ubEpilogueAddr);  // the operand's load comes first
    const auto vectors = outputUbVectors(program);
    ASSERT_EQ(vectors.size(), 1u);
    EXPECT_EQ(vectors[0].op, VectorOp::Mul);
    EXPECT_EQ(vectors[0].src1, plan.ubEpilogueAddr);
    EXPECT_EQ(vectors[0].repeats, 2u);
    EXPECT_EQ(vectors[0].mask, 128u);
}

}  // namespace
}  // namespace ascendsim::test

#include "models/isa/instruction.h"

#include <gtest/gtest.h>

namespace ascendsim {
namespace {

TEST(Instruction, DataMoveRunsOnThePipeOfItsPath) {
    EXPECT_EQ(Instruction::move({.src = MemSpace::GM, .dst = MemSpace::L1}).pipe, Pipe::Mte2);
    EXPECT_EQ(Instruction::move({.src = MemSpace::L1, .dst = MemSpace::L0A}).pipe, Pipe::Mte1);
    EXPECT_EQ(Instruction::move({.src = MemSpace::UB, .dst = MemSpace::GM}).pipe, Pipe::Mte3);
    EXPECT_EQ(Instruction::move({.src = MemSpace::L0C, .dst = MemSpace::GM}).pipe, Pipe::FixPipe);
}

TEST(Instruction, WaitFlagExecutesInTheDestinationPipe) {
    const auto wait = Instruction::waitFlag(Pipe::Mte2, Pipe::Vector, 3);
    EXPECT_EQ(wait.pipe, Pipe::Vector);
    EXPECT_EQ(std::get<Flag>(wait.operands).eventId, 3);
    EXPECT_EQ(Instruction::setFlag(Pipe::Mte2, Pipe::Vector, 3).pipe, Pipe::Mte2);
}

TEST(Instruction, VectorClassesFollowTheMeasuredTable) {
    EXPECT_EQ(vectorClassOf(VectorOp::Adds), VectorClass::Unary);
    EXPECT_EQ(vectorClassOf(VectorOp::Add), VectorClass::Binary);
    EXPECT_EQ(vectorClassOf(VectorOp::Exp), VectorClass::Transcendental);
    EXPECT_EQ(vectorClassOf(VectorOp::MulAdd), VectorClass::FusedMultiplyAdd);
    EXPECT_EQ(vectorClassOf(VectorOp::ReduceSum), VectorClass::Reduction);
}

// hardware.md §2.6: vcgadd/vcgmax on fp32 sit in the unary row (1 cycle per repeat), vcgmax on fp16
// in the reduction row (7); vbrcb is unary.
TEST(Instruction, BlockReductionsCostTheUnaryRateOnFp32AndTheReductionRateOn16Bit) {
    for (const VectorOp op : {VectorOp::BlockReduceMax, VectorOp::BlockReduceSum}) {
        EXPECT_TRUE(isBlockReduction(op));
        EXPECT_EQ(vectorCostClassOf({.op = op, .dtype = DataType::Fp32}), VectorClass::Unary) << vectorOpName(op);
        EXPECT_EQ(vectorCostClassOf({.op = op, .dtype = DataType::Fp16}), VectorClass::Reduction) << vectorOpName(op);
    }
    EXPECT_EQ(vectorCostClassOf({.op = VectorOp::BlockBroadcast, .dtype = DataType::Fp32}), VectorClass::Unary);
    EXPECT_EQ(vectorCostClassOf({.op = VectorOp::ReduceMax, .dtype = DataType::Fp32}), VectorClass::Reduction);
    EXPECT_FALSE(isBlockReduction(VectorOp::ReduceMax));
    EXPECT_STREQ(vectorOpName(VectorOp::BlockReduceMax), "vcgmax");
    EXPECT_STREQ(vectorOpName(VectorOp::BlockReduceSum), "vcgadd");
    EXPECT_STREQ(vectorOpName(VectorOp::BlockBroadcast), "vbrcb");
}

// vnchwconv pays its own class (config key vector.classes.transpose).
TEST(Instruction, NchwConvIsTheTransposeClass) {
    EXPECT_EQ(vectorCostClassOf({.op = VectorOp::NchwConv, .dtype = DataType::Fp16}), VectorClass::Transpose);
    EXPECT_STREQ(vectorOpName(VectorOp::NchwConv), "vnchwconv");
}

}  // namespace
}  // namespace ascendsim

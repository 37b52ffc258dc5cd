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

}  // namespace
}  // namespace ascendsim

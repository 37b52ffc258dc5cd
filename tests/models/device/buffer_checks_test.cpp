// Capacity and alignment errors name the instruction, block and address.
#include <gtest/gtest.h>

#include "models/device/device_run.h"

namespace ascendsim::test {
namespace {

std::string errorOf(std::vector<Instruction> program) {
    DeviceRun run;
    run.device->submit(vectorTask(std::move(program), 1, 77), 0);
    try {
        run.device->runUntilIdle();
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "";
}

TEST(BufferChecks, UbOverflow_IsAnErrorNamingInstructionBlockAndAddress) {
    const std::string message = errorOf({Instruction::scalar(5), gmToUb(192 * 1024 - 32, 64)});
    EXPECT_NE(message.find("overflows"), std::string::npos) << message;
    EXPECT_NE(message.find("data_move GM->UB"), std::string::npos) << message;
    EXPECT_NE(message.find("task 77 block 0"), std::string::npos) << message;
    EXPECT_NE(message.find("instruction #1"), std::string::npos) << message;
    EXPECT_NE(message.find("0x2ffe0"), std::string::npos) << message;
}

TEST(BufferChecks, MisalignedUbAddress_IsAnError) {
    const std::string message = errorOf({gmToUb(16, 64)});
    EXPECT_NE(message.find("misaligned"), std::string::npos) << message;
    EXPECT_NE(message.find("UB address 0x10"), std::string::npos) << message;
}

TEST(BufferChecks, VectorOperandPastTheEndOfUb_IsAnError) {
    const std::string message = errorOf({vadd(192 * 1024 - 256, 0, 256, 2)});
    EXPECT_NE(message.find("vadd"), std::string::npos) << message;
    EXPECT_NE(message.find("overflows"), std::string::npos) << message;
}

TEST(BufferChecks, InBoundsAlignedProgram_RunsWithoutError) {
    EXPECT_EQ(errorOf({gmToUb(192 * 1024 - 64, 64), vadd(0, 256, 512, 2)}), "");
}

TEST(BufferChecks, MmadL0aMisalignment_IsAnError) {
    DeviceRun run;
    Mmad mm;
    mm.l0aAddr = 256;  // L0A needs 512 B alignment
    KernelTask t;
    t.type = TaskType::AiCore;
    t.program = sameProgram({Instruction::mmad(mm)});
    run.device->submit(std::move(t), 0);
    EXPECT_THROW(run.device->runUntilIdle(), std::runtime_error);
}

}  // namespace
}  // namespace ascendsim::test

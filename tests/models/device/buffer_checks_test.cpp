// Capacity and alignment errors name the instruction, block and address.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "models/core/buffer_checks.h"
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

// The inline test of a range that passes (BufferChecks::rangeFits, session 27) against the rules
// written out: every memory, core kind, a power-of-two, a unit and a non-power-of-two alignment,
// a memory of capacity 0, ranges at and past the end and ranges whose end wraps past 2^64.
TEST(BufferChecks, InlineRangeTestAgreesWithTheRules) {
    ChipConfig chip = deviceTestChip();
    chip.alignmentBytes[static_cast<std::size_t>(MemSpace::L1)] = 48;
    chip.alignmentBytes[static_cast<std::size_t>(MemSpace::L0A)] = 1;
    chip.bufferBytes[static_cast<std::size_t>(MemSpace::BiasTable)] = 0;
    std::uint64_t state = 27;
    int accepted = 0;
    int rejected = 0;
    for (CoreKind kind : {CoreKind::Cube, CoreKind::Vector, CoreKind::Coupled}) {
        const BufferChecks checks(chip, kind);
        for (int i = 0; i < 20000; ++i) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            const auto space = static_cast<MemSpace>(1 + (state >> 33) % (kMemSpaceCount - 1));
            const std::uint64_t capacity = chip.bufferCapacity(space);
            const std::uint32_t alignment = chip.alignment(space);
            const std::uint64_t unit = alignment > 1 ? alignment : 16;
            std::uint64_t address = ((state >> 20) % (capacity / unit + 4)) * unit + ((state >> 8) % 4 == 0 ? (state >> 40) % 64 : 0);
            if ((state >> 50) % 16 == 0) address = std::numeric_limits<std::uint64_t>::max() - (state >> 52) % 4096;
            const auto bytes = static_cast<std::uint32_t>((state >> 14) % 4 == 0 ? (state >> 44) % 64 : (state >> 36) % (capacity + 2048));
            const bool hasMemory = space == MemSpace::GM || kind == CoreKind::Coupled ||
                                   (kind == CoreKind::Vector ? space == MemSpace::UB : space != MemSpace::UB);
            const bool fits = hasMemory && capacity != 0 && address + bytes >= address && address + bytes <= capacity &&
                              (alignment <= 1 || address % alignment == 0);
            DataMove m;
            m.src = MemSpace::GM;
            m.dst = space;
            m.dstAddr = address;
            m.burstBytes = bytes;
            bool threw = false;
            try {
                checks.check(Instruction::move(m), InstructionSite{});
            } catch (const std::runtime_error&) {
                threw = true;
            }
            ASSERT_EQ(threw, !fits) << "kind " << static_cast<int>(kind) << " space " << memSpaceName(space)
                                    << " address " << address << " bytes " << bytes;
            (fits ? accepted : rejected) += 1;
        }
    }
    EXPECT_GT(accepted, 10000);
    EXPECT_GT(rejected, 10000);
}

}  // namespace
}  // namespace ascendsim::test

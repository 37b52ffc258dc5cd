// `--chip-set key.path=value`: what-if edits of a chip read by the same section readers as the
// files, with errors naming --chip-set and the key path; and a chip given as a file path.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "sim/config/chip_config_loader.h"
#include "sim/config/shipped_configs.h"
#include "support/scratch_dir.h"

namespace ascendsim {
namespace {

namespace fs = std::filesystem;

std::string configDir() { return shippedConfigDir(); }

std::string errorOf(const std::vector<std::string>& overrides) {
    try {
        loadChipByName("Ascend910B1", configDir(), overrides);
    } catch (const ConfigError& e) {
        return e.what();
    }
    return "(no error)";
}

TEST(ChipOverrides, EditsOnlyTheNamedKeys) {
    const ChipConfig shipped = loadChipByName("Ascend910B1", configDir());
    const ChipConfig edited = loadChipByName(
        "Ascend910B1", configDir(),
        {"l2.size_bytes=402653184", "hbm.bandwidth_gbps=3200", "buffers.UB.bytes=262144",
         "ub_banking.banks_per_group=4"});
    EXPECT_EQ(edited.l2.sizeBytes, 402653184u);
    EXPECT_NE(shipped.l2.sizeBytes, edited.l2.sizeBytes);
    EXPECT_DOUBLE_EQ(edited.hbm.bandwidthGBps, 3200.0);
    EXPECT_EQ(edited.bufferBytes[static_cast<std::size_t>(MemSpace::UB)], 262144u);
    EXPECT_EQ(edited.name, shipped.name);
    EXPECT_EQ(edited.l2.ways, shipped.l2.ways);
    EXPECT_EQ(edited.aiCoreCount, shipped.aiCoreCount);
    EXPECT_EQ(edited.hbm.readLatencyCycles, shipped.hbm.readLatencyCycles);
}

TEST(ChipOverrides, LaterAssignmentOfTheSameKeyWins) {
    const ChipConfig edited = loadChipByName("Ascend910B1", configDir(), {"l2.ways=8", "l2.ways=32"});
    EXPECT_EQ(edited.l2.ways, 32u);
}

TEST(ChipOverrides, BadValueIsCheckedLikeAFileValue) {
    const std::string error = errorOf({"l2.ways=-4"});
    EXPECT_NE(error.find("--chip-set: l2.ways: expected a positive integer, got -4"), std::string::npos) << error;
}

// The same-line read turn (docs/fidelity.md §39) and the launch-argument read it queues (§58) are
// the 910B class's: every chip that inherits Ascend910B1 has both; the 910A has its own turn (40
// cycles, §100: its fused BatchMatMul's shared operand) and no launch-argument read; the 310P,
// not fitted, keeps 0 for both. A what-if edits them; bad values are refused by name.
TEST(ChipOverrides, LaunchArgumentReadAndItsLineTurnAreOnForThe910BClassOnly) {
    for (const char* chip : {"Ascend910B1", "Ascend910B2", "Ascend910B3", "Ascend910B4", "Ascend910B4_1650", "Ascend910_9391"}) {
        EXPECT_EQ(loadChipByName(chip, configDir()).l2.sameLineReadCycles, 90u) << chip;
        EXPECT_EQ(loadChipByName(chip, configDir()).blockArgumentReadBytes, 96u) << chip;
    }
    for (const char* chip : {"Ascend910", "Ascend310P3"})
        EXPECT_EQ(loadChipByName(chip, configDir()).blockArgumentReadBytes, 0u) << chip;
    EXPECT_EQ(loadChipByName("Ascend910", configDir()).l2.sameLineReadCycles, 40u);
    EXPECT_EQ(loadChipByName("Ascend310P3", configDir()).l2.sameLineReadCycles, 0u);
    EXPECT_EQ(loadChipByName("Ascend910B1", configDir(), {"l2.same_line_read_cycles=150"}).l2.sameLineReadCycles, 150u);
    EXPECT_EQ(loadChipByName("Ascend910B1", configDir(), {"pipes.block_argument_read_bytes=0"}).blockArgumentReadBytes, 0u);
    EXPECT_NE(errorOf({"l2.same_line_read_cycles=-1"}).find("l2.same_line_read_cycles"), std::string::npos);
    // The partial-line model (§92, §94, §103): which chips keep partial lines and how they are
    // completed; a what-if names none, read or read_or_evict, anything else is refused by name.
    EXPECT_EQ(loadChipByName("Ascend910B2", configDir()).l2.partialLineFill, PartialLineFill::OnReadOrEvict);
    EXPECT_EQ(loadChipByName("Ascend910B4_1650", configDir()).l2.partialLineFill, PartialLineFill::None);
    EXPECT_EQ(loadChipByName("Ascend910", configDir()).l2.partialLineFill, PartialLineFill::None);
    EXPECT_EQ(loadChipByName("Ascend910B1", configDir(), {"l2.partial_line_fill=read_or_evict"}).l2.partialLineFill,
              PartialLineFill::OnReadOrEvict);
    EXPECT_EQ(loadChipByName("Ascend910B2", configDir(), {"l2.partial_line_fill=none"}).l2.partialLineFill, PartialLineFill::None);
    EXPECT_NE(errorOf({"l2.partial_line_fill=1"}).find("l2.partial_line_fill"), std::string::npos);
    const std::string tooLarge = errorOf({"pipes.block_argument_read_bytes=65537"});
    EXPECT_NE(tooLarge.find("pipes.block_argument_read_bytes: expected at most 65536 bytes"), std::string::npos) << tooLarge;
    // 1024 launches' records of one 512 B line each need 512 KiB at the top of GM.
    const std::string noRoom = errorOf({"buffers.GM.bytes=262144"});
    EXPECT_NE(noRoom.find("pipes.block_argument_read_bytes: the launches' argument records (524288 bytes"), std::string::npos)
        << noRoom;
}

// The vector pipe's result latency (docs/fidelity.md §40, on since §43) is the 910B class's: every
// chip that inherits Ascend910B1 has it; the 910A and 310P, whose rows were not fitted, keep 0.
TEST(ChipOverrides, ResultLatencyIsOnForThe910BClassOnly) {
    for (const char* chip : {"Ascend910B1", "Ascend910B2", "Ascend910B3", "Ascend910B4", "Ascend910B4_1650", "Ascend910_9391"})
        EXPECT_EQ(loadChipByName(chip, configDir()).vector.resultLatencyCycles, 40u) << chip;
    for (const char* chip : {"Ascend910", "Ascend310P3"})
        EXPECT_EQ(loadChipByName(chip, configDir()).vector.resultLatencyCycles, 0u) << chip;
    EXPECT_EQ(loadChipByName("Ascend910B1", configDir(), {"vector.result_latency_cycles=0"}).vector.resultLatencyCycles, 0u);
}

// The true-fp32 mmad rate (docs/fidelity.md "Mechanisms" §13, §147) is a chip key like any other:
// the 910B ships 2.125 (a rate, not a whole number), a what-if can set it, 0 is refused and so is a
// rate faster than hf32's one fractal a cycle.
TEST(ChipOverrides, Fp32CyclesPerFractalIsEditableAndAtLeastOne) {
    EXPECT_DOUBLE_EQ(loadChipByName("Ascend910B1", configDir()).cube.fp32CyclesPerFractal, 2.125);
    EXPECT_DOUBLE_EQ(loadChipByName("Ascend910B1", configDir(), {"cube.fp32_cycles_per_fractal=2.5"}).cube.fp32CyclesPerFractal, 2.5);
    const std::string error = errorOf({"cube.fp32_cycles_per_fractal=0"});
    EXPECT_NE(error.find("--chip-set: cube.fp32_cycles_per_fractal: expected a positive number"), std::string::npos) << error;
    const std::string tooFast = errorOf({"cube.fp32_cycles_per_fractal=0.5"});
    EXPECT_NE(tooFast.find("cube.fp32_cycles_per_fractal"), std::string::npos) << tooFast;
}

// hbm.concurrent_capacity_gbps (docs/fidelity.md §114): absent on the 910B chips (0: one stream's
// bandwidth x read_efficiency), set on the 910A; an edit must lie between one stream's rate and the
// nominal one (910B1: 1600 x 0.68 = 1088 .. 1600 GB/s).
TEST(ChipOverrides, ConcurrentHbmCapacityLiesBetweenOneStreamsRateAndTheNominalOne) {
    for (const char* chip : {"Ascend910B1", "Ascend910B2", "Ascend910B4_1650"})
        EXPECT_EQ(loadChipByName(chip, configDir()).hbm.concurrentCapacityGBps, 0.0) << chip;
    EXPECT_DOUBLE_EQ(loadChipByName("Ascend910", configDir()).hbm.concurrentCapacityGBps, 1200.0);
    EXPECT_DOUBLE_EQ(loadChipByName("Ascend910B1", configDir(), {"hbm.concurrent_capacity_gbps=1088"})
                         .hbm.concurrentCapacityGBps,
                     1088.0);
    EXPECT_DOUBLE_EQ(loadChipByName("Ascend910B1", configDir(), {"hbm.concurrent_capacity_gbps=1600"})
                         .hbm.concurrentCapacityGBps,
                     1600.0);
    for (const char* value : {"1000", "1601"}) {
        const std::string error = errorOf({std::string("hbm.concurrent_capacity_gbps=") + value});
        EXPECT_NE(error.find("hbm.concurrent_capacity_gbps: expected 1088 .. 1600 GB/s"), std::string::npos) << error;
    }
    EXPECT_NE(errorOf({"hbm.concurrent_capacity_gbps=0"}).find("expected a positive number"), std::string::npos);
}

TEST(ChipOverrides, UnknownKeyListsTheKnownOnes) {
    const std::string error = errorOf({"l2.wayz=8"});
    EXPECT_NE(error.find("--chip-set: l2.wayz: unknown key"), std::string::npos) << error;
}

TEST(ChipOverrides, AssignmentWithoutEqualsIsRejected) {
    const std::string error = errorOf({"l2.ways"});
    EXPECT_NE(error.find("--chip-set: l2.ways: expected key.path=value"), std::string::npos) << error;
}

TEST(ChipOverrides, ValueOfASectionIsRejected) {
    EXPECT_NE(errorOf({"l2=5"}).find("--chip-set: l2: expected a mapping"), std::string::npos) << errorOf({"l2=5"});
    EXPECT_NE(errorOf({"l2.ways=4", "l2=5"}).find("l2: is a section"), std::string::npos);
    EXPECT_NE(errorOf({"name=X", "name.first=Y"}).find("name: is a value"), std::string::npos);
}

TEST(ChipOverrides, EditThatBreaksConsistencyFailsValidation) {
    // A bigger UB without more banks leaves part of it outside the bank model.
    const std::string error = errorOf({"buffers.UB.bytes=262144"});
    EXPECT_NE(error.find("Ascend910B1.yaml + --chip-set: ub_banking"), std::string::npos) << error;
}

TEST(ChipByPath, WhatIfFileInheritsAShippedChipFromTheConfigFolder) {
    const fs::path dir = testing_scratch::scratchDir("chip_by_path");
    const fs::path file = dir / "big_l2.yaml";
    std::ofstream(file) << "name: Ascend910B1\ninherits: Ascend910B1\nl2:\n  size_bytes: 805306368\n";
    const ChipConfig chip = loadChipByName(file.string(), configDir(), {"hbm.bandwidth_gbps=2000"});
    EXPECT_EQ(chip.l2.sizeBytes, 805306368u);
    EXPECT_DOUBLE_EQ(chip.hbm.bandwidthGBps, 2000.0);
    EXPECT_EQ(chip.aiCoreCount, 24u);
    fs::remove_all(dir);
}

}  // namespace
}  // namespace ascendsim

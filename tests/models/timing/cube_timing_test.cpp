// CubeTiming: fractal counting and the mmad efficiency sweep of hardware.md §2.5 within ±10 %.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "models/timing/transfer_timing.h"
#include "sim/config/chip_config_loader.h"

namespace ascendsim {
namespace {

constexpr double kPeakFlopsPerCycle = 8192.0;  // one 16x16x16 fp16 fractal per cycle

ChipConfig chip910B1() {
    const char* src = std::getenv("ASCENDSIM_SOURCE_DIR");
    return loadChipByName("Ascend910B1",
                          (std::filesystem::path(src ? src : ".") / "configs").string());
}

Mmad mmadOf(std::uint16_t m, std::uint16_t k, std::uint16_t n, DataType dtype = DataType::Fp16) {
    Mmad mmad;
    mmad.m = m;
    mmad.k = k;
    mmad.n = n;
    mmad.dtype = dtype;
    return mmad;
}

TEST(CubeTiming, FractalsRoundEachDimensionUp) {
    const ChipConfig chip = chip910B1();
    const CubeTiming cube(chip);
    EXPECT_EQ(cube.fractals(mmadOf(16, 16, 16)), 1u);
    EXPECT_EQ(cube.fractals(mmadOf(17, 16, 16)), 2u);
    EXPECT_EQ(cube.fractals(mmadOf(32, 16, 976)), 2u * 1u * 61u);
    EXPECT_EQ(cube.fractals(mmadOf(64, 64, 64)), 64u);
}

TEST(CubeTiming, Int8FractalsAreTwiceAsDeep) {
    const ChipConfig chip = chip910B1();
    const CubeTiming cube(chip);
    EXPECT_EQ(cube.fractals(mmadOf(16, 64, 16, DataType::Int8)), 2u);
    EXPECT_EQ(cube.fractals(mmadOf(16, 64, 16, DataType::Fp16)), 4u);
    EXPECT_EQ(cube.fractals(mmadOf(16, 64, 16, DataType::Fp32)), 8u);
}

TEST(CubeTiming, CostsOverheadPlusOneCyclePerFractalAboveTheMinimum) {
    const ChipConfig chip = chip910B1();
    const CubeTiming cube(chip);
    EXPECT_EQ(cube.cycles(mmadOf(16, 16, 16)), chip.cube.mmadMinCycles);
    EXPECT_EQ(cube.cycles(mmadOf(64, 64, 64)), 64u + chip.cube.mmadOverheadCycles);
}

// A true-fp32 fractal (16×8×16) takes fp32_cycles_per_fractal cycles (910B: 2.125, 17 cycles per 8
// fractals, docs/fidelity.md §13 and §147); hf32 runs one per cycle like fp16.
TEST(CubeTiming, TrueFp32RunsAtTheConfiguredFractionalRate) {
    const ChipConfig chip = chip910B1();
    ASSERT_DOUBLE_EQ(chip.cube.fp32CyclesPerFractal, 2.125);
    const CubeTiming cube(chip);
    const std::uint64_t fractals = cube.fractals(mmadOf(32, 64, 256, DataType::Hf32));
    EXPECT_EQ(fractals, 2u * 8u * 16u);
    EXPECT_EQ(cube.cycles(mmadOf(32, 64, 256, DataType::Hf32)), fractals + chip.cube.mmadOverheadCycles);
    EXPECT_EQ(cube.cycles(mmadOf(32, 64, 256, DataType::Fp32)), 17 * fractals / 8 + chip.cube.mmadOverheadCycles);
    EXPECT_EQ(cube.cycles(mmadOf(32, 64, 256, DataType::Fp16)), fractals / 2 + chip.cube.mmadOverheadCycles);
}

// A fractional rate rounds the instruction's fractal cycles up to whole cycles, and a decimal
// rate's binary error (100 × 2.55 = 254.99999…) does not add a cycle.
TEST(CubeTiming, FractionalFp32RateRoundsEachInstructionUpToWholeCycles) {
    ChipConfig chip = chip910B1();
    chip.cube.fp32CyclesPerFractal = 2.25;
    const CubeTiming quarterRate(chip);
    EXPECT_EQ(quarterRate.fractals(mmadOf(16, 24, 16, DataType::Fp32)), 3u);
    EXPECT_EQ(quarterRate.cycles(mmadOf(16, 24, 16, DataType::Fp32)), 7u + chip.cube.mmadOverheadCycles);  // 6.75 -> 7
    chip.cube.fp32CyclesPerFractal = 2.55;
    const CubeTiming decimalRate(chip);
    EXPECT_EQ(decimalRate.fractals(mmadOf(16, 8, 1600, DataType::Fp32)), 100u);
    EXPECT_EQ(decimalRate.cycles(mmadOf(16, 8, 1600, DataType::Fp32)), 255u + chip.cube.mmadOverheadCycles);
}

TEST(CubeTiming, Ascend910B1EfficiencySweepWithinTenPercentOfMeasured) {
    const ChipConfig chip = chip910B1();
    const CubeTiming cube(chip);
    // hardware.md §2.5: 910b1 mmad fp16 -> fp32, m=32, k=16; calPerf = 2mkn / cycles.
    const std::pair<std::uint16_t, double> measured[] = {
        {16, 3370}, {32, 5445}, {64, 6686}, {128, 7258}, {256, 7693}, {976, 8074}};
    for (const auto& [n, calPerf] : measured) {
        const double flops = 2.0 * 32 * 16 * n;
        const double model = flops / static_cast<double>(cube.cycles(mmadOf(32, 16, n)));
        EXPECT_NEAR(model / calPerf, 1.0, 0.10)
            << "n=" << n << ": model " << model / kPeakFlopsPerCycle * 100 << " % vs measured "
            << calPerf / kPeakFlopsPerCycle * 100 << " %";
    }
}

}  // namespace
}  // namespace ascendsim

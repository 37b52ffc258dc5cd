#include "profiler/metrics/task_metrics.h"

#include <gtest/gtest.h>

#include "profiler/writers/csv_table_test_support.h"

namespace ascendsim {
namespace {

using namespace testing_support;

double metricNamed(AicMetrics group, CoreSide side, const std::string& name, const TaskResult& task,
                   const ChipConfig& chip) {
    const SideCounters counters = sideCounters(task, chip, side);
    for (const MetricColumn& column : metricColumns(group, side)) {
        if (column.name == name) return evaluateMetric(column, counters, chip);
    }
    ADD_FAILURE() << "no column " << name;
    return -1.0;
}

TEST(TaskMetrics, CoreTimeIsCyclesOverFrequencyPerBlockTimesWaves) {
    SideCounters side;
    side.counters.totalCycles = 4000000;
    side.blockCount = 20;
    side.freqMhz = 1650.0;
    side.coreCount = 20;
    EXPECT_DOUBLE_EQ(coreTimeUs(side), 4000000.0 / 1650.0 / 20.0);
    side.blockCount = 40;  // two waves on 20 cores
    EXPECT_DOUBLE_EQ(coreTimeUs(side), 4000000.0 / 1650.0 / 40.0 * 2.0);
    side.blockCount = 0;
    EXPECT_DOUBLE_EQ(coreTimeUs(side), 0.0);
}

TEST(TaskMetrics, MacRatioOn910BAicIsMacFpPlusMacIntOverTotalCycles) {
    const ChipConfig chip = splitChip();
    const KernelRecord k = matmulKernel(0, 170400);
    EXPECT_DOUBLE_EQ(metricNamed(AicMetrics::PipeUtilization, CoreSide::Aic, "mac_ratio", k.device, chip),
                     (150000.0 + 6000.0) / 200000.0);
}

TEST(TaskMetrics, RatiosStayInUnitRangeAndPipeTimesWithinCoreTime) {
    const ChipConfig chip = splitChip();
    const RunRecord run = threeKernelRun(chip);
    for (const KernelRecord& k : run.kernels) {
        for (CoreSide side : chipCoreSides(chip)) {
            const SideCounters counters = sideCounters(k.device, chip, side);
            const double coreTime = coreTimeUs(counters);
            for (const MetricColumn& column : metricColumns(AicMetrics::PipeUtilization, side)) {
                const double value = evaluateMetric(column, counters, chip);
                if (column.formula == MetricFormula::Ratio || column.formula == MetricFormula::MissRate) {
                    EXPECT_GE(value, 0.0) << column.name;
                    EXPECT_LE(value, 1.0) << column.name;
                }
                if (column.formula == MetricFormula::PipeTime) {
                    EXPECT_LE(value, coreTime) << column.name;
                }
            }
        }
    }
}

TEST(TaskMetrics, IcacheMissRateIsMissesOverRequestsNotOverCycles) {
    const ChipConfig chip = splitChip();
    const KernelRecord k = addKernel(0, 2060);
    EXPECT_DOUBLE_EQ(
        metricNamed(AicMetrics::PipeUtilization, CoreSide::Aiv, "icache_miss_rate", k.device, chip), 0.2);
}

TEST(TaskMetrics, BandwidthIsBytesPerCountOverCoreCyclesInGiBps) {
    const ChipConfig chip = splitChip();
    const KernelRecord k = addKernel(0, 2060);
    // 4 blocks × 64 counts × 128 B over 8000 cycles at 1650 MHz.
    const double seconds = 8000.0 / 1650e6;
    EXPECT_DOUBLE_EQ(metricNamed(AicMetrics::Memory, CoreSide::Aiv, "ub_read_bw", k.device, chip),
                     4.0 * 64.0 * 128.0 / seconds / 1073741824.0);
}

TEST(TaskMetrics, L2CacheGroupReportsRawCounts) {
    const ChipConfig chip = splitChip();
    const KernelRecord k = addKernel(0, 2060);
    EXPECT_DOUBLE_EQ(metricNamed(AicMetrics::L2Cache, CoreSide::Aiv, "r0_read_cache_hit", k.device, chip), 20.0);
}

TEST(TaskMetrics, MemoryAccessDatasAreKiB) {
    const ChipConfig chip = splitChip();
    TaskResult task;
    PmuCounters c;
    c.totalCycles = 100;
    c[PmuEvent::BytesGmToUb] = 4096;
    addBlocks(task, CoreKind::Vector, 2, c);
    EXPECT_DOUBLE_EQ(metricNamed(AicMetrics::MemoryAccess, CoreSide::Aiv, "GM_to_UB_datas", task, chip), 8.0);
}

TEST(TaskMetrics, CubeFopsCountsOneFractalPerMacCycle) {
    const ChipConfig chip = splitChip();
    TaskResult task;
    PmuCounters c;
    c.totalCycles = 100;
    c[PmuEvent::MacFp16] = 10;
    c[PmuEvent::MacInt8] = 1;
    addBlocks(task, CoreKind::Cube, 1, c);
    EXPECT_DOUBLE_EQ(metricNamed(AicMetrics::ArithmeticUtilization, CoreSide::Aic, "cube_fops", task, chip),
                     10.0 * 16 * 16 * 16 * 2 + 1.0 * 16 * 32 * 16 * 2);
}

TEST(TaskMetrics, MemoryBoundIsMte2RatioOverTheLargerComputeRatio) {
    const ChipConfig chip = coupledChip();
    TaskResult task;
    PmuCounters c;
    c.totalCycles = 1000;
    c[PmuEvent::Mte2Busy] = 901;
    c[PmuEvent::VecBusy] = 70;
    addBlocks(task, CoreKind::Coupled, 1, c);
    EXPECT_NEAR(metricNamed(AicMetrics::PipeUtilization, CoreSide::Coupled, "memory_bound", task, chip),
                12.871, 1e-3);
}

TEST(TaskMetrics, CubeUtilizationUsesChipCoreCountNotBlockDim) {
    const ChipConfig chip = splitChip();
    const KernelRecord k = matmulKernel(0, 170400);
    EXPECT_DOUBLE_EQ(cubeUtilizationPercent(k.device, chip, 170.4), 4000000.0 / (1650.0 * 20) * 100.0 / 170.4);
    EXPECT_DOUBLE_EQ(cubeUtilizationPercent(k.device, chip, 0.0), 0.0);
}

TEST(MetricCatalog, Cann6MemoryL0AddsScalarLoadStoreRatiosFromThePmu) {
    for (CoreSide side : {CoreSide::Aic, CoreSide::Aiv, CoreSide::Coupled}) {
        const auto& current = metricColumns(AicMetrics::MemoryL0, side, MetricEdition::Current);
        const auto& cann6 = metricColumns(AicMetrics::MemoryL0, side, MetricEdition::Cann6);
        ASSERT_EQ(cann6.size(), current.size() + 2);
        EXPECT_EQ(cann6[2].name, "scalar_ld_ratio");
        EXPECT_EQ(cann6[3].name, "scalar_st_ratio");
        for (const MetricColumn& c : current) EXPECT_NE(c.name, "scalar_ld_ratio");
    }
    EXPECT_EQ(&metricColumns(AicMetrics::Memory, CoreSide::Aic, MetricEdition::Cann6),
              &metricColumns(AicMetrics::Memory, CoreSide::Aic));
    SideCounters side;
    side.counters.totalCycles = 8000;
    side.counters[PmuEvent::ScalarLoad] = 600;
    side.counters[PmuEvent::ScalarStore] = 200;
    side.blockCount = 1;
    side.freqMhz = 1000.0;
    side.coreCount = 1;
    const auto& cann6 = metricColumns(AicMetrics::MemoryL0, CoreSide::Coupled, MetricEdition::Cann6);
    EXPECT_DOUBLE_EQ(evaluateMetric(cann6[2], side, splitChip()), 600.0 / 8000.0);
    EXPECT_DOUBLE_EQ(evaluateMetric(cann6[3], side, splitChip()), 200.0 / 8000.0);
    EXPECT_EQ(metricHeaderName(cann6[2], CoreSide::Aic), "aic_scalar_ld_ratio");
}

TEST(MetricCatalog, HeaderNamesFollowMsprofRenaming) {
    const auto& aic = metricColumns(AicMetrics::PipeUtilization, CoreSide::Aic);
    EXPECT_EQ(metricHeaderName(aic[0], CoreSide::Aic), "aicore_time(us)");
    EXPECT_EQ(metricHeaderName(aic[1], CoreSide::Aic), "aic_total_cycles");
    EXPECT_EQ(metricHeaderName(aic[2], CoreSide::Aic), "aic_mac_time(us)");
    const auto& aiv = metricColumns(AicMetrics::PipeUtilization, CoreSide::Aiv);
    EXPECT_EQ(metricHeaderName(aiv[0], CoreSide::Aiv), "aiv_time(us)");
    const auto& coupled = metricColumns(AicMetrics::PipeUtilization, CoreSide::Coupled);
    EXPECT_EQ(metricHeaderName(coupled[1], CoreSide::Coupled), "total_cycles");
    const auto& access = metricColumns(AicMetrics::MemoryAccess, CoreSide::Aiv);
    EXPECT_EQ(metricHeaderName(access[2], CoreSide::Aiv), "aiv_read_main_memory_datas(KB)");
    EXPECT_TRUE(metricColumns(AicMetrics::None, CoreSide::Aic).empty());
}

}  // namespace
}  // namespace ascendsim

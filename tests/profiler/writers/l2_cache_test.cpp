#include "profiler/writers/summary/l2_cache.h"

#include <gtest/gtest.h>

#include "profiler/writers/csv_table_test_support.h"

namespace ascendsim {
namespace {

using namespace testing_support;

ProfilerConfig withL2(FormatVersion version) {
    ProfilerConfig config;
    config.l2Cache = true;
    config.formatVersion = version;
    return config;
}

TEST(L2Cache, HeaderEqualsTheEarly2025SampleAndHitRateIsNaOnSplitChips) {
    const ChipConfig chip = splitChip();
    const CsvTable table = buildL2CacheTable(threeKernelRun(chip), withL2(FormatVersion::Cann80));
    const std::string real = referenceHeader(
        "msinsight/e5a31957/test/data/pytorch/text/level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/l2_cache.csv");
    if (!real.empty()) {
        EXPECT_EQ(joinHeader(table.header), real);
    }
    ASSERT_EQ(table.rows.size(), 3u);
    EXPECT_EQ(table.rows[0], (CsvRow{"2", "34489", "N/A", "0.0", "aclnnAdds_AddAiCore_Add"}));
    EXPECT_EQ(joinHeader(buildL2CacheTable(threeKernelRun(chip), withL2(FormatVersion::Cann83)).header),
              "Device_id,Stream Id,Task Id,Hit Rate,Victim Rate,Op Name");
}

TEST(L2Cache, RatesComeFromTheL2Counters) {
    const ChipConfig chip = coupledChip();
    TaskResult task;
    PmuCounters c;
    c.totalCycles = 100;
    c[PmuEvent::L2R0ReadHit] = 30;
    c[PmuEvent::L2R1ReadHit] = 30;
    c[PmuEvent::L2R0ReadMissAllocate] = 20;
    c[PmuEvent::L2WriteMissAllocate] = 20;
    c[PmuEvent::MainMemWrite] = 64 * 3;  // three 512-byte dirty victims in 8-byte units
    addBlocks(task, CoreKind::Coupled, 1, c);
    const L2CacheRates rates = l2CacheRates(task, chip);
    EXPECT_EQ(rates.accesses, 100u);
    EXPECT_DOUBLE_EQ(rates.hitRate, 0.6);
    EXPECT_DOUBLE_EQ(rates.victimRate, 0.03);

    RunRecord run;
    run.chip = &chip;
    KernelRecord k;
    k.name = "Conv2D1";
    k.device = task;
    run.kernels.push_back(k);
    const CsvTable table = buildL2CacheTable(run, withL2(FormatVersion::Era2024));
    ASSERT_EQ(table.rows.size(), 1u);
    EXPECT_EQ(table.rows[0][2], "0.6");
    EXPECT_EQ(table.rows[0][3], "0.03");
}

TEST(L2Cache, NothingWithoutTheSwitch) {
    const ChipConfig chip = splitChip();
    EXPECT_EQ(renderL2CacheCsv(threeKernelRun(chip), ProfilerConfig{}), "");
}

}  // namespace
}  // namespace ascendsim

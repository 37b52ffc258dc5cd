// --vary parsing and the sweep grid: lists, integer and fractional ranges, clear errors.
#include <gtest/gtest.h>

#include "sim/whatif/vary_axis.h"
#include "sim/workload/workload_error.h"

namespace ascendsim {
namespace {

TEST(VaryAxis, ListsAndRanges) {
    EXPECT_EQ(parseVaryAxis("batch=1,8,32", 0).values, (std::vector<std::string>{"1", "8", "32"}));
    const VaryAxis range = parseVaryAxis("op.layer1.0.conv2.block_dim=1..48:8", 0);
    EXPECT_EQ(range.key, "op.layer1.0.conv2.block_dim");
    EXPECT_EQ(range.values, (std::vector<std::string>{"1", "9", "17", "25", "33", "41"}));
    EXPECT_EQ(parseVaryAxis("x=2..4", 0).values, (std::vector<std::string>{"2", "3", "4"}));
    EXPECT_EQ(parseVaryAxis("chip.hbm.bandwidth_gbps=800..3200:400", 0).values.size(), 7u);
    EXPECT_EQ(parseVaryAxis("chip.l2.x=0.5..1.5:0.5", 0).values, (std::vector<std::string>{"0.5", "1", "1.5"}));
    EXPECT_EQ(parseVaryAxis("chip=Ascend910B1,Ascend910B4", 0).values.size(), 2u);
}

TEST(VaryAxis, BadInputNamesTheArgument) {
    for (const char* bad : {"batch", "=1,2", "batch=1,,2", "batch=4..1", "batch=1..8:0", "batch=a..b", "chip.=1",
                            "batch=1..100000"}) {
        try {
            parseVaryAxis(bad, 2);
            ADD_FAILURE() << bad << " was accepted";
        } catch (const WorkloadError& e) {
            EXPECT_NE(std::string(e.what()).find("--vary"), std::string::npos) << e.what();
            EXPECT_EQ(e.where().column, 3) << bad;
        }
    }
}

TEST(VaryAxis, GridVariesTheLastAxisFastestAndMapsKeysToOptions) {
    const auto grid = expandGrid({parseVaryAxis("batch=1,2", 0), parseVaryAxis("chip.hbm.bandwidth_gbps=800,1600,3200", 1)});
    ASSERT_EQ(grid.size(), 6u);
    EXPECT_EQ(grid[1][0].second, "1");
    EXPECT_EQ(grid[1][1].second, "1600");
    EXPECT_EQ(grid[3][0].second, "2");
    SimulationOptions base;
    base.setOverrides = {"batch=16"};
    const SimulationOptions at = optionsAtPoint(base, {{"batch", "2"}, {"chip", "Ascend910B4"}, {"chip.l2.size_bytes", "1024"}});
    EXPECT_EQ(at.setOverrides, (std::vector<std::string>{"batch=16", "batch=2"}));  // the last --set wins
    EXPECT_EQ(at.chipName, "Ascend910B4");
    EXPECT_EQ(at.chipOverrides, (std::vector<std::string>{"l2.size_bytes=1024"}));
    EXPECT_EQ(blockDimOpOf("op.layer1.0.conv2.block_dim"), "layer1.0.conv2");
    EXPECT_EQ(blockDimOpOf("batch"), "");
}

}  // namespace
}  // namespace ascendsim

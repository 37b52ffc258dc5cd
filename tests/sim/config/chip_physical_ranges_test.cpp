// Chip values the model cannot represent are rejected with the key and the accepted range
// (issue 12: hbm.bandwidth_gbps=1e-12 silently gave the 1600 GB/s timings through a double ->
// uint64 overflow; cores.ai_cores=1000000 died with std::bad_alloc after half a minute).
#include <gtest/gtest.h>

#include <string>

#include "sim/config/chip_config_loader.h"
#include "sim/config/shipped_configs.h"

namespace ascendsim {
namespace {

std::string errorOf(const std::string& edit) {
    try {
        loadChipByName("Ascend910B1", shippedConfigDir(), {edit});
    } catch (const ConfigError& e) {
        return e.what();
    }
    return "(no error)";
}

TEST(ChipPhysicalRanges, OutOfRangeValuesNameTheKeyAndRange) {
    EXPECT_NE(errorOf("hbm.bandwidth_gbps=1e-12").find("hbm.bandwidth_gbps"), std::string::npos);
    EXPECT_NE(errorOf("hbm.bandwidth_gbps=1e-9").find("1 .. 100000 GB/s"), std::string::npos);
    EXPECT_NE(errorOf("cores.ai_cores=1000000").find("cores.ai_cores"), std::string::npos);
    EXPECT_NE(errorOf("clocks.ai_core_mhz=1e9").find("clocks.ai_core_mhz"), std::string::npos);
    EXPECT_NE(errorOf("l2.bandwidth_bytes_per_cycle=1e-30").find("l2.bandwidth_bytes_per_cycle"),
              std::string::npos);
    EXPECT_NE(errorOf("l2.size_bytes=4096").find("one set"), std::string::npos);
    EXPECT_NE(errorOf("hbm.size_bytes=1099511627777").find("hbm.size_bytes"), std::string::npos);
}

// A per-event cost past 10^6 cycles stretched ResNet-50's step to hours of simulated time and its
// 20 ms sampled series to millions of rows (result_latency_cycles=4294967295: minutes, 9.5 GB).
TEST(ChipPhysicalRanges, PerEventCyclesAndLinkLatenciesAreBounded) {
    EXPECT_NE(errorOf("vector.result_latency_cycles=4294967295").find("vector.result_latency_cycles: 4.29497e+09 cycles is outside"),
              std::string::npos)
        << errorOf("vector.result_latency_cycles=4294967295");
    EXPECT_NE(errorOf("pipes.all_core_sync_cycles=1000001").find("0 .. 1e+06 cycles"), std::string::npos);
    EXPECT_NE(errorOf("hbm.read_latency_cycles=2000000").find("hbm.read_latency_cycles"), std::string::npos);
    EXPECT_NE(errorOf("vector.classes.transcendental.cycles_per_repeat=5000000")
                  .find("vector.classes.transcendental.cycles_per_repeat"),
              std::string::npos);
    EXPECT_NE(errorOf("hccl.transfer_latency_us=1e30").find("hccl.transfer_latency_us"), std::string::npos);
    EXPECT_EQ(errorOf("pipes.all_core_sync_cycles=1000000"), "(no error)");
    EXPECT_EQ(errorOf("hccl.switch_latency_us=10000"), "(no error)");
}

TEST(ChipPhysicalRanges, SmallButRealisableValuesPass) {
    EXPECT_EQ(errorOf("l2.size_bytes=16384"), "(no error)");  // 2 sets of 16 ways
    EXPECT_EQ(errorOf("hbm.bandwidth_gbps=1"), "(no error)");
    for (const auto& chip : listChips(shippedConfigDir())) {
        EXPECT_NO_THROW(loadChipByName(chip.name, shippedConfigDir())) << chip.name;
    }
}

}  // namespace
}  // namespace ascendsim

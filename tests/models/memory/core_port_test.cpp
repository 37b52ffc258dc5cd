// A vector core's GM port: the transfers at its UB end (MTE2 GM→UB, MTE3 UB→GM) share one port
// at the UB→GM path's peak rate, hits included; the cube side's transfers and other cores do not
// queue behind them; coupled chips have none.
#include <gtest/gtest.h>

#include "models/memory/shared_memory_system.h"
#include "models/memory/small_memory_chip.h"

namespace ascendsim {
namespace {

constexpr std::uint64_t kLine = 512;
constexpr std::uint64_t kBytes = 16 * kLine;
constexpr double kPortBytesPerCycle = 8.0;             // 1 GHz: 0.008 B/ps
constexpr std::uint64_t kPortPs = 1'024'000;           // kBytes / 0.008 B/ps
constexpr std::uint64_t kHitLatencyPs = 10 * 1000;     // small chip: 10 cycles
constexpr std::uint64_t kStart = 100'000'000;  // ps; the warming write is long done

ChipConfig chipWithPort() {
    ChipConfig chip = testing_support::smallMemoryChip();
    PathTiming store;
    store.src = MemSpace::UB;
    store.dst = MemSpace::GM;
    store.peakBytesPerCycle = kPortBytesPerCycle;
    chip.paths.push_back(store);
    return chip;
}

GmAccess ubSide(std::uint64_t address, bool isWrite, std::uint32_t core) {
    GmAccess access{kStart, core, address, kBytes, isWrite};
    access.ubSide = true;
    return access;
}

// Lines 0..15 in L2 (a cube-side write allocates them without HBM), so the loads below hit.
void warm(SharedMemorySystem& memory, PmuCounters& counters) {
    memory.access(GmAccess{0, 7, 0, kBytes, true}, counters);
}

TEST(CorePort, ALoadAndAStoreOfOneCoreShareItsPort) {
    SharedMemorySystem memory(chipWithPort());
    PmuCounters counters;
    warm(memory, counters);
    // The L2 alone would serve the hit in 8192 / 5 B/ps; the port takes 1024000 ps.
    EXPECT_NEAR(memory.access(ubSide(0, false, 0), counters), kStart + kPortPs + kHitLatencyPs, 1);
    // A store issued at the same time waits for the load's bytes to leave the port.
    EXPECT_NEAR(memory.access(ubSide(1 << 20, true, 0), counters), kStart + 2 * kPortPs + kHitLatencyPs, 1);
}

TEST(CorePort, EachCoreHasItsOwnPort) {
    SharedMemorySystem memory(chipWithPort());
    PmuCounters counters;
    warm(memory, counters);
    EXPECT_NEAR(memory.access(ubSide(0, false, 0), counters), kStart + kPortPs + kHitLatencyPs, 1);
    EXPECT_NEAR(memory.access(ubSide(1 << 20, true, 1), counters), kStart + kPortPs + kHitLatencyPs, 1);
}

TEST(CorePort, CubeSideTransfersDoNotPassIt) {
    SharedMemorySystem memory(chipWithPort());
    PmuCounters counters;
    warm(memory, counters);
    const GmAccess toL1{kStart, 0, 0, kBytes, false};  // GM→L1: ubSide false
    EXPECT_EQ(memory.access(toL1, counters), kStart + (kBytes * 10 + 49) / 50 + kHitLatencyPs);
}

TEST(CorePort, AChipWithoutAUbToGmPathHasNoPort) {
    SharedMemorySystem memory(testing_support::smallMemoryChip());
    PmuCounters counters;
    warm(memory, counters);
    EXPECT_EQ(memory.access(ubSide(0, false, 0), counters), kStart + (kBytes * 10 + 49) / 50 + kHitLatencyPs);
}

TEST(CorePort, CoupledChipsHaveNoPort) {
    ChipConfig chip = chipWithPort();
    chip.organisation = CoreOrganisation::Coupled;
    SharedMemorySystem memory(chip);
    PmuCounters counters;
    warm(memory, counters);
    EXPECT_EQ(memory.access(ubSide(0, false, 0), counters), kStart + (kBytes * 10 + 49) / 50 + kHitLatencyPs);
}

}  // namespace
}  // namespace ascendsim

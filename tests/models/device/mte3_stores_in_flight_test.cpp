// MTE3 keeps its stores to GM in flight on a chip with pipes.mte3_store_issue_cycles (docs/fidelity.md
// §79): a store holds the pipe for its issue cost (or until the memory has taken it), MTE3's SetFlag
// hands the store's UB on once the store is posted, and a store's write is waited for (and counted
// MTE3 busy) only where something waits for it: a barrier or the block's end. One store alone keeps
// its time and busy.
#include <gtest/gtest.h>

#include "models/device/device_run.h"

namespace ascendsim::test {
namespace {

constexpr std::uint64_t kWriteCycles = 300;  // every GM access completes this long after it starts
constexpr std::uint32_t kStoreIssueCycles = 50;
constexpr std::uint32_t kStreamStoreBytes = 512;   // 8 cycles on the test chip's curve and port

// requestCycles: how long the memory takes a store's data (its requests sent; 0: at once).
PmuCounters runStores(const std::vector<Instruction>& program, std::uint32_t issueCycles,
                      std::uint64_t requestCycles = 0) {
    ChipConfig chip = deviceTestChip();
    chip.mte3StoreIssueCycles = issueCycles;
    return runVectorBlockOnTimedMemory(chip, program, kWriteCycles, requestCycles);
}

std::vector<Instruction> computeThenStores(int stores) { return test::computeThenStores(stores, kStreamStoreBytes); }

TEST(Mte3StoresInFlight, OneStoreKeepsItsTimeAndBusy) {
    const PmuCounters held = runStores(computeThenStores(1), 0);
    const PmuCounters inFlight = runStores(computeThenStores(1), kStoreIssueCycles);
    EXPECT_EQ(held[PmuEvent::Mte3Busy], kWriteCycles);
    // Posted after its issue cost; the block's end waits for its write, and MTE3 counts it busy.
    EXPECT_EQ(inFlight[PmuEvent::Mte3Busy], kWriteCycles);
    EXPECT_EQ(inFlight.totalCycles, held.totalCycles);
}

TEST(Mte3StoresInFlight, ConsecutiveStoresOverlapTheirWrites) {
    const PmuCounters held = runStores(computeThenStores(4), 0);
    const PmuCounters inFlight = runStores(computeThenStores(4), kStoreIssueCycles);
    EXPECT_EQ(held[PmuEvent::Mte3Busy], 4 * kWriteCycles);
    // Three postings, then the last store's write to the block's end.
    EXPECT_EQ(inFlight[PmuEvent::Mte3Busy], 3 * kStoreIssueCycles + kWriteCycles);
    EXPECT_EQ(inFlight.totalCycles, held.totalCycles - 3 * (kWriteCycles - kStoreIssueCycles));
}

TEST(Mte3StoresInFlight, TheMte3FlagHandsTheUbOnWhenTheStoreIsPosted) {
    const std::vector<Instruction> p = storeThenOverwriteItsUb(kStreamStoreBytes);
    const PmuCounters held = runStores(p, 0);
    const PmuCounters inFlight = runStores(p, kStoreIssueCycles);
    // The vector pipe waits for the posting, not for the write.
    EXPECT_EQ(inFlight[PmuEvent::WaitFlagVector], held[PmuEvent::WaitFlagVector] - (kWriteCycles - kStoreIssueCycles));
    // The block still ends when the write is done, and MTE3 is busy to it.
    EXPECT_EQ(inFlight[PmuEvent::Mte3Busy], kWriteCycles);
}

TEST(Mte3StoresInFlight, ABarrierOnMte3WaitsForTheWrites) {
    // PIPE_MTE3 barrier between two stores: the second store issues once the first one's write is done.
    const std::vector<Instruction> p = storeBarrierStore(kStreamStoreBytes);
    const PmuCounters held = runStores(p, 0);
    const PmuCounters inFlight = runStores(p, kStoreIssueCycles);
    EXPECT_EQ(inFlight[PmuEvent::Mte3Busy], 2 * kWriteCycles);
    EXPECT_EQ(inFlight.totalCycles, held.totalCycles);
}

TEST(Mte3StoresInFlight, TheNextStoreWaitsUntilTheMemoryHasTakenThePrevious) {
    // The memory takes a store's data in 120 cycles (a write queue without room), longer than the
    // issue cost: that paces them.
    constexpr std::uint64_t kRequestCycles = 120;
    const PmuCounters paced = runStores(computeThenStores(4), kStoreIssueCycles, kRequestCycles);
    EXPECT_EQ(paced[PmuEvent::Mte3Busy], 3 * kRequestCycles + kWriteCycles);
}

TEST(Mte3StoresInFlight, WithoutTheConstantAStoreHoldsMte3ToItsWrite) {
    // Whatever the memory says about taking the data, a store holds MTE3 until its write is done.
    const PmuCounters held = runStores(computeThenStores(4), 0, 0);
    EXPECT_EQ(held[PmuEvent::Mte3Busy], 4 * kWriteCycles);
}

}  // namespace
}  // namespace ascendsim::test

// The PTA caching allocator's rounding, segment sizes, reuse, splitting and merging.
#include <gtest/gtest.h>

#include "sim/host/caching_allocator.h"

namespace ascendsim {
namespace {

constexpr std::uint64_t kMiB = 1ull << 20;

TEST(CachingAllocator, SizesArePaddedBy32BytesAndRoundedTo512) {
    EXPECT_EQ(CachingAllocator::roundSize(1), 512u);
    EXPECT_EQ(CachingAllocator::roundSize(480), 512u);
    EXPECT_EQ(CachingAllocator::roundSize(481), 1024u);
    // 32x3x224x224 fp32 = 19267584 B is recorded as 18816.5 KB in the real operator_memory.csv.
    EXPECT_EQ(CachingAllocator::roundSize(19267584), 19267584u + 512u);
}

TEST(CachingAllocator, SegmentSizeDependsOnTheRequestClass) {
    EXPECT_EQ(CachingAllocator::segmentSize(512), 2 * kMiB);
    EXPECT_EQ(CachingAllocator::segmentSize(kMiB), 2 * kMiB);
    EXPECT_EQ(CachingAllocator::segmentSize(kMiB + 512), 20 * kMiB);
    EXPECT_EQ(CachingAllocator::segmentSize(10 * kMiB - 512), 20 * kMiB);
    EXPECT_EQ(CachingAllocator::segmentSize(10 * kMiB), 10 * kMiB);
    EXPECT_EQ(CachingAllocator::segmentSize(21 * kMiB + 512), 22 * kMiB);
}

TEST(CachingAllocator, SmallRequestsSplitOneTwoMiBSegment) {
    CachingAllocator allocator(0x100000000ull);
    const auto a = allocator.allocate(1000, 0);
    const auto b = allocator.allocate(1000, 0);
    EXPECT_EQ(b.ptr, a.ptr + a.size);
    EXPECT_EQ(allocator.segmentCount(), 1u);
    EXPECT_EQ(allocator.totals().reserved, static_cast<std::int64_t>(2 * kMiB));
    EXPECT_EQ(allocator.totals().allocated, 2 * 1536);
}

TEST(CachingAllocator, AFreedBlockIsReusedAtTheSameAddressOnTheSameStreamOnly) {
    CachingAllocator allocator(0x100000000ull);
    const auto a = allocator.allocate(64 * kMiB, 0);
    allocator.free(a.ptr, false);
    EXPECT_EQ(allocator.totals().allocated, 0);
    const auto other = allocator.allocate(64 * kMiB, 1);
    EXPECT_NE(other.ptr, a.ptr);
    const auto again = allocator.allocate(64 * kMiB, 0);
    EXPECT_EQ(again.ptr, a.ptr);
    EXPECT_EQ(allocator.segmentCount(), 2u);
}

TEST(CachingAllocator, NeighbouringFreeBlocksMergeBackIntoOne) {
    CachingAllocator allocator(0x100000000ull);
    const auto a = allocator.allocate(3 * kMiB, 0);  // splits a 20 MiB segment
    const auto b = allocator.allocate(3 * kMiB, 0);
    EXPECT_EQ(b.ptr, a.ptr + a.size);
    allocator.free(a.ptr, false);
    allocator.free(b.ptr, false);
    const auto whole = allocator.allocate(19 * kMiB, 0);
    EXPECT_EQ(whole.ptr, a.ptr);
    EXPECT_EQ(allocator.segmentCount(), 1u);
}

TEST(CachingAllocator, BlockAwaitingAnotherStreamStaysActiveUntilReleased) {
    CachingAllocator allocator(0x100000000ull);
    const auto a = allocator.allocate(4096, 0);
    allocator.free(a.ptr, true);
    EXPECT_EQ(allocator.totals().allocated, 0);
    EXPECT_EQ(allocator.totals().active, static_cast<std::int64_t>(a.size));
    const auto b = allocator.allocate(4096, 0);
    EXPECT_NE(b.ptr, a.ptr);  // not reusable yet
    allocator.releaseAwaiting(a.ptr);
    EXPECT_EQ(allocator.totals().active, static_cast<std::int64_t>(b.size));
    EXPECT_THROW(allocator.releaseAwaiting(a.ptr), std::logic_error);
    EXPECT_THROW(allocator.free(a.ptr, false), std::logic_error);
}

}  // namespace
}  // namespace ascendsim

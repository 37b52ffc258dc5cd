// TensorLru (l2_tensor_lru.h): the whole-tensor LRU the L2 timeline walks the profile through.
#include <gtest/gtest.h>

#include "sim/replay/run/l2_tensor_lru.h"

namespace ascendsim {
namespace {

const TensorKey kA{"256", "FLOAT", "ND"};
const TensorKey kB{"512", "FLOAT", "ND"};
const TensorKey kC{"128", "FLOAT", "ND"};
constexpr std::uint64_t kLruKiB = 1024;

// A tensor read in is found by another kernel, not by the kernel that touched it (a loop over
// parameters works on the next one) nor when another of the row's tensors claimed it.
TEST(L2TensorLru, FindSkipsTheSameKernelAndClaimedTensors) {
    TensorLru lru(16 * kLruKiB);
    const void* a = lru.add(kA, kLruKiB, "reader", TensorWriter{});
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(lru.find(kA, "other", {}), a);
    EXPECT_EQ(lru.find(kA, "reader", {}), nullptr);
    EXPECT_EQ(lru.find(kA, "other", {a}), nullptr);
    EXPECT_EQ(lru.find(kB, "other", {}), nullptr);
    EXPECT_EQ(lru.findById(kA, lru.idOf(a)), a);
    EXPECT_EQ(lru.bytesHeld(), kLruKiB);
}

// Of two held tensors of one identity, find takes the most recently used.
TEST(L2TensorLru, FindTakesTheNewestOfAnIdentity) {
    TensorLru lru(16 * kLruKiB);
    const void* older = lru.add(kA, kLruKiB, "w1", TensorWriter{0, 0});
    const void* newer = lru.add(kA, kLruKiB, "w2", TensorWriter{1, 0});
    EXPECT_EQ(lru.find(kA, "reader", {}), newer);
    lru.use(kA, older, kLruKiB, "w3", TensorWriter{});
    EXPECT_EQ(lru.find(kA, "reader", {}), older);
    EXPECT_GT(lru.stampOf(older), lru.stampOf(newer));
}

// Past capacity the least recently used tensor leaves, whole: its lines that had to stay are a
// remnant no read finds, and its dirtiness goes with them.
TEST(L2TensorLru, TheLeastRecentlyUsedLeavesWhole) {
    TensorLru lru(4 * kLruKiB);  // each touch its own row: the rows' lines are not interleaved in age
    lru.startRow(0);
    const void* a = lru.add(kA, 2 * kLruKiB, "w", TensorWriter{0, 0});
    lru.startRow(1);
    const void* b = lru.add(kB, 2 * kLruKiB, "r", TensorWriter{});
    const std::uint64_t bId = lru.idOf(b);  // taken while b is held: an evicted tensor's handle dangles
    lru.startRow(2);
    lru.use(kA, a, 2 * kLruKiB, "r2", TensorWriter{});  // a newest: b is the oldest now
    lru.startRow(3);
    lru.add(kC, kLruKiB, "r3", TensorWriter{});
    EXPECT_EQ(lru.findById(kB, bId), nullptr);
    EXPECT_NE(lru.find(kA, "x", {}), nullptr);
    // b's other KiB stays as a clean remnant; a (written) is dirty.
    EXPECT_EQ(lru.bytesHeld(), 4 * kLruKiB);
    EXPECT_DOUBLE_EQ(lru.dirtyBytesOfOldest(kLruKiB, {}), 0.0);
    EXPECT_DOUBLE_EQ(lru.dirtyBytesOfOldest(3 * kLruKiB, {}), 2.0 * kLruKiB);
}

// Dirty first (the eager write-back's bound, docs/fidelity.md §178): the clean tensors are passed
// over, so the oldest dirty bytes count however many clean ones are older.
TEST(L2TensorLru, DirtyFirstCountsTheOldestDirtyBytesPastTheCleanOnes) {
    TensorLru lru(8 * kLruKiB);
    lru.add(kA, 2 * kLruKiB, "r", TensorWriter{});        // clean, oldest
    lru.startRow(1);
    lru.add(kB, 2 * kLruKiB, "w", TensorWriter{1, 0});    // dirty
    lru.startRow(2);
    lru.add(kC, 2 * kLruKiB, "w", TensorWriter{2, 0});    // dirty, newest
    EXPECT_DOUBLE_EQ(lru.dirtyBytesOfOldest(2 * kLruKiB, {}), 0.0);
    EXPECT_DOUBLE_EQ(lru.dirtyBytesOfOldest(2 * kLruKiB, {}, true), 2.0 * kLruKiB);
    EXPECT_DOUBLE_EQ(lru.dirtyBytesOfOldest(8 * kLruKiB, {}, true), 4.0 * kLruKiB);  // all L2 holds dirty
}

// A tensor larger than L2 streams through: nothing before it is held, and what stays is a remnant
// (dirty as far as it was written) that find never returns.
TEST(L2TensorLru, ATensorLargerThanL2FlushesIt) {
    TensorLru lru(4 * kLruKiB);
    lru.add(kA, kLruKiB, "r", TensorWriter{});
    lru.startRow(1);
    const void* remnant = lru.add(kB, 8 * kLruKiB, "w", TensorWriter{1, 0});
    ASSERT_NE(remnant, nullptr);
    EXPECT_EQ(lru.find(kA, "x", {}), nullptr);
    EXPECT_EQ(lru.find(kB, "x", {}), nullptr);
    EXPECT_EQ(lru.bytesHeld(), 4 * kLruKiB);
    EXPECT_DOUBLE_EQ(lru.dirtyBytesOfOldest(4 * kLruKiB, {}), 4.0 * kLruKiB);
}

// A read of another shape of the same bytes (a view) is found under that shape too.
TEST(L2TensorLru, AnAliasFindsTheTensorUnderAnotherShape) {
    TensorLru lru(16 * kLruKiB);
    const void* a = lru.add(kA, kLruKiB, "w", TensorWriter{0, 0});
    const TensorKey view{"16;16", "FLOAT", "ND"};
    EXPECT_EQ(lru.find(view, "r", {}), nullptr);
    lru.addAlias(a, view);
    EXPECT_EQ(lru.find(view, "r", {}), a);
    EXPECT_EQ(lru.keyOf(a), kA);
    EXPECT_EQ(lru.heldOf(view).size(), 1u);
}

// The writer of a held tensor is the last write if no read came after; the written row stays.
TEST(L2TensorLru, AReadClearsTheWriterButNotTheWrittenRow) {
    TensorLru lru(16 * kLruKiB);
    const void* a = lru.add(kA, kLruKiB, "w", TensorWriter{3, 1});
    EXPECT_EQ(lru.writerOf(a).row, 3u);
    EXPECT_EQ(lru.writerOf(a).output, 1u);
    lru.use(kA, a, kLruKiB, "r", TensorWriter{});
    EXPECT_FALSE(lru.writerOf(a).present());
    EXPECT_EQ(lru.writtenRowOf(a), 3u);
    // In-place writes mark a read tensor dirty.
    const void* c = lru.add(kC, kLruKiB, "r", TensorWriter{});
    EXPECT_DOUBLE_EQ(lru.dirtyBytesOfOldest(16 * kLruKiB, {a}), 0.0);
    lru.markWritten(c, kLruKiB);
    EXPECT_DOUBLE_EQ(lru.dirtyBytesOfOldest(16 * kLruKiB, {a}), 1.0 * kLruKiB);
}

}  // namespace
}  // namespace ascendsim

#pragma once
// The PTA (torch_npu) caching allocator, as far as its totals and block addresses show in
// torch.memory_usage: sizes rounded to 512 B, a small pool (<= 1 MiB, packed into 2 MiB
// segments) and a large pool (20 MiB segments for 1-10 MiB requests, 2 MiB-rounded segments
// above), best-fit reuse per stream with block splitting and merging, segments never returned
// (no empty_cache). Constants: torch_npu/csrc/core/npu/NPUCachingAllocator.cpp (kMinBlockSize,
// kSmallSize, kSmallBuffer, kLargeBuffer, kMinLargeAlloc, kRoundLarge, round_size's +32 B pad).
// Pure state: no times, no records (HostMemory records the events).
#include <cstdint>
#include <map>
#include <set>
#include <tuple>

namespace ascendsim {

struct AllocatorTotals {
    std::int64_t allocated = 0;  // bytes in blocks handed out and not yet freed
    std::int64_t reserved = 0;   // bytes in segments obtained from the device
    std::int64_t active = 0;     // allocated + freed blocks still awaiting another stream
};

class CachingAllocator {
public:
    static constexpr std::uint64_t kMinBlockSize = 512;
    static constexpr std::uint64_t kBlockPadBytes = 32;
    static constexpr std::uint64_t kSmallSize = 1ull << 20;
    static constexpr std::uint64_t kSmallBuffer = 2ull << 20;
    static constexpr std::uint64_t kLargeBuffer = 20ull << 20;
    static constexpr std::uint64_t kMinLargeAlloc = 10ull << 20;
    static constexpr std::uint64_t kRoundLarge = 2ull << 20;

    explicit CachingAllocator(std::uint64_t baseAddress);

    static std::uint64_t roundSize(std::uint64_t requestedBytes);
    static std::uint64_t segmentSize(std::uint64_t roundedBytes);

    struct Block {
        std::uint64_t ptr = 0;
        std::uint64_t size = 0;
    };
    // Hands out a block of roundSize(requestedBytes) for `streamId`.
    Block allocate(std::uint64_t requestedBytes, std::uint32_t streamId);
    // The tensor is dropped: its bytes leave `allocated`. Unless `awaitOtherStream`, the block
    // returns to the pool at once (block_free); otherwise it stays active until releaseAwaiting.
    // Returns the block size. Throws std::logic_error for an unknown or already free pointer.
    std::uint64_t free(std::uint64_t ptr, bool awaitOtherStream);
    // The other stream is known to be done with `ptr` (freed with awaitOtherStream).
    std::uint64_t releaseAwaiting(std::uint64_t ptr);

    const AllocatorTotals& totals() const { return totals_; }
    std::size_t segmentCount() const { return segmentCount_; }

private:
    struct BlockState {
        std::uint64_t size = 0;
        std::uint64_t segment = 0;
        std::uint32_t stream = 0;
        bool small = false;
        bool allocated = false;
        bool awaiting = false;
    };
    using FreeKey = std::tuple<std::uint32_t, std::uint64_t, std::uint64_t>;  // stream, size, ptr

    void returnToPool(std::uint64_t ptr);
    std::set<FreeKey>& poolOf(bool small) { return small ? smallFree_ : largeFree_; }

    std::map<std::uint64_t, BlockState> blocks_;  // by address
    std::set<FreeKey> smallFree_, largeFree_;
    std::uint64_t nextSegmentAddress_;
    std::size_t segmentCount_ = 0;
    AllocatorTotals totals_;
};

}  // namespace ascendsim

#pragma once
// Framework-side device memory as torch.memory_usage records it: the PTA caching allocator
// (component 0) for op outputs and the workspace allocator (component 1) for kernel scratch.
// Every event carries the totals after it (formats.md §1.4, §3.6, §3.7).
#include <cstdint>
#include <map>
#include <vector>

#include "profiler/record/run_record.h"
#include "sim/host/caching_allocator.h"

namespace ascendsim {

// Where and when a memory event happens.
struct MemoryEventContext {
    std::uint64_t timeNs = 0;
    std::uint32_t threadId = 0;
    std::int64_t hostOpIndex = -1;
};

class HostMemory {
public:
    // Device addresses (assumed, only their distinctness matters): PTA segments from 0x12c0000000,
    // the workspace allocator's blocks from 0x1f00000000.
    static constexpr std::uint64_t kPtaBaseAddress = 0x12c0000000ull;
    static constexpr std::uint64_t kWorkspaceBaseAddress = 0x1f00000000ull;
    // torch stream pointers as the records print them: the real level1 sample's default stream
    // (897357296) and its spacing to the second stream (904703504).
    static constexpr std::uint64_t kStreamPtrBase = 897357296ull;
    static constexpr std::uint64_t kStreamPtrStride = 7346208ull;

    HostMemory();

    void setRecording(bool on) { recording_ = on; }
    static std::uint64_t streamPtr(std::uint32_t streamId);

    // Allocates an op output; returns its device address.
    std::uint64_t allocateTensor(std::uint64_t bytes, std::uint32_t streamId,
                                 const MemoryEventContext& context);
    // Drops a tensor: block_free (when the block returns to the pool at once) then free, as the
    // allocator reports them. A tensor used on another stream returns at the next synchronize.
    void freeTensor(std::uint64_t ptr, bool usedOnOtherStream, const MemoryEventContext& context);
    // The host learned every stream is idle: blocks awaiting other streams return (block_free).
    void releaseAwaitingBlocks(const MemoryEventContext& context);
    // The workspace allocator (torch_npu NPUWorkspaceAllocator) keeps one block per stream of
    // (bytes + 32) rounded up to 2 MiB. A request that does not fit must first synchronize the
    // device (the old block may be in use), then replaces the block: free old, malloc new.
    bool workspaceNeedsGrowth(std::uint64_t bytes, std::uint32_t streamId) const;
    bool hasWorkspace(std::uint32_t streamId) const { return workspace_.count(streamId) != 0; }
    void growWorkspace(std::uint64_t bytes, std::uint32_t streamId, const MemoryEventContext& context);
    // An op takes the stream's block for its launch (malloc record, allocated += block) and gives
    // it back after the launch (free record). Call growWorkspace first when it needs growth.
    void useWorkspace(std::uint32_t streamId, const MemoryEventContext& context);
    void endWorkspaceUse(std::uint32_t streamId, const MemoryEventContext& context);
    static std::uint64_t workspaceBlockSize(std::uint64_t bytes);

    const AllocatorTotals& ptaTotals() const { return pta_.totals(); }
    const AllocatorTotals& workspaceTotals() const { return workspaceTotals_; }

    std::vector<MemoryEventRecord>& events() { return events_; }

private:
    void record(std::uint64_t ptr, std::int64_t size, std::uint32_t streamId, MemoryComponent component,
                MemoryEventKind kind, const MemoryEventContext& context);

    struct LiveTensor {
        std::uint32_t streamId = 0;
    };
    struct WorkspaceBlock {
        std::uint64_t ptr = 0;
        std::uint64_t size = 0;
    };

    CachingAllocator pta_;
    std::map<std::uint64_t, LiveTensor> live_;
    std::vector<std::pair<std::uint64_t, std::uint32_t>> awaiting_;  // ptr, stream
    std::map<std::uint32_t, WorkspaceBlock> workspace_;
    AllocatorTotals workspaceTotals_;
    std::uint64_t nextWorkspaceAddress_ = kWorkspaceBaseAddress;
    std::vector<MemoryEventRecord> events_;
    bool recording_ = false;
};

}  // namespace ascendsim

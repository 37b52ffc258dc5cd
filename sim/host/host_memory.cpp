#include "sim/host/host_memory.h"

#include <stdexcept>
#include <string>

namespace ascendsim {

HostMemory::HostMemory() : pta_(kPtaBaseAddress) {}

std::uint64_t HostMemory::streamPtr(std::uint32_t streamId) {
    return kStreamPtrBase + kStreamPtrStride * streamId;
}

std::uint64_t HostMemory::allocateTensor(std::uint64_t bytes, std::uint32_t streamId,
                                         const MemoryEventContext& context) {
    const auto block = pta_.allocate(bytes, streamId);
    live_[block.ptr] = LiveTensor{streamId};
    record(block.ptr, static_cast<std::int64_t>(block.size), streamId, MemoryComponent::PtaCaching,
           MemoryEventKind::Malloc, context);
    return block.ptr;
}

void HostMemory::freeTensor(std::uint64_t ptr, bool usedOnOtherStream,
                            const MemoryEventContext& context) {
    auto it = live_.find(ptr);
    if (it == live_.end()) {
        throw std::logic_error("host memory: free of unknown tensor " + std::to_string(ptr));
    }
    const std::uint32_t stream = it->second.streamId;
    live_.erase(it);
    const auto size = static_cast<std::int64_t>(pta_.free(ptr, usedOnOtherStream));
    if (usedOnOtherStream) {
        awaiting_.emplace_back(ptr, stream);
    } else {
        // NPUCachingAllocator::free calls free_block (which reports block_free) before it
        // reports the free itself.
        record(ptr, -size, stream, MemoryComponent::PtaCaching, MemoryEventKind::BlockFree, context);
    }
    record(ptr, -size, stream, MemoryComponent::PtaCaching, MemoryEventKind::Free, context);
}

void HostMemory::releaseAwaitingBlocks(const MemoryEventContext& context) {
    for (const auto& [ptr, stream] : awaiting_) {
        const auto size = static_cast<std::int64_t>(pta_.releaseAwaiting(ptr));
        record(ptr, -size, stream, MemoryComponent::PtaCaching, MemoryEventKind::BlockFree, context);
    }
    awaiting_.clear();
}

std::uint64_t HostMemory::workspaceBlockSize(std::uint64_t bytes) {
    const std::uint64_t padded = bytes + CachingAllocator::kBlockPadBytes;
    return (padded + CachingAllocator::kRoundLarge - 1) / CachingAllocator::kRoundLarge *
           CachingAllocator::kRoundLarge;
}

bool HostMemory::workspaceNeedsGrowth(std::uint64_t bytes, std::uint32_t streamId) const {
    auto it = workspace_.find(streamId);
    const std::uint64_t have = it == workspace_.end() ? 0 : it->second.size;
    return bytes + CachingAllocator::kBlockPadBytes > have;
}

void HostMemory::growWorkspace(std::uint64_t bytes, std::uint32_t streamId, const MemoryEventContext& context) {
    WorkspaceBlock& block = workspace_[streamId];
    if (block.size > 0) {
        const auto old = static_cast<std::int64_t>(block.size);
        workspaceTotals_.reserved -= old;
        record(block.ptr, -old, streamId, MemoryComponent::Workspace, MemoryEventKind::Free, context);
    }
    block.size = workspaceBlockSize(bytes);
    block.ptr = nextWorkspaceAddress_;
    nextWorkspaceAddress_ += block.size;
    workspaceTotals_.reserved += static_cast<std::int64_t>(block.size);
    record(block.ptr, static_cast<std::int64_t>(block.size), streamId, MemoryComponent::Workspace,
           MemoryEventKind::Malloc, context);
}

void HostMemory::useWorkspace(std::uint32_t streamId, const MemoryEventContext& context) {
    const WorkspaceBlock& block = workspace_.at(streamId);
    const auto size = static_cast<std::int64_t>(block.size);
    workspaceTotals_.allocated += size;
    workspaceTotals_.active += size;
    record(block.ptr, size, streamId, MemoryComponent::Workspace, MemoryEventKind::Malloc, context);
}

void HostMemory::endWorkspaceUse(std::uint32_t streamId, const MemoryEventContext& context) {
    const WorkspaceBlock& block = workspace_.at(streamId);
    const auto size = static_cast<std::int64_t>(block.size);
    workspaceTotals_.allocated -= size;
    workspaceTotals_.active -= size;
    record(block.ptr, -size, streamId, MemoryComponent::Workspace, MemoryEventKind::Free, context);
}

void HostMemory::record(std::uint64_t ptr, std::int64_t size, std::uint32_t streamId,
                        MemoryComponent component, MemoryEventKind kind,
                        const MemoryEventContext& context) {
    if (!recording_) return;
    const AllocatorTotals& totals =
        component == MemoryComponent::Workspace ? workspaceTotals_ : pta_.totals();
    MemoryEventRecord event;
    event.ptr = ptr;
    event.timeNs = context.timeNs;
    event.allocSize = size;
    event.totalAllocated = totals.allocated;
    event.totalReserved = totals.reserved;
    event.totalActive = totals.active;
    event.streamPtr = streamPtr(streamId);
    event.component = component;
    event.kind = kind;
    event.threadId = context.threadId;
    event.hostOpIndex = context.hostOpIndex;
    events_.push_back(event);
}

}  // namespace ascendsim

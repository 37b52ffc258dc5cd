#include "sim/engine/device/device_address_planner.h"

#include <map>
#include <stdexcept>
#include <vector>

namespace ascendsim {

namespace {

std::uint64_t alignUp(std::uint64_t bytes, std::uint64_t alignment) {
    return (bytes + alignment - 1) / alignment * alignment;
}

bool isPersistent(TensorKind kind) {
    return kind == TensorKind::Input || kind == TensorKind::Weight || kind == TensorKind::State;
}

// First-fit allocator over [0, end): free ranges keyed by offset, merged on release.
class FirstFitArena {
public:
    std::uint64_t allocate(std::uint64_t bytes) {
        for (auto it = free_.begin(); it != free_.end(); ++it) {
            if (it->second < bytes) continue;
            const std::uint64_t offset = it->first;
            const std::uint64_t remaining = it->second - bytes;
            free_.erase(it);
            if (remaining > 0) free_.emplace(offset + bytes, remaining);
            return offset;
        }
        const std::uint64_t offset = end_;
        end_ += bytes;
        return offset;
    }

    void release(std::uint64_t offset, std::uint64_t bytes) {
        auto [it, inserted] = free_.emplace(offset, bytes);
        if (!inserted) throw std::logic_error("double release in address planner");
        auto next = std::next(it);
        if (next != free_.end() && it->first + it->second == next->first) {
            it->second += next->second;
            free_.erase(next);
        }
        if (it != free_.begin()) {
            auto prev = std::prev(it);
            if (prev->first + prev->second == it->first) {
                prev->second += it->second;
                free_.erase(it);
            }
        }
    }

    std::uint64_t end() const { return end_; }

private:
    std::map<std::uint64_t, std::uint64_t> free_;
    std::uint64_t end_ = 0;
};

}  // namespace

DeviceAddressPlanner::DeviceAddressPlanner(const Workload& workload) {
    std::unordered_map<std::string, const WorkloadTensor*> byName;
    for (const auto& t : workload.tensors) byName.emplace(t.info.name, &t);

    std::unordered_map<std::string, bool> produced;
    for (const auto& op : workload.ops)
        for (const auto& out : op.outputs) produced[out] = true;

    // Persistent tensors first, in declaration order; a tensor no op produces is persistent too
    // (it must exist before the step starts).
    std::uint64_t persistentEnd = 0;
    for (const auto& t : workload.tensors) {
        if (!t.viewOf.empty()) continue;
        if (!isPersistent(t.kind) && produced.count(t.info.name)) continue;
        addresses_[t.info.name] = kBaseAddress + persistentEnd;
        persistentEnd += alignUp(t.info.bytes(), kAlignmentBytes);
    }

    // Last use of every transient tensor (views count as uses of their base).
    auto baseOf = [&](const std::string& name) {
        std::string current = name;
        std::size_t hops = 0;  // validateWorkload rejects cycles; this keeps a missed one finite
        for (auto it = byName.find(current); it != byName.end() && !it->second->viewOf.empty();
             it = byName.find(current)) {
            if (++hops > byName.size())
                throw std::invalid_argument("tensor '" + name + "' is a view of itself");
            current = it->second->viewOf;
        }
        return current;
    };
    std::unordered_map<std::string, std::size_t> lastUse;
    for (std::size_t i = 0; i < workload.ops.size(); ++i) {
        for (const auto& in : workload.ops[i].inputs) lastUse[baseOf(in)] = i;
        for (const auto& out : workload.ops[i].outputs) lastUse.try_emplace(baseOf(out), i);
    }

    FirstFitArena arena;
    const std::uint64_t transientBase = kBaseAddress + alignUp(persistentEnd, 1 << 21);
    std::vector<std::vector<std::string>> releaseAfter(workload.ops.size());
    std::unordered_map<std::string, std::uint64_t> transientOffset;
    for (std::size_t i = 0; i < workload.ops.size(); ++i) {
        for (const auto& out : workload.ops[i].outputs) {
            const std::string base = baseOf(out);
            if (addresses_.count(base)) continue;
            const auto it = byName.find(base);
            if (it == byName.end()) continue;
            const std::uint64_t bytes = alignUp(it->second->info.bytes(), kAlignmentBytes);
            const std::uint64_t offset = arena.allocate(bytes);
            transientOffset[base] = offset;
            addresses_[base] = transientBase + offset;
            releaseAfter[lastUse[base]].push_back(base);
        }
        for (const auto& name : releaseAfter[i]) {
            arena.release(transientOffset[name],
                          alignUp(byName.at(name)->info.bytes(), kAlignmentBytes));
        }
    }
    peakBytes_ = (transientBase - kBaseAddress) + arena.end();

    // Views share their base tensor's address.
    for (const auto& t : workload.tensors) {
        if (t.viewOf.empty()) continue;
        const auto it = addresses_.find(baseOf(t.info.name));
        if (it != addresses_.end()) addresses_[t.info.name] = it->second;
    }
}

std::uint64_t DeviceAddressPlanner::addressOf(const std::string& tensorName) const {
    const auto it = addresses_.find(tensorName);
    if (it == addresses_.end()) throw std::out_of_range("no device address for tensor '" + tensorName + "'");
    return it->second;
}

}  // namespace ascendsim

// Liveness pass over the op order: how much device memory one step needs at its peak.
#include <map>

#include "sim/workload/tensor_text.h"
#include "sim/workload/workload_graph.h"

namespace ascendsim {

namespace {

bool livesAllRun(TensorKind k) {
    return k == TensorKind::Input || k == TensorKind::Weight || k == TensorKind::State;
}

}  // namespace

DeviceMemoryEstimate estimateDeviceMemory(const Workload& workload) {
    std::map<std::string, const WorkloadTensor*> byName;
    for (const auto& t : workload.tensors) byName[t.info.name] = &t;
    auto baseOf = [&byName](std::string name) {
        for (int hops = 0; hops < 64; ++hops) {
            auto it = byName.find(name);
            if (it == byName.end() || it->second->viewOf.empty()) break;
            name = it->second->viewOf;
        }
        return name;
    };
    // Lifetime [first, last] op index of each transient base tensor.
    std::map<std::string, std::pair<std::size_t, std::size_t>> lifetime;
    for (std::size_t i = 0; i < workload.ops.size(); ++i) {
        const WorkloadOp& op = workload.ops[i];
        for (const auto& out : op.outputs) {
            std::string base = baseOf(out);
            if (!lifetime.count(base)) lifetime[base] = {i, i};
        }
        for (const auto& in : op.inputs) {
            auto it = lifetime.find(baseOf(in));
            if (it != lifetime.end()) it->second.second = i;
        }
    }
    DeviceMemoryEstimate estimate;
    std::vector<std::int64_t> delta(workload.ops.size() + 1, 0);
    for (const auto& t : workload.tensors) {
        if (!t.viewOf.empty()) continue;
        auto bytes = static_cast<std::int64_t>(byteSizeOf(t.info));
        if (livesAllRun(t.kind)) {
            estimate.persistentBytes += static_cast<std::uint64_t>(bytes);
            continue;
        }
        auto it = lifetime.find(t.info.name);
        if (it == lifetime.end()) continue;  // declared but unused
        delta[it->second.first] += bytes;
        delta[it->second.second + 1] -= bytes;
    }
    std::int64_t live = 0;
    for (std::size_t i = 0; i < workload.ops.size(); ++i) {
        live += delta[i];
        if (static_cast<std::uint64_t>(live) > estimate.peakTransientBytes) {
            estimate.peakTransientBytes = static_cast<std::uint64_t>(live);
            estimate.peakOpIndex = i;
        }
    }
    return estimate;
}

}  // namespace ascendsim

#include "models/kernels/kernel_registry.h"

#include <algorithm>

namespace ascendsim {

KernelRegistry& KernelRegistry::instance() {
    static KernelRegistry registry;
    return registry;
}

bool KernelRegistry::add(const std::string& opType, LoweringFunction lowering) {
    entries_.emplace_back(opType, std::move(lowering));
    return true;
}

const LoweringFunction* KernelRegistry::find(const std::string& opType) const {
    for (const auto& [type, fn] : entries_)
        if (type == opType) return &fn;
    return nullptr;
}

std::vector<std::string> KernelRegistry::opTypes() const {
    std::vector<std::string> types;
    for (const auto& entry : entries_) types.push_back(entry.first);
    std::sort(types.begin(), types.end());
    return types;
}

std::vector<LoweredKernel> KernelRegistry::lower(const OpInstance& op, const ChipConfig& chip) const {
    const LoweringFunction* fn = find(op.type);
    if (!fn) throw LoweringError("op '" + op.name + "': no kernel model for op type '" + op.type + "'");
    return (*fn)(op, chip);
}

}  // namespace ascendsim

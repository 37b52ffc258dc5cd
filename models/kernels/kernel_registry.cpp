#include "models/kernels/kernel_registry.h"

#include <algorithm>

namespace ascendsim {

std::uint64_t codeImageOf(const OpInstance& op, const LoweredKernel& kernel) {
    std::string key = reportedOpTypeOf(kernel, op.type) + '|' + kernel.kernelSuffix + '|' +
                      std::string(taskTypeName(kernel.type));
    const bool withFormats = binaryFixesFormats(op.type);
    for (const auto* tensors : {&op.inputs, &op.outputs}) {
        key += '|';
        for (const TensorInfo& t : *tensors) {
            key += std::string(dataTypeName(t.dtype)) + ',';
            if (!withFormats) continue;
            key += std::string(tensorFormatName(t.format)) + ',';
            // The 5HD sub-format: fp32 with C0 = 16 is a binary of its own ("NC1HWC0:1" in
            // kernel_details, the TransDataSpecial kernels) beside the C0 = 8 one.
            if (t.format == TensorFormat::NC1HWC0 && !t.shape.empty()) key += std::to_string(t.shape.back()) + ',';
        }
    }
    return codeImageOfKey(key);
}

bool binaryFixesFormats(std::string_view opType) { return opType == "TransData"; }

std::uint64_t codeImageOfKey(std::string_view key) {
    std::uint64_t hash = 14695981039346656037ULL;  // FNV-1a: stable across runs and builds
    for (const char c : key) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
    return hash == 0 ? 1 : hash;
}

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

#include "sim/workload/workload_limits.h"

#include <cstdio>
#include <map>
#include <set>

#include "sim/workload/workload.h"

namespace ascendsim {

namespace {
// Sum of every tensor's bytes stays below this, so the device-memory estimate's signed sums
// (memory_estimate.cpp) cannot overflow.
constexpr std::uint64_t kMaxTotalTensorBytes = std::uint64_t{1} << 62;
}  // namespace

std::optional<std::uint64_t> checkedByteSize(const std::vector<std::int64_t>& shape,
                                             DataType dtype) {
    std::uint64_t bytes = bytesOf(dtype);
    for (auto d : shape) {
        if (d < 0 || __builtin_mul_overflow(bytes, static_cast<std::uint64_t>(d), &bytes))
            return std::nullopt;
    }
    if (bytes > static_cast<std::uint64_t>(INT64_MAX)) return std::nullopt;
    return bytes;
}

std::string byteText(std::uint64_t bytes) {
    constexpr double kMiB = 1024.0 * 1024.0;
    constexpr double kTiB = kMiB * kMiB;
    char text[48];
    if (bytes >= (1ULL << 40))
        std::snprintf(text, sizeof text, "%.2f TiB", static_cast<double>(bytes) / kTiB);
    else if (bytes >= (1ULL << 30))
        std::snprintf(text, sizeof text, "%.2f GiB", static_cast<double>(bytes) / (kMiB * 1024.0));
    else if (bytes >= (1ULL << 20))
        std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / kMiB);
    else
        std::snprintf(text, sizeof text, "%llu bytes", static_cast<unsigned long long>(bytes));
    return text;
}

void checkViewChains(const Workload& workload) {
    std::map<std::string, const WorkloadTensor*> byName;
    for (const auto& t : workload.tensors) byName.emplace(t.info.name, &t);
    std::set<std::string> acyclic;  // tensors whose chain is known to end
    for (const auto& t : workload.tensors) {
        std::vector<std::string> chain;
        std::set<std::string> onChain;
        for (const WorkloadTensor* cur = &t; cur && !cur->viewOf.empty();) {
            if (acyclic.count(cur->info.name)) break;
            if (!onChain.insert(cur->info.name).second) {
                std::string path;
                for (const auto& name : chain) path += "'" + name + "' -> ";
                throw WorkloadError(cur->location, cur->fieldPath + ".view_of",
                                    "views form a cycle: " + path + "'" + cur->info.name + "'");
            }
            chain.push_back(cur->info.name);
            auto next = byName.find(cur->viewOf);
            cur = next == byName.end() ? nullptr : next->second;
        }
        acyclic.insert(chain.begin(), chain.end());
    }
}

void checkWorkloadLimits(const Workload& workload) {
    std::uint64_t total = 0;
    for (const auto& t : workload.tensors) {
        auto bytes = checkedByteSize(t.info.shape, t.info.dtype);
        if (!bytes || *bytes > kMaxTensorBytes) {
            throw WorkloadError(t.location, t.fieldPath + ".shape",
                                "tensor '" + t.info.name + "' would need " +
                                    (bytes ? byteText(*bytes) : "more than 2^63 bytes") +
                                    ", more than the " + byteText(kMaxTensorBytes) +
                                    " any tensor may have");
        }
        if (!t.viewOf.empty()) continue;
        total += *bytes;
        if (total > kMaxTotalTensorBytes) {
            throw WorkloadError(t.location, t.fieldPath + ".shape",
                                "the tensors up to '" + t.info.name + "' would need " +
                                    byteText(total) + " together, more than " +
                                    byteText(kMaxTotalTensorBytes));
        }
    }
    checkViewChains(workload);
}

}  // namespace ascendsim

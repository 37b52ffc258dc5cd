#include "sim/workload/workload.h"

#include <array>

#include "sim/workload/expression.h"
#include "sim/workload/workload_graph.h"
#include "sim/workload/workload_limits.h"

namespace ascendsim {

namespace {
constexpr std::array<std::string_view, 5> kKindNames = {"input", "weight", "activation", "gradient",
                                                        "state"};
constexpr std::array<std::string_view, 3> kPhaseNames = {"forward", "backward", "optimizer"};
}  // namespace

std::string_view tensorKindName(TensorKind k) {
    return kKindNames[static_cast<std::size_t>(k)];
}

bool parseTensorKind(std::string_view text, TensorKind& out) {
    for (std::size_t i = 0; i < kKindNames.size(); ++i) {
        if (kKindNames[i] == text) return out = static_cast<TensorKind>(i), true;
    }
    return false;
}

std::string_view opPhaseName(OpPhase p) {
    return kPhaseNames[static_cast<std::size_t>(p)];
}

bool parseOpPhase(std::string_view text, OpPhase& out) {
    for (std::size_t i = 0; i < kPhaseNames.size(); ++i) {
        if (kPhaseNames[i] == text) return out = static_cast<OpPhase>(i), true;
    }
    return false;
}

SourceLocation WorkloadOp::locationOf(const std::string& field) const {
    auto it = fieldLocations.find(field);
    return it == fieldLocations.end() ? location : it->second;
}

const WorkloadTensor* Workload::findTensor(const std::string& tensorName) const {
    for (const auto& t : tensors) {
        if (t.info.name == tensorName) return &t;
    }
    return nullptr;
}

const WorkloadOp* Workload::findOp(const std::string& opName) const {
    for (const auto& op : ops) {
        if (op.name == opName) return &op;
    }
    return nullptr;
}

std::int64_t Workload::intParameter(const std::string& parameter) const {
    auto it = parameters.find(parameter);
    if (it == parameters.end())
        throw std::out_of_range("workload has no parameter '" + parameter + "'");
    auto value = tryEvaluateInteger(it->second, {});
    if (!value)
        throw std::invalid_argument("parameter '" + parameter +
                                    "' is not an integer: " + it->second);
    return *value;
}

void validateWorkload(const Workload& workload, std::uint64_t deviceMemoryBytes) {
    checkWorkloadLimits(workload);
    Workload copy = workload;
    checkWorkloadGraph(copy, false);
    DeviceMemoryEstimate memory = estimateDeviceMemory(workload);
    if (memory.totalBytes() <= deviceMemoryBytes) return;
    SourceLocation where = workload.location;
    std::string field = "tensors";
    std::string atOp;
    if (!workload.ops.empty()) {
        const WorkloadOp& peak = workload.ops[memory.peakOpIndex];
        where = peak.location;
        field = peak.fieldPath;
        atOp = " while op '" + peak.name + "' runs";
    }
    throw WorkloadError(
        where, field,
        "device memory exceeded: inputs, weights and state " + byteText(memory.persistentBytes) +
            " + live activations and gradients " + byteText(memory.peakTransientBytes) + atOp +
            " = " + byteText(memory.totalBytes()) + " > device memory " +
            byteText(deviceMemoryBytes));
}

std::uint32_t Workload::groupSize(const std::string& group) const {
    if (group == "world") return ranks;
    return static_cast<std::uint32_t>(groupMembers(parallel, group, 0).size());
}

OpInstance makeOpInstance(const Workload& workload, const WorkloadOp& op) {
    OpInstance instance;
    instance.name = op.name;
    instance.type = op.type;
    instance.attrs = op.attrs;
    instance.blockDim = op.blockDim;
    auto resolve = [&workload](const std::string& name) {
        const WorkloadTensor* t = workload.findTensor(name);
        if (!t) throw std::out_of_range("op refers to unknown tensor '" + name + "'");
        return t->info;
    };
    for (const auto& in : op.inputs) instance.inputs.push_back(resolve(in));
    for (const auto& out : op.outputs) instance.outputs.push_back(resolve(out));
    return instance;
}

}  // namespace ascendsim

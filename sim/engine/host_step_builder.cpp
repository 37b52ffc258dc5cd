#include "sim/engine/host_step_builder.h"

#include <algorithm>
#include <unordered_map>

namespace ascendsim {

namespace {



std::string joinShapes(const std::vector<TensorInfo>& tensors) {
    std::string dims;
    for (std::size_t i = 0; i < tensors.size(); ++i) {
        if (i) dims += ';';
        for (std::size_t d = 0; d < tensors[i].shape.size(); ++d) {
            if (d) dims += ',';
            dims += std::to_string(tensors[i].shape[d]);
        }
    }
    return dims;
}

std::string joinTypes(const std::vector<TensorInfo>& tensors) {
    std::string types;
    for (std::size_t i = 0; i < tensors.size(); ++i) {
        if (i) types += ';';
        types += torchDtypeName(tensors[i].dtype);
    }
    return types;
}

bool suffixMatches(const std::vector<std::string>& path, std::size_t end,
                   const std::vector<std::string>& pattern) {
    if (pattern.size() > end) return false;
    for (std::size_t k = 0; k < pattern.size(); ++k) {
        const std::string& want = pattern[pattern.size() - 1 - k];
        if (want != "*" && want != path[end - 1 - k]) return false;
    }
    return true;
}

std::vector<std::string> splitSlash(const std::string& text) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t slash = std::min(text.find('/', start), text.size());
        parts.push_back(text.substr(start, slash - start));
        start = slash + 1;
    }
    return parts;
}

// The tensor whose bytes a name names: a view's base, followed through views of views. Built once
// per workload (Workload::findTensor scans every tensor: per op input that would be quadratic).
class ViewBases {
public:
    explicit ViewBases(const Workload& workload) : hopLimit_(workload.tensors.size()) {
        for (const WorkloadTensor& t : workload.tensors)
            if (!t.viewOf.empty()) viewOf_.emplace(t.info.name, &t.viewOf);
    }
    const std::string& baseOf(const std::string& name) const {
        const std::string* base = &name;
        // A view chain is acyclic (validateWorkload); the bound only guards a malformed graph.
        for (std::size_t hops = 0; hops <= hopLimit_; ++hops) {
            const auto view = viewOf_.find(*base);
            if (view == viewOf_.end()) return *base;
            base = view->second;
        }
        return *base;
    }

private:
    std::unordered_map<std::string, const std::string*> viewOf_;
    std::size_t hopLimit_;
};

}  // namespace

std::vector<std::int32_t> collectiveResultFirstUses(const Workload& workload, const LoweredWorkload& lowered) {
    const auto& ops = lowered.ops();
    std::vector<std::int32_t> firstUse(ops.size(), -1);
    if (std::none_of(ops.begin(), ops.end(), [](const auto& op) { return op.collective.has_value(); })) return firstUse;
    const ViewBases views(workload);
    std::unordered_map<std::string, std::size_t> pendingByBase;  // a collective's result, unread yet
    for (std::size_t i = 0; i < ops.size(); ++i) {
        const WorkloadOp& op = *ops[i].source;
        for (const std::string& in : op.inputs) {
            const auto pending = pendingByBase.find(views.baseOf(in));
            if (pending == pendingByBase.end()) continue;
            firstUse[pending->second] = static_cast<std::int32_t>(i);
            pendingByBase.erase(pending);
        }
        if (!ops[i].collective) continue;
        for (const std::string& out : op.outputs) pendingByBase[views.baseOf(out)] = i;
    }
    return firstUse;
}

std::vector<std::string> moduleClassesOf(const std::vector<std::string>& modulePath,
                                         const std::map<std::string, std::string>& classes) {
    std::vector<std::string> result;
    for (std::size_t end = 1; end <= modulePath.size(); ++end) {
        std::string cls = modulePath[end - 1];
        std::size_t best = 0;
        for (const auto& [suffix, name] : classes) {
            const std::vector<std::string> pattern = splitSlash(suffix);
            if (pattern.size() > best && suffixMatches(modulePath, end, pattern)) {
                best = pattern.size();
                cls = name;
            }
        }
        // Containers without forward are iterated, never called: no nn.Module event.
        if (cls == "ModuleList" || cls == "ModuleDict") cls.clear();
        result.push_back(cls);
    }
    return result;
}

std::string torchDtypeName(DataType dtype) {
    switch (dtype) {
        case DataType::Fp16: return "c10::Half";
        case DataType::Bf16: return "c10::BFloat16";
        case DataType::Fp32:
        case DataType::Hf32: return "float";
        case DataType::Int8: return "signed char";
        case DataType::Uint8: return "unsigned char";
        case DataType::Int16: return "short int";
        case DataType::Int32: return "int";
        case DataType::Int64: return "long int";
        case DataType::Bool: return "bool";
    }
    return "float";
}

HostStepBuilder::HostStepBuilder(const Workload& workload, const LoweredWorkload& lowered) {
    const auto& ops = lowered.ops();
    std::unordered_map<std::string, std::int32_t> opIndexByName;
    bool anyBackward = false;
    for (std::size_t i = 0; i < ops.size(); ++i) {
        opIndexByName[ops[i].source->name] = static_cast<std::int32_t>(i);
        anyBackward |= ops[i].source->framework.phase == OpPhase::Backward;
    }

    // Where each collective's result is first read: views read their base tensor's bytes.
    const std::vector<std::int32_t> resultFirstUse = collectiveResultFirstUses(workload, lowered);

    // Last op (index) reading each tensor; persistent tensors are never freed within a step.
    std::unordered_map<std::string, std::int32_t> lastUse;
    for (std::size_t i = 0; i < ops.size(); ++i)
        for (const auto& in : ops[i].source->inputs) lastUse[in] = static_cast<std::int32_t>(i);

    templateStep_.synchronizeAtEnd = true;
    templateStep_.computeStreamId = kComputeStreamId;
    // The loop hands the model a fresh batch each step: every host-fed tensor is copied H2D.
    for (const WorkloadTensor& t : workload.tensors)
        if (t.kind == TensorKind::Input && t.viewOf.empty()) templateStep_.inputCopyBytes += t.info.bytes();
    for (std::size_t i = 0; i < ops.size(); ++i) {
        const LoweredOp& lop = ops[i];
        const WorkloadOp& wop = *lop.source;
        FrameworkOp f;
        f.atenName = wop.framework.atenName.empty() ? lop.npuOpName : wop.framework.atenName;
        f.npuOpName = lop.npuOpName;
        f.phase = wop.framework.phase;
        f.requiresGrad = anyBackward;
        if (!wop.framework.forwardOp.empty()) {
            const auto it = opIndexByName.find(wop.framework.forwardOp);
            if (it != opIndexByName.end()) f.forwardOpIndex = it->second;
        }
        f.inputDims = joinShapes(lop.instance.inputs);
        f.inputTypes = joinTypes(lop.instance.inputs);
        f.attributeCount = static_cast<std::uint32_t>(wop.attrs.size());
        f.collective = lop.collective.has_value();
        f.resultFirstUseOpIndex = resultFirstUse[i];
        f.stackFrames = wop.framework.callStack;
        f.modulePath = wop.framework.moduleHierarchy;
        f.moduleClasses = moduleClassesOf(f.modulePath, workload.moduleClasses);
        for (std::size_t k = 0; k < lop.kernels.size(); ++k) {
            f.kernels.push_back({lop.kernelNames[k], lop.kernels[k].workspaceBytes,
                                 lop.collective ? kCommunicationStreamId : kComputeStreamId,
                                 LoweredWorkload::tagOf(i, k)});
        }
        for (std::size_t o = 0; o < wop.outputs.size(); ++o) {
            const WorkloadTensor* t = workload.findTensor(wop.outputs[o]);
            if (!t || !t->viewOf.empty()) continue;
            // In place (the op reads what it writes, SGD's parameters): no new block.
            if (std::find(wop.inputs.begin(), wop.inputs.end(), wop.outputs[o]) != wop.inputs.end())
                continue;
            OutputTensorSpec spec;
            spec.bytes = t->info.bytes();
            const bool persistent = t->kind == TensorKind::Weight || t->kind == TensorKind::State ||
                                    t->kind == TensorKind::Input;
            const auto use = lastUse.find(wop.outputs[o]);
            spec.lastUseOpIndex = persistent ? -1 : (use == lastUse.end() ? static_cast<std::int32_t>(i) : use->second);
            f.outputs.push_back(spec);
        }
        templateStep_.ops.push_back(std::move(f));
    }
    addMarkers(workload, opIndexByName);
}

void HostStepBuilder::addMarkers(const Workload& workload,
                                 const std::unordered_map<std::string, std::int32_t>& opIndexByName) {
    // An op the lowering left out (none today) marks at the nearest lowered op on its side.
    auto loweredIndex = [&](const std::string& name, bool before) -> std::int32_t {
        std::size_t at = 0;
        while (at < workload.ops.size() && workload.ops[at].name != name) ++at;
        for (std::size_t k = at; k < workload.ops.size(); before ? ++k : --k) {
            const auto it = opIndexByName.find(workload.ops[k].name);
            if (it != opIndexByName.end()) return it->second;
            if (!before && k == 0) break;
        }
        return -1;
    };
    std::uint32_t slot = 0;
    for (const WorkloadMstxMarker& m : workload.mstxMarkers) {
        const std::int32_t first = loweredIndex(m.firstOp, m.range || m.markBefore);
        const std::int32_t last = m.range ? loweredIndex(m.lastOp, false) : first;
        if (first < 0 || last < 0) continue;
        if (!m.range) {
            templateStep_.markers.push_back({StepMarkerKind::Mark, static_cast<std::uint32_t>(first), m.markBefore,
                                             m.message, m.domain, 0});
            continue;
        }
        templateStep_.markers.push_back(
            {StepMarkerKind::RangeStart, static_cast<std::uint32_t>(first), true, m.message, m.domain, slot});
        templateStep_.markers.push_back(
            {StepMarkerKind::RangeEnd, static_cast<std::uint32_t>(last), false, m.message, m.domain, slot});
        ++slot;
    }
}

HostStep HostStepBuilder::build(std::uint32_t stepNumber, bool profiled) const {
    HostStep step = templateStep_;
    step.stepNumber = stepNumber;
    step.profiled = profiled;
    return step;
}

}  // namespace ascendsim

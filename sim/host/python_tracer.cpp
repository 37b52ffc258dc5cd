#include "sim/host/python_tracer.h"

#include <algorithm>

#include "sim/host/host_costs.h"

namespace ascendsim {

namespace {
constexpr std::string_view kModuleMachinery = "torch/nn/modules/module.py(";

std::uint64_t callNs(const PythonFrame& frame) {
    return frame.isModule() ? host_costs::kModuleCallNs : host_costs::kPythonCallNs;
}
std::uint64_t returnNs(const PythonFrame& frame) {
    return frame.isModule() ? host_costs::kModuleReturnNs : host_costs::kPythonReturnNs;
}
}  // namespace

std::vector<PythonFrame> pythonFramesOf(const std::vector<std::string>& stackFramesInnermostFirst,
                                        const std::vector<std::string>& modulePath,
                                        const std::vector<std::string>& moduleClasses,
                                        bool withStack, bool withModules) {
    std::vector<PythonFrame> frames;
    if (withStack) {
        for (auto it = stackFramesInnermostFirst.rbegin(); it != stackFramesInnermostFirst.rend(); ++it)
            frames.push_back({*it, {}, {}});
    }
    if (!withModules) return frames;
    std::vector<PythonFrame> modules;
    std::string instance;
    for (std::size_t i = 0; i < modulePath.size(); ++i) {
        if (!instance.empty()) instance += '/';
        instance += modulePath[i];
        const std::string cls = i < moduleClasses.size() ? moduleClasses[i] : modulePath[i];
        if (!cls.empty()) modules.push_back({{}, cls, instance});
    }
    const auto machinery = std::find_if(frames.begin(), frames.end(), [](const PythonFrame& f) {
        return f.name.find(kModuleMachinery) != std::string::npos;
    });
    frames.insert(machinery, modules.begin(), modules.end());
    return frames;
}

std::int64_t PythonTracer::instanceNumber(const PythonFrame& frame) {
    auto [it, inserted] = instanceNumbers_.try_emplace(frame.moduleInstance, 0);
    if (inserted) it->second = instancesPerClass_[frame.moduleClass]++;
    return it->second;
}

std::uint64_t PythonTracer::closeInnermost(std::vector<OpenFrame>& open, std::uint64_t timeNs) {
    timeNs += returnNs(open.back().frame);
    out_[open.back().recordIndex].endNs = timeNs;
    open.pop_back();
    return timeNs;
}

std::uint64_t PythonTracer::enter(const std::vector<PythonFrame>& frames, std::uint64_t timeNs,
                                  std::uint32_t threadId, std::uint64_t betweenCallsNs) {
    auto& open = open_[threadId];
    std::size_t common = 0;
    while (common < open.size() && common < frames.size() && open[common].frame == frames[common])
        ++common;
    while (open.size() > common) timeNs = closeInnermost(open, timeNs);
    timeNs += betweenCallsNs;
    for (std::size_t i = common; i < frames.size(); ++i) {
        const PythonFrame& frame = frames[i];
        PythonCallRecord call;
        if (frame.isModule()) {
            call.moduleId = instanceNumber(frame);
            call.name = "nn.Module: " + frame.moduleClass + "_" + std::to_string(call.moduleId);
        } else {
            call.name = frame.name;
        }
        call.startNs = timeNs;
        call.endNs = timeNs;
        call.threadId = threadId;
        call.id = nextId_++;
        call.parentId = open.empty() ? 0 : out_[open.back().recordIndex].id;
        out_.push_back(call);
        open.push_back({frame, out_.size() - 1});
        timeNs += callNs(frame);
    }
    return timeNs;
}

std::uint64_t PythonTracer::closeAll(std::uint64_t timeNs) {
    std::uint64_t latest = timeNs;
    for (auto& entry : open_) {
        std::uint64_t threadTime = timeNs;
        while (!entry.second.empty()) threadTime = closeInnermost(entry.second, threadTime);
        latest = std::max(latest, threadTime);
    }
    return latest;
}

}  // namespace ascendsim

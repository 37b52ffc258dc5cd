#include "sim/host/python_tracer.h"

namespace ascendsim {

namespace {
constexpr std::string_view kModulePrefix = "nn.Module: ";
}

std::vector<std::string> pythonFramesOf(const std::vector<std::string>& stackFramesInnermostFirst,
                                        const std::vector<std::string>& modulePath, bool withStack,
                                        bool withModules) {
    std::vector<std::string> frames;
    if (withStack) frames.assign(stackFramesInnermostFirst.rbegin(), stackFramesInnermostFirst.rend());
    if (withModules) {
        for (const auto& module : modulePath) frames.push_back(std::string(kModulePrefix) + module);
    }
    return frames;
}

std::int64_t PythonTracer::moduleIdOf(const std::string& frame) {
    if (frame.rfind(kModulePrefix, 0) != 0) return -1;
    auto [it, inserted] = moduleIds_.try_emplace(frame, static_cast<std::int64_t>(moduleIds_.size()));
    return it->second;
}

void PythonTracer::enter(const std::vector<std::string>& frames, std::uint64_t timeNs,
                         std::uint32_t threadId) {
    auto& open = open_[threadId];
    std::size_t common = 0;
    while (common < open.size() && common < frames.size() && open[common].name == frames[common]) {
        ++common;
    }
    while (open.size() > common) {
        out_[open.back().recordIndex].endNs = timeNs;
        open.pop_back();
    }
    for (std::size_t i = common; i < frames.size(); ++i) {
        PythonCallRecord call;
        call.name = frames[i];
        call.startNs = timeNs;
        call.endNs = timeNs;
        call.threadId = threadId;
        call.id = nextId_++;
        call.parentId = open.empty() ? 0 : out_[open.back().recordIndex].id;
        call.moduleId = moduleIdOf(frames[i]);
        out_.push_back(call);
        open.push_back({frames[i], out_.size() - 1});
    }
}

void PythonTracer::closeAll(std::uint64_t timeNs) {
    for (auto& [thread, open] : open_) {
        while (!open.empty()) {
            out_[open.back().recordIndex].endNs = timeNs;
            open.pop_back();
        }
    }
}

}  // namespace ascendsim

#pragma once
// The torch_npu Python tracer (with_stack / with_modules): python_function events for the Python
// frames around each torch op, nested by call. Consecutive ops that share a frame prefix share
// those frames' events; a frame closes when the next op no longer runs under it. An nn.Module
// call is one event spanning everything the module runs, named "nn.Module: <Class>_<n>" with n
// the instance's number among the instances of its class, in the order they are first called
// (formats.md §3.5; the real sample's AlexNet: Conv2d_0..Conv2d_4, ReLU_0..ReLU_6).
//
// Entering and leaving frames takes host time (docs/host-model.md "Gaps between host calls"):
// enter() returns the host time after it, so siblings never touch and every frame starts before
// its first child and ends after its last.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "profiler/record/run_record.h"

namespace ascendsim {

struct PythonFrame {
    std::string name;            // a plain frame: "model.py(42): forward"
    std::string moduleClass;     // an nn.Module call: its class ("Conv2d"); empty for plain frames
    std::string moduleInstance;  // an nn.Module call: the instance's attribute path ("ResNet/conv1")

    bool isModule() const { return !moduleClass.empty(); }
    bool operator==(const PythonFrame& other) const = default;
};

class PythonTracer {
public:
    explicit PythonTracer(std::vector<PythonCallRecord>& out) : out_(out) {}

    // The thread now runs under `frames` (outermost first), starting at timeNs: closes the open
    // frames that are not a prefix of them (each return takes host time), spends betweenCallsNs
    // (the Python statements between the two calls), then opens the missing frames (each call
    // takes host time). Returns the host time after the last frame opened.
    std::uint64_t enter(const std::vector<PythonFrame>& frames, std::uint64_t timeNs,
                        std::uint32_t threadId, std::uint64_t betweenCallsNs);
    // Closes every open frame of every thread, innermost first, from timeNs on; returns the time
    // after the last return.
    std::uint64_t closeAll(std::uint64_t timeNs);

private:
    struct OpenFrame {
        PythonFrame frame;
        std::size_t recordIndex;
    };
    std::uint64_t closeInnermost(std::vector<OpenFrame>& open, std::uint64_t timeNs);
    std::int64_t instanceNumber(const PythonFrame& frame);

    std::vector<PythonCallRecord>& out_;
    std::map<std::uint32_t, std::vector<OpenFrame>> open_;  // per thread, outermost first
    std::map<std::string, std::int64_t> instanceNumbers_;   // module instance -> its number
    std::map<std::string, std::int64_t> instancesPerClass_;
    std::uint64_t nextId_ = 1;
};

// The Python frames a torch op runs under, outermost first. With with_stack, its call stack
// (given innermost first); with with_modules, one frame per nn.Module call of its module path
// (`moduleClasses[i]` is the class of `modulePath[0..i]`; an empty class is a container without
// forward, ModuleList, which is never called). The module calls go where the stack enters the
// module machinery, just outside its outermost torch/nn/modules/module.py frame (the real
// trace: nn.Module: Conv2d_0 > module.py _call_impl > conv.py forward), else innermost.
std::vector<PythonFrame> pythonFramesOf(const std::vector<std::string>& stackFramesInnermostFirst,
                                        const std::vector<std::string>& modulePath,
                                        const std::vector<std::string>& moduleClasses,
                                        bool withStack, bool withModules);

}  // namespace ascendsim

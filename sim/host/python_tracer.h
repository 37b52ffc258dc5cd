#pragma once
// The torch_npu Python tracer (with_stack / with_modules): python_function events for the Python
// frames around each torch op, nested by call. Consecutive ops that share a frame prefix share
// those frames' events; a frame closes when the next op no longer runs under it.
// Module frames are named "nn.Module: <Name>_<id>" (formats.md §3.5).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "profiler/record/run_record.h"

namespace ascendsim {

class PythonTracer {
public:
    explicit PythonTracer(std::vector<PythonCallRecord>& out) : out_(out) {}

    // The thread now runs under `frames` (outermost first): closes the open frames that are not a
    // prefix of them at timeNs and opens the missing ones.
    void enter(const std::vector<std::string>& frames, std::uint64_t timeNs, std::uint32_t threadId);
    // Closes every open frame of every thread at timeNs.
    void closeAll(std::uint64_t timeNs);

private:
    struct OpenFrame {
        std::string name;
        std::size_t recordIndex;
    };
    std::int64_t moduleIdOf(const std::string& frame);

    std::vector<PythonCallRecord>& out_;
    std::map<std::uint32_t, std::vector<OpenFrame>> open_;  // per thread, outermost first
    std::map<std::string, std::int64_t> moduleIds_;
    std::uint64_t nextId_ = 1;
};

// The Python frames a torch op runs under, outermost first: its call stack (with_stack) followed
// by its module path as "nn.Module: X" frames (with_modules).
std::vector<std::string> pythonFramesOf(const std::vector<std::string>& stackFramesInnermostFirst,
                                        const std::vector<std::string>& modulePath, bool withStack,
                                        bool withModules);

}  // namespace ascendsim

#pragma once
// Derives the host model's input (the framework ops of one step) from the workload and its
// lowering: torch names, shapes as record_shapes prints them, stacks, modules, the kernels each
// op launches and when its outputs can be freed.
#include <cstdint>
#include <map>
#include <unordered_map>
#include <string>
#include <vector>

#include "sim/engine/device/lowered_workload.h"
#include "sim/host/framework_op.h"
#include "sim/workload/workload.h"

namespace ascendsim {

// The stream compute kernels go to; the real samples show stream 2 for eager PyTorch.
inline constexpr std::uint32_t kComputeStreamId = 2;

class HostStepBuilder {
public:
    HostStepBuilder(const Workload& workload, const LoweredWorkload& lowered);

    HostStep build(std::uint32_t stepNumber, bool profiled) const;

private:
    void addMarkers(const Workload& workload, const std::unordered_map<std::string, std::int32_t>& opIndexByName);

    HostStep templateStep_;  // everything but the step number and the profiled flag
};

// The nn.Module class of each prefix of `modulePath` from the workload's module_classes (longest
// matching path suffix, "*" matching one segment; else the segment itself); empty for ModuleList
// and ModuleDict, which are never called.
std::vector<std::string> moduleClassesOf(const std::vector<std::string>& modulePath,
                                         const std::map<std::string, std::string>& classes);

// For each lowered op: when it is a collective, the index of the first later op that reads its
// result (an output, or a view of one, resolved to the tensor whose bytes it names); else -1, as
// for a result nothing in the step reads (FrameworkOp::resultFirstUseOpIndex).
std::vector<std::int32_t> collectiveResultFirstUses(const Workload& workload, const LoweredWorkload& lowered);

// torch's dtype spelling in record_shapes "Input type": "c10::Half", "float", "long int", ...
std::string torchDtypeName(DataType dtype);

}  // namespace ascendsim

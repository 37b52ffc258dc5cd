#pragma once
// A workload lowered once for a chip: every op resolved to an OpInstance with device addresses
// and to the kernels it launches. The same lowered kernels serve every step (shapes do not change
// between steps), so lowering cost does not grow with the step count.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/chip/chip_config.h"
#include "models/kernels/kernel_registry.h"
#include "profiler/record/run_record.h"
#include "sim/engine/ranks/collective_ops.h"
#include "sim/workload/workload.h"

namespace ascendsim {

struct LoweredOp {
    const WorkloadOp* source = nullptr;
    OpInstance instance;
    std::string npuOpName;             // "aclnnConvolution"
    std::vector<LoweredKernel> kernels;
    std::vector<std::string> kernelNames;
    std::vector<TensorDescription> inputs;
    std::vector<TensorDescription> outputs;
    // Collectives (HcomAllReduce, HcomAllGather, HcomReduceScatter, HcomBroadcast): one launch on
    // the communication stream that the engine times with the link model instead of the device;
    // `kernels` then holds one placeholder entry.
    std::optional<LoweredCollective> collective;
};

class LoweredWorkload {
public:
    // Throws WorkloadError naming the op (its block_dim field when one was given) if a kernel
    // model cannot lower it.
    LoweredWorkload(const Workload& workload, const ChipConfig& chip);

    const std::vector<LoweredOp>& ops() const { return ops_; }
    std::uint64_t deviceMemoryPeakBytes() const { return peakBytes_; }
    // GM scratch shared by all kernels' workspaces: above every tensor, 2 MiB aligned.
    std::uint64_t workspaceAddress() const { return workspaceAddress_; }
    std::uint64_t workspaceBytes() const { return workspaceBytes_; }

    // userTag carried through host and device: (op index << 16) | kernel index.
    static std::uint64_t tagOf(std::size_t opIndex, std::size_t kernelIndex) {
        return (static_cast<std::uint64_t>(opIndex) << 16) | kernelIndex;
    }
    static std::size_t opIndexOf(std::uint64_t tag) { return static_cast<std::size_t>(tag >> 16); }
    static std::size_t kernelIndexOf(std::uint64_t tag) { return static_cast<std::size_t>(tag & 0xffff); }

private:
    std::vector<LoweredOp> ops_;
    std::uint64_t peakBytes_ = 0;
    std::uint64_t workspaceAddress_ = 0;
    std::uint64_t workspaceBytes_ = 0;
};

}  // namespace ascendsim

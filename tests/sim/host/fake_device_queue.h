#pragma once
// A device for host-model tests: every kernel runs a fixed time, streams run in order, and the
// device starts a task when it was submitted and the stream's previous task has finished.
#include <algorithm>
#include <cstdint>
#include <map>
#include <vector>

#include "sim/host/device_queue.h"
#include "sim/host/framework_op.h"
#include "sim/host/host_model.h"

namespace ascendsim::testing {

class FakeDeviceQueue : public DeviceQueue {
public:
    explicit FakeDeviceQueue(std::uint64_t kernelDurationNs) : kernelDurationNs_(kernelDurationNs) {}

    struct Task {
        PendingLaunch launch;
        std::uint64_t submitNs, startNs, endNs;
    };

    void submit(const PendingLaunch& launch, std::uint64_t submitNs) override {
        std::uint64_t& streamFree = streamFreeNs_[launch.streamId];
        const std::uint64_t start = std::max(submitNs, streamFree);
        streamFree = start + kernelDurationNs_;
        tasks.push_back({launch, submitNs, start, streamFree});
    }

    std::uint64_t synchronize(std::uint64_t hostNowNs) override {
        std::uint64_t idle = 0;
        for (const auto& [stream, freeNs] : streamFreeNs_) idle = std::max(idle, freeNs);
        syncs.push_back({hostNowNs, idle});
        return idle;
    }

    // A copy waits for every stream (the tests use one compute stream) and takes 1 us + 1 ns per
    // 24 bytes.
    DeviceSpan copy(std::uint64_t bytes, bool hostToDevice, std::uint64_t submitNs) override {
        std::uint64_t start = submitNs;
        for (const auto& [stream, freeNs] : streamFreeNs_) start = std::max(start, freeNs);
        const DeviceSpan span{start, start + 1'000 + bytes / 24};
        for (auto& [stream, freeNs] : streamFreeNs_) freeNs = span.endNs;
        copies.push_back({bytes, hostToDevice, span});
        return span;
    }

    // An event task takes 20 ns on its stream; a wait ends when its event was recorded.
    DeviceSpan streamEvent(const StreamEventLaunch& event, std::uint64_t submitNs) override {
        std::uint64_t& streamFree = streamFreeNs_[event.streamId];
        DeviceSpan span{std::max(submitNs, streamFree), 0};
        span.endNs = (event.wait ? std::max(span.startNs, recordedNs_.at(event.eventId)) : span.startNs) + 20;
        if (!event.wait) recordedNs_[event.eventId] = span.endNs;
        streamFree = span.endNs;
        events.push_back({event, span});
        return span;
    }

    struct Sync {
        std::uint64_t hostNowNs, deviceIdleNs;
    };
    struct Copy {
        std::uint64_t bytes;
        bool hostToDevice;
        DeviceSpan span;
    };
    std::vector<Task> tasks;
    std::vector<Sync> syncs;
    std::vector<Copy> copies;
    struct Event {
        StreamEventLaunch launch;
        DeviceSpan span;
    };
    std::vector<Event> events;

private:
    std::uint64_t kernelDurationNs_;
    std::map<std::uint32_t, std::uint64_t> streamFreeNs_;
    std::map<std::uint64_t, std::uint64_t> recordedNs_;  // event id -> when it was recorded
};

// What a host-model run leaves: the record and the launches in submission order.
struct HostRun {
    RunRecord record;
    std::vector<PendingLaunch> launches;
};

// Runs `steps` on a fresh HostModel over a FakeDeviceQueue whose kernels take `kernelNs`.
inline HostRun runHost(const HostModelOptions& options, const std::vector<HostStep>& steps,
                       std::uint64_t kernelNs = 10'000) {
    FakeDeviceQueue device(kernelNs);
    HostModel model(options, device);
    for (const auto& step : steps) model.runStep(step);
    HostRun out;
    out.launches = model.launches();
    model.finish(out.record);
    return out;
}

// A forward op with `kernels` kernels and one output of `outputBytes` freed after `lastUse`.
inline FrameworkOp forwardOp(const std::string& aten, const std::string& npu, std::uint32_t kernels,
                             std::uint64_t outputBytes = 4096, std::int32_t lastUse = -1) {
    FrameworkOp op;
    op.atenName = aten;
    op.npuOpName = npu;
    op.inputDims = "32,64,56,56;64,64,3,3";
    op.inputTypes = "float;float";
    op.stackFrames = {"model.py(42): forward", "train.py(10): <module>"};
    op.modulePath = {"Net", "conv1"};
    op.moduleClasses = {"Net", "Conv2d"};
    for (std::uint32_t k = 0; k < kernels; ++k) {
        op.kernels.push_back({npu + "_Kernel" + std::to_string(k), 8192, 0, k});
    }
    if (outputBytes > 0) op.outputs.push_back({outputBytes, lastUse, false});
    return op;
}

inline FrameworkOp backwardOp(const std::string& node, std::int32_t forwardIndex,
                              const std::string& npu) {
    FrameworkOp op;
    op.atenName = node;
    op.phase = OpPhase::Backward;
    op.forwardOpIndex = forwardIndex;
    op.npuOpName = npu;
    op.kernels.push_back({npu + "_Kernel0", 0, 0, 100});
    return op;
}

// conv2d -> relu_ -> linear forward, then the backward of each (linear, relu, conv).
inline HostStep trainingStep(std::uint32_t number) {
    HostStep step;
    step.stepNumber = number;
    step.ops.push_back(forwardOp("aten::conv2d", "aclnnConvolution", 1, 1 << 20, 4));
    step.ops.push_back(forwardOp("aten::relu_", "aclnnInplaceRelu", 1, 0));
    step.ops.push_back(forwardOp("aten::linear", "aclnnAddmm", 2, 64 << 10, 3));
    step.ops.push_back(backwardOp("AddmmBackward0", 2, "aclnnMm"));
    step.ops.push_back(backwardOp("ReluBackward0", 1, "aclnnThresholdBackward"));
    step.ops.push_back(backwardOp("ConvolutionBackward0", 0, "aclnnConvolutionBackward"));
    return step;
}

}  // namespace ascendsim::testing

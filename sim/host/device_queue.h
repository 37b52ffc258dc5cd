#pragma once
// The host model's only view of the device. The engine implements it on top of the SystemC
// Device (models/device/device.h); tests use a fake with fixed kernel durations.
#include <cstdint>
#include <string>

namespace ascendsim {

// One kernel launch as the runtime hands it to a stream's queue.
struct PendingLaunch {
    std::string kernelName;                 // KernelLaunchSpec::kernelName
    std::uint64_t userTag = 0;              // KernelLaunchSpec::userTag, unchanged
    std::uint32_t stepNumber = 0;
    std::uint32_t opIndex = 0;              // index of the FrameworkOp in its step
    std::uint32_t kernelIndex = 0;          // index into FrameworkOp::kernels
    std::uint32_t streamId = 0;
    std::uint32_t taskId = 0;               // per-stream task id (KernelRecord::taskId)
    std::uint64_t correlationId = 0;        // Node@launch connection id (KernelRecord::correlationId)
    std::uint64_t queueCorrelationId = 0;   // the PTA task-queue Enqueue/Dequeue correlation id
    std::int64_t hostOpIndex = -1;          // RunRecord::hostOps index of the NPU op record that
                                            // enqueued it; -1 when no host op is recorded
    // The schedule records the launch's step: the device task belongs in the run record whether
    // or not a host op was recorded (NPU activity without CPU activity records none).
    bool profiledStep = false;
};

// When a copy ran on the device.
struct DeviceSpan {
    std::uint64_t startNs = 0;
    std::uint64_t endNs = 0;
};

// A stream event task (aclrtRecordEvent / aclrtStreamWaitEvent) handed to a stream. Events are
// named by the host: a Wait names an event an earlier Record on another stream made.
struct StreamEventLaunch {
    bool wait = false;          // false: EVENT_RECORD, true: EVENT_WAIT
    std::uint32_t streamId = 0;
    std::uint64_t eventId = 0;
};

class DeviceQueue {
public:
    virtual ~DeviceQueue() = default;
    // The launch reaches the device's stream queue at host time submitNs. Calls come in
    // non-decreasing submitNs order per stream.
    virtual void submit(const PendingLaunch& launch, std::uint64_t submitNs) = 0;
    // The host blocks until the device has finished everything submitted; returns the time (ns)
    // the device became idle (may be earlier than hostNowNs when the device was already idle).
    virtual std::uint64_t synchronize(std::uint64_t hostNowNs) = 0;
    // A host<->device copy on the compute stream, submitted at submitNs: it runs after everything
    // submitted before it, and kernels submitted after it wait for it (stream order).
    virtual DeviceSpan copy(std::uint64_t bytes, bool hostToDevice, std::uint64_t submitNs) = 0;
    // An event task submitted at submitNs, in its stream's order: a Record runs when the stream's
    // earlier work is done; a Wait then holds the stream (and what is submitted to it later)
    // until its event has been recorded.
    virtual DeviceSpan streamEvent(const StreamEventLaunch& event, std::uint64_t submitNs) = 0;
};

}  // namespace ascendsim

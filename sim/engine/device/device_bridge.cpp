#include "sim/engine/device/device_bridge.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "sim/engine/device/collective_hbm_traffic.h"
#include "sim/engine/device/pcie_copy.h"
#include "sim/engine/ranks/collective_ops.h"

namespace ascendsim {

namespace {
// An EVENT_RECORD, or an EVENT_WAIT whose event was already recorded, takes 20 ns on its stream:
// the e5a31957 Level1 sample's EVENT_RECORD_SQE / EVENT_WAIT_SQE rows are 0.02 us (some 0).
constexpr std::uint64_t kStreamEventTaskNs = 20;
}  // namespace

DeviceBridge::DeviceBridge(const ChipConfig& chip, const LoweredWorkload& lowered, DeviceOptions options)
    : lowered_(lowered), chip_(&chip), device_(std::make_unique<Device>(chip, *this, options)) {}

DeviceBridge::DeviceBridge(const LoweredWorkload& lowered, const DeviceTimeline& timeline)
    : lowered_(lowered), replay_(std::in_place, timeline), replayedStats_(timeline.stats) {
    blocksSubmitted_ = timeline.blocksSubmitted;
}

DeviceStats DeviceBridge::deviceStats() const { return device_ ? device_->stats() : replayedStats_; }

std::uint64_t DeviceBridge::deviceIdleNs() { return device_ ? device_->runUntilIdle() : replay_->idleNs(); }

DeviceTimeline DeviceBridge::timeline() const {
    std::vector<TaskResult> results;
    results.reserve(submittedTaskIds_.size());
    for (const std::uint64_t id : submittedTaskIds_) {
        if (id == 0) continue;  // a collective
        const TaskResult* r = resultOf(id);
        if (!r) throw std::logic_error("a submitted kernel never finished (task " + std::to_string(id) + ")");
        results.push_back(*r);
    }
    return timelineOf(std::move(results), deviceStats(), blocksSubmitted_);
}

void DeviceBridge::submit(const PendingLaunch& launch, std::uint64_t submitNs) {
    const std::size_t opIndex = LoweredWorkload::opIndexOf(launch.userTag);
    const std::size_t kernelIndex = LoweredWorkload::kernelIndexOf(launch.userTag);
    if (opIndex >= lowered_.ops().size() || kernelIndex >= lowered_.ops()[opIndex].kernels.size())
        throw std::logic_error("launch names an unknown kernel: " + launch.kernelName);
    const LoweredOp& op = lowered_.ops()[opIndex];
    if (op.collective) {
        submitCollective(*op.collective, submitNs);
        return;
    }
    // The optimizer's wait for the gradient collectives is explicit (its EVENT_WAIT tasks hold
    // the compute stream); a p2p or all-to-all result is waited for implicitly (submitCollective).
    submitNs = std::max({submitNs, computeHeldUntilNs_, waitedCollectiveEndNs_});
    if (replay_) {
        TaskResult r = replay_->next(launch.userTag, launch.streamId, submitNs);
        r.taskId = nextTaskId_++;
        submittedTaskIds_.push_back(r.taskId);
        results_.emplace(r.taskId, std::move(r));
        return;
    }
    const LoweredKernel& kernel = op.kernels[kernelIndex];

    KernelTask task = kernelTaskOf(kernel);
    task.taskId = nextTaskId_++;
    task.streamId = launch.streamId;
    task.userTag = launch.userTag;
    task.codeImage = codeImageOf(op.instance, kernel);
    // Kernels of one stream run one after another, so they can share one scratch region placed
    // above every tensor (LoweredWorkload::workspaceAddress).
    task.workspaceAddr = kernel.workspaceBytes > 0 ? lowered_.workspaceAddress() : 0;
    if (traceSelection_ && tracesLaunch(launch, kernel)) {
        task.instructionTrace = &traceRecorder_;
        CoreTrace& traced = traced_.emplace();
        traced.opName = op.source->name;
        traced.opType = op.source->type;
        traced.kernelName = launch.kernelName;
        traced.type = kernel.type;
        traced.blockDim = kernel.blockDim;
        traced.mixBlockDim = kernel.mixBlockDim;
        traced.taskId = task.taskId;
        traced.stepNumber = launch.stepNumber;
        traceSelection_.reset();
    }
    blocksSubmitted_ += kernel.blockDim + kernel.mixBlockDim;
    submittedTaskIds_.push_back(task.taskId);
    device_->submit(std::move(task), submitNs);
}

bool DeviceBridge::tracesLaunch(const PendingLaunch& launch, const LoweredKernel& kernel) const {
    if (kernel.type == TaskType::AiCpu) return false;  // no AI core instructions
    if (traceSelection_->stepNumber && *traceSelection_->stepNumber != launch.stepNumber) return false;
    return !traceSelection_->opIndex || *traceSelection_->opIndex == LoweredWorkload::opIndexOf(launch.userTag);
}

std::optional<CoreTrace> DeviceBridge::takeCoreTrace() {
    if (!traced_) return std::nullopt;
    CoreTrace trace = std::move(*traced_);
    traced_.reset();
    if (const TaskResult* result = resultOf(trace.taskId)) {
        trace.startNs = result->startNs;
        trace.endNs = result->endNs;
    }
    trace.spans = traceRecorder_.takeSpans();
    return trace;
}

void DeviceBridge::submitCollective(const LoweredCollective& collective, std::uint64_t submitNs) {
    CollectiveRun run;
    run.launchIndex = submittedTaskIds_.size();
    run.startNs = std::max(submitNs, collectivesEndNs_);
    const std::size_t index = collectives_.size();
    if (index < releaseNs_.size() && releaseNs_[index] > run.startNs) run.waitNs = releaseNs_[index] - run.startNs;
    run.endNs = run.startNs + run.waitNs + collective.durationNs;
    run.collective = &collective;
    collectivesEndNs_ = run.endNs;
    if (device_ && collectiveHbmTraffic_) placeCollectiveHbmTraffic(collective, run);
    // The compute stream waits for the HCCL stream (torch_npu's work.wait()) where the framework
    // waits before computing on the result: Megatron's p2p requests (the next stage's input), and
    // the MoE token dispatcher's synchronous all_to_all_single (the experts' input). An
    // all-reduce keeps compute running until the first op that reads its result, whose stream
    // event waits for it (streamEvent; FrameworkOp::resultFirstUseOpIndex): at once for
    // Megatron's synchronous tensor-parallel all-reduce, after the weight-gradient GEMM for its
    // backward one, at the optimizer for DDP's buckets.
    if (isPointToPointOp(collective.kind) || collective.kind == CollectiveKind::AllToAll ||
        collective.kind == CollectiveKind::AllToAllV)
        waitedCollectiveEndNs_ = run.endNs;
    collectives_.push_back(run);
    submittedTaskIds_.push_back(0);
}

void DeviceBridge::placeCollectiveHbmTraffic(const LoweredCollective& collective, const CollectiveRun& run) {
    // The op's transfers are known once its stream places it: this rank's tasks from its arrival,
    // its first Notify_Wait spanning the wait for the group (as the run record writes them). The
    // kernels beside it are simulated later: the device runs lazily (runUntilIdle at the next
    // stream event, copy or synchronize), and a collective's stream reaches it only after the
    // compute it waits for, which is all the device has simulated so far (docs/fidelity.md §118).
    const CollectiveSchedule schedule =
        collectiveScheduleAfterWait(collective, collective.plan.request.member, *chip_, run.waitNs);
    const std::vector<ConcurrentHbmWindow> windows = collectiveHbmWindows(schedule, run.startNs);
    if (windows.empty()) return;
    const double simulatedPs = static_cast<double>(device_->nowNs()) * 1000.0;
    for (const ConcurrentHbmWindow& window : windows) {
        ++collectiveHbm_.windows;
        collectiveHbm_.hbmBytes += window.hbmBytesPerPs * (window.endPs - window.startPs);
        if (window.startPs < simulatedPs)
            collectiveHbm_.hbmBytesAlreadySimulated +=
                window.hbmBytesPerPs * (std::min(window.endPs, simulatedPs) - window.startPs);
    }
    device_->addConcurrentHbmTraffic(windows);
}

std::uint64_t DeviceBridge::synchronize(std::uint64_t hostNowNs) {
    (void)hostNowNs;
    return std::max({deviceIdleNs(), collectivesEndNs_, computeHeldUntilNs_});
}

DeviceSpan DeviceBridge::copy(std::uint64_t bytes, bool hostToDevice, std::uint64_t submitNs) {
    (void)hostToDevice;  // both directions cross the same link at the same rate (assumed)
    // Running the device until idle finishes what was submitted before the copy (stream order).
    const std::uint64_t streamFreeNs = std::max(deviceIdleNs(), computeHeldUntilNs_);
    DeviceSpan span;
    span.startNs = std::max(submitNs, streamFreeNs);
    span.endNs = span.startNs + pcieCopyNs(bytes);
    computeHeldUntilNs_ = span.endNs;
    return span;
}

DeviceSpan DeviceBridge::streamEvent(const StreamEventLaunch& event, std::uint64_t submitNs) {
    // The stream reaches the task when its earlier work is done. Running the device until idle
    // finishes exactly the compute tasks submitted so far (one compute stream, in order).
    const bool communication = event.streamId == kCommunicationStreamId;
    const std::uint64_t streamFreeNs =
        communication ? collectivesEndNs_ : std::max(deviceIdleNs(), computeHeldUntilNs_);
    DeviceSpan span;
    span.startNs = std::max(submitNs, streamFreeNs);
    if (event.wait) {
        const auto recorded = eventRecordedNs_.find(event.eventId);
        if (recorded == eventRecordedNs_.end())
            throw std::logic_error("a stream waits for event " + std::to_string(event.eventId) + ", never recorded");
        span.endNs = std::max(span.startNs, recorded->second) + kStreamEventTaskNs;
    } else {
        span.endNs = span.startNs + kStreamEventTaskNs;
        eventRecordedNs_[event.eventId] = span.endNs;
    }
    (communication ? collectivesEndNs_ : computeHeldUntilNs_) = span.endNs;
    return span;
}

void DeviceBridge::onTaskFinished(const TaskResult& result) { results_.emplace(result.taskId, result); }

const TaskResult* DeviceBridge::resultOf(std::uint64_t deviceTaskId) const {
    const auto it = results_.find(deviceTaskId);
    return it == results_.end() ? nullptr : &it->second;
}

}  // namespace ascendsim

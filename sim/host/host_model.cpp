#include "sim/host/host_model.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>

#include "sim/host/host_call_costs.h"
#include "sim/host/host_costs.h"
#include "sim/host/host_step_state.h"

namespace ascendsim {

using namespace host_costs;

namespace {
// Thread-id offsets from the process id, as in the real Level2 sample (pid 3178231, autograd
// thread 3186523, task-queue dequeue thread 3181770).
constexpr std::uint32_t kBackwardThreadOffset = 8292;
constexpr std::uint32_t kDequeueThreadOffset = 3539;
// PyTorch's "Fwd thread id" of a backward node: the forward thread's sequence id (the main
// thread is 1 in the sample); 0 on every other record.
constexpr std::uint32_t kForwardThreadSequenceId = 1;

std::string joinModules(const std::vector<std::string>& path) {
    std::string out;
    for (const auto& module : path) {
        if (!out.empty()) out += '/';
        out += "nn.Module: " + module;
    }
    return out;
}

std::string joinFrames(const std::vector<std::string>& frames) {
    std::string out;
    for (const auto& frame : frames) {
        if (!out.empty()) out += ';';
        out += frame;
    }
    return out;
}

// "32,64,56,56;64,64,3,3" -> "32,64,56,56" (record_shapes lists one entry per input).
std::string firstEntry(const std::string& perInput) {
    return perInput.substr(0, perInput.find(';'));
}

std::uint32_t orDerived(std::uint32_t given, std::uint32_t pid, std::uint32_t offset) {
    return given != 0 ? given : pid + offset;
}
}  // namespace

HostModel::HostModel(const HostModelOptions& options, DeviceQueue& device)
    : options_(options),
      device_(device),
      mainThreadId_(orDerived(options.mainThreadId, options.processId, 0)),
      backwardThreadId_(orDerived(options.backwardThreadId, options.processId, kBackwardThreadOffset)),
      deviceMemory_(options.hcclEnabled),
      dequeue_(device, apis_, memory_, deviceMemory_,
               orDerived(options.dequeueThreadId, options.processId, kDequeueThreadOffset)),
      tracer_(pythonCalls_),
      nowNs_(options.startNs),
      nextSequenceNumber_(options.firstSequenceNumber) {}

std::int64_t HostModel::openRecord(const std::string& name, std::uint32_t threadId,
                                   std::int64_t parent, std::int64_t sequenceNumber,
                                   std::uint32_t forwardThreadId) {
    if (!recordCpu_) return -1;
    HostOpRecord record;
    record.name = name;
    record.startNs = nowNs_;
    record.endNs = nowNs_;
    record.threadId = threadId;
    record.sequenceNumber = sequenceNumber;
    record.forwardThreadId = forwardThreadId;
    record.parent = parent;
    hostOps_.push_back(std::move(record));
    return static_cast<std::int64_t>(hostOps_.size()) - 1;
}

void HostModel::closeRecord(std::int64_t index) {
    if (index >= 0) hostOps_[static_cast<std::size_t>(index)].endNs = nowNs_;
}

std::uint64_t HostModel::torchCallGapNs() const {
    return tracePython_ ? kTorchCallGapTracedNs : kTorchCallGapNs;
}

std::uint64_t HostModel::recordEnterNs(std::uint32_t inputTensors) const {
    return host_call_costs::opEnterNs(inputTensors, recordCpu_ && options_.profiler.recordShapes);
}

void HostModel::noteReserved() { deviceMemory_.notePtaReserved(nowNs_, memory_.ptaTotals().reserved); }

HostStepResult HostModel::runStep(const HostStep& step) {
    if (finished_) throw std::logic_error("HostModel::runStep after finish()");
    const ProfilerConfig& cfg = options_.profiler;
    recordCpu_ = step.profiled && cfg.activityCpu;
    recordMemory_ = recordCpu_ && cfg.profileMemory;
    const bool wasTracing = tracePython_;
    tracePython_ = recordCpu_ && (cfg.withStack || cfg.withModules);
    if (wasTracing && !tracePython_) tracer_.closeAll(nowNs_);  // tracing stops with the profiled steps
    const bool collectsCann = step.profiled && cfg.activityNpu && cfg.level != ProfilerLevel::LevelNone;
    recordDevice_ = collectsCann;
    computeStreamId_ = step.computeStreamId;
    if (step.profiled) apis_.setCollection(cfg.activityNpu, cfg.level);
    else apis_.stopCollection();
    memory_.setRecording(recordMemory_);
    deviceMemory_.setRecording(collectsCann && cfg.profileMemory);
    mstx_.beginStep(step.profiled && mstxRecorded(cfg), mainThreadId_);

    if (anyStepRun_) nowNs_ += kProfilerStepGapNs;
    anyStepRun_ = true;

    const std::size_t opCount = step.ops.size();
    StepState state;
    state.step = &step;
    state.autogradSequence.assign(opCount + 1, -1);
    state.addresses.resize(opCount);
    state.freesAfter.resize(opCount + 1);

    HostStepResult result;
    result.startNs = nowNs_;
    state.stepRecord = openRecord("ProfilerStep#" + std::to_string(step.stepNumber), mainThreadId_, -1, -1, 0);
    nowNs_ += kOpEnterNs;
    if (step.inputCopyBytes > 0) copyInputs(state);
    auto closeOptimizer = [&] {
        if (!state.optimizerOpen) return;
        nowNs_ += kOpExitNs;
        closeRecord(state.optimizerRecord);
        state.optimizerOpen = false;
        state.optimizerRecord = -1;
    };
    for (std::uint32_t i = 0; i < opCount;) {
        const bool optimizerOp = step.ops[i].phase == OpPhase::Optimizer && !step.optimizerName.empty();
        if (optimizerOp && !state.optimizerOpen) {
            nowNs_ += torchCallGapNs();  // the Python up to optimizer.step()
            const std::string name = "Optimizer.step#" + step.optimizerName + ".step";
            state.optimizerRecord = openRecord(name, mainThreadId_, state.stepRecord, -1, 0);
            state.optimizerOpen = true;
            nowNs_ += kOpEnterNs;
        } else if (!optimizerOp) {
            closeOptimizer();
        }
        std::vector<OpRef> call;
        const std::uint32_t first = i;
        for (std::uint32_t end = i + torchCallLength(step.ops, i); i < end; ++i)
            call.push_back({&step.ops[i], i});
        mstx_.fire(step.markers, first, i, true, nowNs_);
        runCall(state, call);
        mstx_.fire(step.markers, first, i, false, nowNs_);
    }
    closeOptimizer();
    if (step.synchronizeAtEnd && launchedSinceSync_) {
        // The training loop's loss.item(): a D2H read that waits for the device.
        FrameworkOp item;
        item.atenName = "aten::item";
        item.phase = OpPhase::Optimizer;
        item.synchronizesDevice = true;
        item.readBackBytes = kLossItemBytes;
        for (auto it = step.ops.rbegin(); it != step.ops.rend(); ++it) {
            if (it->phase != OpPhase::Backward && !it->stackFrames.empty()) {
                item.stackFrames = {it->stackFrames.back()};  // the loop's outermost frame
                break;
            }
        }
        runCall(state, {{&item, static_cast<std::uint32_t>(opCount)}});
    }
    nowNs_ += kOpExitNs;
    closeRecord(state.stepRecord);
    result.endNs = nowNs_;
    if (step.profiled) {
        steps_.push_back({step.stepNumber, result.startNs, result.endNs});
        if (collectsCann && cfg.profileMemory) deviceMemory_.addCollectionWindow(result.startNs, result.endNs);
    }
    result.outputAddresses = std::move(state.addresses);
    return result;
}

void HostModel::runCall(StepState& state, const std::vector<OpRef>& call) {
    const FrameworkOp& op = *call.front().op;
    const std::uint32_t opIndex = call.front().index;
    const bool backward = op.phase == OpPhase::Backward;
    const std::uint32_t tid = backward ? backwardThreadId_ : mainThreadId_;
    const ProfilerConfig& cfg = options_.profiler;
    for (const OpRef& member : call) {
        if (!member.op->kernels.empty() && member.op->npuOpName.empty()) {
            throw std::invalid_argument("host model: op '" + member.op->atenName + "' (op " +
                                        std::to_string(member.index) +
                                        ") launches kernels but names no NPU op");
        }
    }
    // A backward node without a forward op in the step (AccumulateGrad) has sequence number -1.
    std::int64_t backwardSequence = -1;
    if (backward && op.forwardOpIndex >= 0) {
        const auto fwd = static_cast<std::uint32_t>(op.forwardOpIndex);
        if (fwd >= opIndex || state.step->ops[fwd].phase != OpPhase::Forward) {
            throw std::invalid_argument("host model: backward op '" + op.atenName + "' (op " +
                                        std::to_string(opIndex) +
                                        ") has a forwardOpIndex that is not an earlier forward op");
        }
        backwardSequence = state.autogradSequence[fwd];
    }
    // Host time between this call and the previous one on its thread (docs/host-model.md "Gaps
    // between host calls"): the autograd engine picking the next node, or the Python between two
    // torch calls, with the frames the tracer closes and opens on the way.
    if (backward) {
        nowNs_ += kAutogradNodeGapNs;
    } else if (tracePython_) {
        nowNs_ = tracer_.enter(pythonFramesOf(op.stackFrames, op.modulePath, op.moduleClasses,
                                              cfg.withStack, cfg.withModules),
                               nowNs_, tid, torchCallGapNs());
    } else {
        nowNs_ += torchCallGapNs();
    }
    // The autograd thread runs C++ only: no Python stack to capture there.
    const std::uint64_t stackCost = (recordCpu_ && cfg.withStack && !backward) ? kStackCaptureNs : 0;

    struct Open {
        std::uint32_t depth;
        std::int64_t record;
        const CallNode* node;
        bool hasChild;  // a record was opened inside: the next one inside follows a sibling
    };
    std::vector<Open> stack;
    std::int64_t topRecord = -1;
    std::int64_t lastTaken = -1;
    auto closeTop = [&] {
        const Open open = stack.back();
        if (open.node->launchSite) {
            const auto first = call.begin() + open.node->firstMember;
            launch(state, std::vector<OpRef>(first, first + open.node->memberCount), open.record,
                   tid, open.hasChild);
        }
        nowNs_ += kOpExitNs;
        closeRecord(open.record);
        stack.pop_back();
    };
    const std::uint32_t inputTensors = argumentsOf(op).inputTensors;
    std::int64_t callFlops = -1;  // with_flops: the torch op's, over all the kernels it launches
    for (const OpRef& member : call) {
        if (member.op->flops >= 0)
            callFlops = std::max<std::int64_t>(callFlops, 0) + member.op->flops;
    }
    const FrameworkOp* forwardOp =
        backward && op.forwardOpIndex >= 0 ? &state.step->ops[static_cast<std::size_t>(op.forwardOpIndex)] : nullptr;
    std::vector<const FrameworkOp*> members;
    for (const OpRef& member : call) members.push_back(member.op);
    std::vector<CallNode> tree =
        backward ? buildAutogradCallTree(members, forwardOp) : buildCallTree(op, forwardOp);
    if (!backward) {
        for (CallNode& node : tree)
            if (node.launchSite) node.memberCount = static_cast<std::uint32_t>(call.size());
    }
    for (const CallNode& node : tree) {
        while (!stack.empty() && stack.back().depth >= node.depth) closeTop();
        if (!stack.empty()) {
            // The parent's C++ between its calls: sibling records never touch.
            if (stack.back().hasChild) nowNs_ += kCppSiblingGapNs;
            stack.back().hasChild = true;
        }
        std::int64_t sequence = -1;
        std::uint32_t forwardThread = 0;
        switch (node.role) {
            case SequenceRole::None: break;
            case SequenceRole::Peek: sequence = nextSequenceNumber_; break;
            case SequenceRole::Take: sequence = lastTaken = nextSequenceNumber_++; break;
            case SequenceRole::BackwardNode:
                sequence = backwardSequence;
                forwardThread = kForwardThreadSequenceId;
                break;
        }
        const std::int64_t mainParent = state.optimizerOpen ? state.optimizerRecord : state.stepRecord;
        const std::int64_t parent = stack.empty() ? (backward ? -1 : mainParent) : stack.back().record;
        const std::int64_t record = openRecord(node.name, tid, parent, sequence, forwardThread);
        if (record >= 0) {
            HostOpRecord& r = hostOps_[static_cast<std::size_t>(record)];
            const bool engineWrapper = backward && node.depth == 0;  // evaluate_function record
            if (cfg.recordShapes && !engineWrapper) {
                // An autograd node's inputs are the gradients flowing in: the op's first input.
                const bool nodeRecord = node.role == SequenceRole::BackwardNode;
                const FrameworkOp& shown = *call[node.firstMember].op;
                r.inputDims = nodeRecord ? firstEntry(shown.inputDims) : shown.inputDims;
                r.inputTypes = nodeRecord ? firstEntry(shown.inputTypes) : shown.inputTypes;
            }
            if (cfg.withStack && !backward) r.callStack = joinFrames(op.stackFrames);
            if (cfg.withModules && !backward) r.moduleHierarchy = joinModules(op.modulePath);
            if (cfg.withFlops && node.depth == 0) r.flops = callFlops;
        }
        if (stack.empty()) topRecord = record;
        nowNs_ += recordEnterNs(inputTensors) + stackCost;
        stack.push_back({node.depth, record, &node, false});
    }
    while (!stack.empty()) closeTop();

    for (const OpRef& member : call) {
        state.autogradSequence[member.index] = lastTaken;
        for (const auto& pending : state.freesAfter[member.index]) {
            memory_.freeTensor(pending.ptr, pending.usedOnOtherStream, {nowNs_, tid, topRecord});
        }
    }
}

void HostModel::finish(RunRecord& record) {
    if (finished_) throw std::logic_error("HostModel::finish called twice");
    finished_ = true;
    const std::uint64_t endNs = std::max(nowNs_, dequeue_.idleAtNs());
    tracer_.closeAll(nowNs_);
    deviceMemory_.finish(record);

    auto& apis = apis_.records();
    std::stable_sort(apis.begin(), apis.end(),
                     [](const ApiRecord& a, const ApiRecord& b) { return a.startNs < b.startNs; });
    auto& memoryEvents = memory_.events();
    std::stable_sort(memoryEvents.begin(), memoryEvents.end(),
                     [](const MemoryEventRecord& a, const MemoryEventRecord& b) { return a.timeNs < b.timeNs; });

    record.hostOps = std::move(hostOps_);
    record.steps = std::move(steps_);
    record.apis = std::move(apis);
    record.taskQueue = std::move(dequeue_.taskQueue());
    record.memoryEvents = std::move(memoryEvents);
    record.pythonCalls = std::move(pythonCalls_);
    record.mstxEvents = mstx_.take();
    std::stable_sort(memcpyTasks_.begin(), memcpyTasks_.end(),
                     [](const MemcpyTaskRecord& a, const MemcpyTaskRecord& b) { return a.startNs < b.startNs; });
    record.memcpyTasks = std::move(memcpyTasks_);
    auto& eventTasks = dequeue_.eventTasks();
    std::stable_sort(eventTasks.begin(), eventTasks.end(),
                     [](const StreamEventTaskRecord& a, const StreamEventTaskRecord& b) { return a.startNs < b.startNs; });
    record.eventTasks = std::move(eventTasks);
    record.processId = options_.processId;
    record.mainThreadId = mainThreadId_;
    record.deviceId = options_.deviceId;
    record.endNs = std::max(record.endNs, endNs);
}

}  // namespace ascendsim

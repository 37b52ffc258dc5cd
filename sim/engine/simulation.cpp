#include "sim/engine/simulation.h"

#include <spdlog/spdlog.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <stdexcept>

#include "models/systemc/fresh_simulation_context.h"
#include "profiler/assembly/profiling_schedule.h"
#include "profiler/config/torch_npu_spelling.h"
#include "sim/config/chip_config_loader.h"
#include "sim/engine/device/device_bridge.h"
#include "sim/engine/device/hardware_samples.h"
#include "sim/engine/host_step_builder.h"
#include "sim/engine/device/lowered_workload.h"
#include "sim/engine/run_identity.h"
#include "sim/workload/blocks/e2e_profile_block.h"
#include "sim/host/host_model.h"

namespace ascendsim {

namespace {

constexpr const char* kDefaultChip = "Ascend910B1";

// Problems in command-line options have no file position.
SourceLocation optionLocation(const char*) { return {"<command line>", 0, 0}; }

template <typename T, typename Parse>
T parseOption(const std::string& text, const char* option, Parse parse) {
    T value{};
    if (!parse(text, value)) throw WorkloadError(optionLocation(option), option, "unknown value '" + text + "'");
    return value;
}

// A level, metric, export type or activity in any of torch_npu's spellings; lists are
// comma-separated ("text,db", "CPU,NPU"). Unknown values list the valid ones.
template <typename T>
T parseSpelledOption(std::string_view text, const char* option, ProfilerSetting setting,
                     bool (*parse)(std::string_view, T&)) {
    T value{};
    if (!parse(text, value))
        throw WorkloadError(optionLocation(option), option, unknownSpellingMessage(setting, text));
    return value;
}

template <typename T>
std::vector<T> parseSpelledList(const std::string& text, const char* option, ProfilerSetting setting,
                                bool (*parse)(std::string_view, T&)) {
    std::vector<T> values;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        values.push_back(parseSpelledOption<T>(std::string_view(text).substr(start, comma - start), option, setting, parse));
        start = comma + 1;
    }
    return values;
}

bool recordsStep(const std::optional<ProfilerSchedule>& schedule, std::uint32_t stepNumber) {
    return !schedule || scheduleAction(*schedule, stepNumber) == StepAction::Record;
}

// How many of the workload's steps need simulating. Steps after the last recorded one cannot be
// observed in the profiler directories: they record no host op, API, kernel, memory or Python
// record, every directory is cut to its cycle's recorded steps (sliceRunRecord), and the
// simulated future cannot change the simulated past. So the run stops after the last recorded
// step (steps before it, waiting and warm-up included, all run: they set the caches, memory pools
// and clocks the recorded steps start from). Not with --chrome-trace: that trace is the whole run
// record, whose AI Core Freq counter is sampled at the end of the last simulated step. A run that
// records no step at all runs every step.
std::uint32_t stepsToSimulate(const Workload& workload, const SimulationOptions& options) {
    if (options.simulateUnobservedSteps || !options.chromeTracePath.empty()) return workload.steps;
    for (std::uint32_t step = workload.steps; step > 0; --step)
        if (recordsStep(workload.profiler.schedule, step - 1)) return step;
    return workload.steps;
}

// A collective as rank 0 of the world group records it (recordOfRank names the group and
// re-plans the tasks of every rank).
CommunicationOpRecord communicationRecordOf(const LoweredOp& op, const PendingLaunch& launch,
                                            const CollectiveRun& run, std::uint32_t indexInStep,
                                            const ChipConfig& chip) {
    const LoweredCollective& collective = *op.collective;
    CommunicationOpRecord c;
    c.groupName = worldGroupHash();
    c.name = collectiveOpName(collective.kind, c.groupName, indexInStep);
    c.indexInStep = indexInStep;
    c.opType = collectiveApiName(collective.kind);
    c.algorithm = collective.plan.algorithmName;
    c.dataType = hcclDataTypeName(collective.dtype);
    c.count = collective.count;
    c.rankSize = collective.ranks;
    c.startNs = run.startNs;
    c.endNs = run.endNs;
    c.correlationId = launch.correlationId;
    c.hostOpIndex = launch.hostOpIndex;
    c.streamId = launch.streamId;
    c.taskId = launch.taskId;
    c.tasks = collectiveScheduleAfterWait(collective, 0, chip, run.waitNs).tasks;
    return c;
}

// The arrival the cluster run matches with the other members' (sim/engine/cluster/).
CollectiveArrival arrivalOf(const LoweredCollective& collective, const CollectiveRun& run) {
    CollectiveArrival a{collective.group, run.startNs, collective.kind, -1, -1};
    const CollectiveRequest& request = collective.plan.request;
    const std::uint32_t self = request.member;
    for (const P2pMessage& m : request.messages) {
        if (m.src == self) a.sendTo = static_cast<std::int32_t>(m.dst);
        if (m.dst == self) a.recvFrom = static_cast<std::int32_t>(m.src);
    }
    return a;
}

DeviceOptions deviceOptionsFor(const SimulationOptions& options) {
    // One by default: on the 2-core build VM the worker thread's programs reach the simulation
    // thread cold (another core's cache) and cost page faults, which ate its gain in the
    // 1 Dec 2026 measurements (docs/performance.md).
    const std::uint32_t threads = options.hostThreads.value_or(1);
    if (threads < 1 || threads > 2)
        throw WorkloadError(optionLocation("--threads"), "--threads", "must be 1 or 2, not " + std::to_string(threads));
    DeviceOptions device;
    device.generateProgramsAhead = threads >= 2;
    return device;
}

void fillKernelRecords(const LoweredWorkload& lowered, const HostModel& host,
                       const DeviceBridge& bridge, const ChipConfig& chip,
                       SimulationResult& result) {
    const auto& launches = host.launches();
    const auto& taskIds = bridge.submittedTaskIds();
    if (launches.size() != taskIds.size())
        throw std::logic_error("host launches and device submissions disagree");
    std::size_t nextCollective = 0;
    std::map<std::string, std::uint32_t> collectiveInStep;  // HCCL numbers each communicator's ops
    std::uint32_t collectiveStep = 0;
    for (std::size_t i = 0; i < launches.size(); ++i) {
        const LoweredOp& op = lowered.ops()[LoweredWorkload::opIndexOf(launches[i].userTag)];
        if (op.collective) {
            const CollectiveRun& run = bridge.collectiveRuns().at(nextCollective++);
            if (launches[i].stepNumber != collectiveStep) collectiveInStep.clear();
            collectiveStep = launches[i].stepNumber;
            const std::uint32_t index = collectiveInStep[op.collective->group]++;
            result.collectiveArrivals.push_back(arrivalOf(*op.collective, run));
            if (!launches[i].profiledStep) continue;
            result.record.communicationOps.push_back(
                communicationRecordOf(op, launches[i], run, index, chip));
            result.communicationPlans.push_back(*op.collective);
            result.communicationWaits.push_back(run.waitNs);
            continue;
        }
        const TaskResult* device = bridge.resultOf(taskIds[i]);
        if (!device) throw std::logic_error("a submitted kernel never finished: " + launches[i].kernelName);
        result.deviceBusyNs += device->endNs - device->startNs;
        ++result.deviceTasks;
        if (!launches[i].profiledStep) continue;
        KernelRecord k;
        k.device = *device;
        k.name = launches[i].kernelName;
        k.opType = reportedOpTypeOf(op.kernels[LoweredWorkload::kernelIndexOf(launches[i].userTag)], op.instance.type);
        k.taskId = launches[i].taskId;
        k.correlationId = launches[i].correlationId;
        k.hostOpIndex = launches[i].hostOpIndex;
        k.inputs = op.inputs;
        k.outputs = op.outputs;
        result.record.kernels.push_back(std::move(k));
    }
    std::stable_sort(result.record.kernels.begin(), result.record.kernels.end(),
                     [](const KernelRecord& a, const KernelRecord& b) { return a.device.startNs < b.device.startNs; });
}

// --e2e starts an E2E collection with profileConfig's defaults (or adjusts the workload's);
// --acl-prof and --aicore-metrics-type change its profileConfig.
void applyE2eOptions(const SimulationOptions& options, ProfilerConfig& p) {
    if (!options.e2e && !p.e2e && (options.aclProf || options.aiCoreMetricsType))
        throw WorkloadError(optionLocation("--acl-prof"), options.aclProf ? "--acl-prof" : "--aicore-metrics-type",
                            "needs an E2E collection (--e2e or the workload's e2e_profile: block)");
    if (!options.e2e && !p.e2e) return;
    E2eProfile e2e = p.e2e.value_or(E2eProfile{});
    if (options.e2e && !p.e2e) e2e.useE2eProfiler = true;
    if (options.aclProf) applyAclProfOption(*options.aclProf, e2e.flags);
    if (options.aiCoreMetricsType && !parseAiCoreMetricsType(*options.aiCoreMetricsType, e2e.aiCoreMetricsType))
        throw WorkloadError(optionLocation("--aicore-metrics-type"), "--aicore-metrics-type",
                            "unknown value '" + *options.aiCoreMetricsType + "' (0, 1, 2, 3, 4, 5 or 0xFF)");
    applyE2eProfile(e2e, p);
}

}  // namespace

void applyProfilerOverrides(const SimulationOptions& options, Workload& workload) {
    ProfilerConfig& p = workload.profiler;
    if (options.steps) {
        if (*options.steps == 0) throw WorkloadError(optionLocation("--steps"), "--steps", "must be at least 1");
        workload.steps = *options.steps;
    }
    if (options.level)
        p.level = parseSpelledOption<ProfilerLevel>(*options.level, "--level", ProfilerSetting::Level, parseProfilerLevel);
    if (options.aicMetrics)
        p.aicMetrics = parseSpelledOption<AicMetrics>(*options.aicMetrics, "--aic-metrics", ProfilerSetting::AicMetrics,
                                                      parseAicMetrics);
    if (options.activities) {
        const auto activities = parseSpelledList<ProfilerActivity>(*options.activities, "--activities",
                                                                   ProfilerSetting::Activity, parseProfilerActivity);
        p.activityCpu = std::count(activities.begin(), activities.end(), ProfilerActivity::Cpu) > 0;
        p.activityNpu = std::count(activities.begin(), activities.end(), ProfilerActivity::Npu) > 0;
    }
    if (options.l2Cache) p.l2Cache = *options.l2Cache;
    if (options.msprofTx) p.msprofTx = *options.msprofTx;
    if (options.dataSimplification) {
        p.dataSimplification = *options.dataSimplification;
        p.dataSimplificationGiven = true;
    }
    if (options.taskTimeCsv) p.taskTimeCsv = *options.taskTimeCsv;
    if (options.exportType)
        p.exportTypes = parseSpelledList<ExportType>(*options.exportType, "--export-type", ProfilerSetting::ExportType,
                                                     parseExportType);
    if (options.formatVersion)
        p.formatVersion = parseOption<FormatVersion>(*options.formatVersion, "--format-version", parseFormatVersion);
    applyE2eOptions(options, p);
    // The msprof command line profiles the whole application and collects no PyTorch data.
    if (options.msprofCommandLine) {
        p.schedule.reset();
        p.activityCpu = false;
        p.dataSimplification = false;
        p.dataSimplificationGiven = true;
    }
    // The 2023-era torch_npu documents data_simplification as False by default, True in cluster
    // runs (issue 14, the data-collection page); later releases default to True.
    if (p.formatVersion == FormatVersion::Era2023 && !p.dataSimplificationGiven)
        p.dataSimplification = workload.ranks > 1;
}

SimulationOptions withE2eResultFolder(const SimulationOptions& options) {
    if (options.outputGiven || options.msprofCommandLine || options.workloadPath.empty()) return options;
    if (!options.e2e) {
        // Most runs are not E2E: a glance at the file's top level spares them a second full load.
        try {
            if (!YAML::LoadFile(options.workloadPath)["e2e_profile"]) return options;
        } catch (const YAML::Exception&) {
            // A file that does not parse: the full load below reports it with file and line.
        }
    }
    Workload workload = loadWorkload(options.workloadPath, WorkloadOverrides{options.setOverrides, 0});
    applyProfilerOverrides(options, workload);
    if (!workload.profiler.e2e) return options;
    SimulationOptions placed = options;
    placed.outputParent = workload.profiler.e2e->resultPath;
    placed.outputOption = options.workloadPath + ": e2e_profile.profiler_result_path";
    return placed;
}

namespace {

// The launch --core-trace records; throws WorkloadError for an op or step it can never find.
CoreTraceSelection coreTraceSelection(const SimulationOptions& options, const LoweredWorkload& lowered,
                                      std::uint32_t stepsSimulated) {
    CoreTraceSelection selection;
    if (options.coreTraceOp) {
        const std::string& name = *options.coreTraceOp;
        const auto& ops = lowered.ops();
        const auto found = std::find_if(ops.begin(), ops.end(), [&](const LoweredOp& op) { return op.source->name == name; });
        if (found == ops.end()) {
            // Op names are flattened block paths ("layers.0.self_attn.attention"): suggest the
            // ones containing what was typed, else the first few.
            std::vector<std::string> similar, first;
            for (const LoweredOp& op : ops) {
                if (similar.size() < 5 && op.source->name.find(name) != std::string::npos)
                    similar.push_back(op.source->name);
                if (first.size() < 5) first.push_back(op.source->name);
            }
            const std::vector<std::string>& suggestions = similar.empty() ? first : similar;
            std::string list;
            for (const std::string& s : suggestions) list += (list.empty() ? "'" : ", '") + s + "'";
            throw WorkloadError(optionLocation("--core-trace-op"), "--core-trace-op",
                                "no op named '" + name + "' in the workload (op names as --set op.NAME.block_dim uses them, e.g. " +
                                    list + ")");
        }
        const bool onAiCores = !found->collective && std::any_of(found->kernels.begin(), found->kernels.end(),
                                                                 [](const LoweredKernel& k) { return k.type != TaskType::AiCpu; });
        if (!onAiCores)
            throw WorkloadError(optionLocation("--core-trace-op"), "--core-trace-op",
                                "op '" + name + "' (" + found->source->type +
                                ") runs no AI-core kernel, so it has no instructions to trace");
        selection.opIndex = static_cast<std::size_t>(found - ops.begin());
    }
    if (options.coreTraceStep) {
        if (*options.coreTraceStep >= stepsSimulated)
            throw WorkloadError(optionLocation("--core-trace-step"), "--core-trace-step",
                                "step " + std::to_string(*options.coreTraceStep) + " is not simulated (steps 0.." +
                                    std::to_string(stepsSimulated - 1) + " are)");
        selection.stepNumber = options.coreTraceStep;
    }
    return selection;
}

}  // namespace

bool replayable(const SimulationOptions& options, const ProfilerConfig& profiler) {
    return options.coreTracePath.empty() && !collectsHardwareSamples(profiler);
}

SimulationResult runSimulation(const SimulationOptions& options, const RankVariant& variant, const DeviceRun& device) {
    const auto wallStart = std::chrono::steady_clock::now();
    const RunIdentity identity = runIdentity(options);
    SimulationResult result;
    result.workload = loadWorkload(options.workloadPath, WorkloadOverrides{options.setOverrides, variant.pipelineStage});
    applyProfilerOverrides(options, result.workload);
    const Workload& workload = result.workload;

    const std::string chipName = !options.chipName.empty() ? options.chipName : workload.chip.value_or(kDefaultChip);
    result.chip = std::make_unique<ChipConfig>(loadChipByName(chipName, options.configDir, options.chipOverrides));
    result.variant = variant;
    if (variant.deviceSlowdown != 1.0) {
        // A throttled chip: its cores' clock is lower, everything they run takes F times the time.
        result.chip->aiCoreFreqMhz /= variant.deviceSlowdown;
        result.chip->vectorCoreFreqMhz /= variant.deviceSlowdown;
    }
    const ChipConfig& chip = *result.chip;
    validateWorkload(workload, chip.hbm.sizeBytes);

    const LoweredWorkload lowered(workload, chip);
    const HostStepBuilder stepBuilder(workload, lowered);
    spdlog::info("{}: {} ops lowered for {}", workload.name, lowered.ops().size(), chip.name);

    if (device.replay && !replayable(options, workload.profiler))
        throw std::logic_error("a run that samples device traffic or traces a core cannot be replayed");
    FreshSimulationContext context;
    DeviceBridge bridge = device.replay ? DeviceBridge(lowered, *device.replay)
                                        : DeviceBridge(chip, lowered, deviceOptionsFor(options));
    bridge.setCollectiveReleases(variant.collectiveReleaseNs);
    bridge.setCollectiveHbmTraffic(options.hcclTraffic);
    HostModelOptions hostOptions;
    hostOptions.profiler = workload.profiler;
    hostOptions.processId = identity.processId;
    hostOptions.hcclEnabled = workload.ranks > 1;
    hostOptions.startNs = variant.hostStartNs;
    HostModel host(hostOptions, bridge);
    result.stepsSimulated = stepsToSimulate(workload, options);
    if (options.coreTracePath.empty() && (options.coreTraceOp || options.coreTraceStep))
        throw WorkloadError(optionLocation("--core-trace"), options.coreTraceOp ? "--core-trace-op" : "--core-trace-step",
                            "needs --core-trace FILE (where to write the timeline)");
    if (!options.coreTracePath.empty())
        bridge.traceFirstLaunch(coreTraceSelection(options, lowered, result.stepsSimulated));
    if (result.stepsSimulated < workload.steps)
        spdlog::info("{}: stopping after step {} of {}: the profiler schedule records no later step, so nothing "
                     "observes them", workload.name, result.stepsSimulated, workload.steps);
    for (std::uint32_t step = 0; step < result.stepsSimulated; ++step) {
        host.runStep(stepBuilder.build(step, recordsStep(workload.profiler.schedule, step)));
        if (options.showProgress) {
            // A terminal user sees the run advance; pipes and CI logs stay clean.
            std::fprintf(stderr, "\rascendsim: step %u/%u simulated", step + 1, result.stepsSimulated);
            if (step + 1 == result.stepsSimulated) std::fputc('\n', stderr);
        }
    }

    RunRecord& record = result.record;
    host.finish(record);
    record.chip = &chip;
    record.epochNs = identity.epochNs;
    record.utcOffsetSeconds = identity.utcOffsetSeconds;
    record.processId = identity.processId;
    record.hostName = identity.hostName;
    record.workloadName = workload.name;
    record.rankId = options.rank.value_or(workload.ranks > 1 ? 0 : -1);
    result.ranks = workload.ranks;
    result.simulatedEndNs = host.hostNowNs();
    fillKernelRecords(lowered, host, bridge, chip, result);
    if (collectsHardwareSamples(workload.profiler) && bridge.deviceTraffic() != nullptr) {
        appendHardwareSamples(*bridge.deviceTraffic(), record);
    }
    if (!options.coreTracePath.empty()) {
        result.coreTrace = bridge.takeCoreTrace();
        if (!result.coreTrace)
            throw WorkloadError(optionLocation("--core-trace"), "--core-trace",
                                "no AI-core kernel launch matched (the workload launches none in the selected step)");
    }
    if (!bridge.replayFinished())
        throw std::logic_error("the replayed run submitted fewer kernels than its timeline holds");
    if (device.replay)
        result.deviceTimeline = device.replay;
    else if (device.keepTimeline)
        result.deviceTimeline = std::make_shared<const DeviceTimeline>(bridge.timeline());
    if (bridge.collectiveHbmTotals().windows > 0)
        spdlog::debug("{}: collectives put {:.1f} MB on HBM in {} transfer windows beside the kernels ({:.1f} MB in "
                      "time already simulated, charged to no kernel)",
                      workload.name, bridge.collectiveHbmTotals().hbmBytes / 1e6, bridge.collectiveHbmTotals().windows,
                      bridge.collectiveHbmTotals().hbmBytesAlreadySimulated / 1e6);
    result.deviceBlocks = bridge.instructionsSubmittedBlocks();
    result.deviceInstructions = bridge.deviceStats().instructions;
    result.wallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    return result;
}

}  // namespace ascendsim

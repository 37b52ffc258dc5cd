#include "profiler/readers/prof_raw/raw_run_rebuild.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <deque>
#include <map>
#include <tuple>

#include "profiler/metrics/metric_catalog.h"
#include "profiler/writers/db/db_cann_enums.h"
#include "profiler/writers/prof_raw/raw_ge_enums.h"
#include "profiler/writers/prof_raw/raw_hccl_data.h"
#include "profiler/writers/prof_raw/raw_l2_cache_data.h"
#include "profiler/writers/prof_raw/raw_type_dictionary.h"

namespace fs = std::filesystem;

namespace ascendsim {

namespace {

// Where a record of a file starts, for the error message (one slice per file, as written).
struct RecordPlace {
    fs::path file;
    std::size_t recordBytes;
    [[noreturn]] void fail(std::size_t index, const std::string& what) const {
        throw RawDataError(file.string(), index * recordBytes, what);
    }
};

class Rebuilder {
public:
    Rebuilder(const RawProfData& raw, const ChipConfig& chip) : raw_(raw), chip_(chip) {}

    RebuiltRun build() {
        out_.config = configOf();
        RunRecord& run = out_.run;
        run.chip = &chip_;
        run.deviceId = raw_.deviceId;
        run.processId = raw_.processId;
        run.mainThreadId = raw_.processId;
        run.epochNs = raw_.collectionTimeBeginUs * 1000;  // simulated time 0 = collection start
        run.endNs = raw_.endMonotonicNs - raw_.startMonotonicNs;
        apis();
        deviceTimes();
        tasks();
        markers();
        steps();
        return std::move(out_);
    }

private:
    fs::path hostData(const std::string& name) const { return raw_.root / "host" / "data" / (name + ".slice_0"); }
    fs::path deviceData(const std::string& name) const {
        return raw_.root / ("device_" + std::to_string(raw_.deviceId)) / "data" /
               (name + "." + std::to_string(raw_.deviceId) + ".slice_0");
    }

    bool on(const char* key) const { return raw_.sample.value(key, "off") == "on"; }

    ProfilerConfig configOf() const {
        ProfilerConfig c;
        c.formatVersion = FormatVersion::Era2023;
        c.activityCpu = false;
        c.activityNpu = true;
        c.dataSimplification = false;
        c.dataSimplificationGiven = true;
        const std::string taskTime = raw_.sample.value("task_time", "off");
        if (taskTime == "off") c.level = ProfilerLevel::LevelNone;
        else if (taskTime == "l0") c.level = ProfilerLevel::Level0;
        else c.level = on("runtimeApi") ? ProfilerLevel::Level2 : ProfilerLevel::Level1;
        AicMetrics group = AicMetrics::None;
        if (on("ai_core_profiling")) {
            std::string name = raw_.sample.value("ai_core_metrics", "");
            if (name == "PipeUtilizationExct") name = "PipeUtilization";  // the 910B AIC event set's name
            if (!parseAicMetrics(name, group) || group == AicMetrics::None)
                throw RawDataError((raw_.root / ("device_" + std::to_string(raw_.deviceId)) / "sample.json").string(), 0,
                                   "unknown ai_core_metrics '" + name + "'");
        }
        c.aicMetrics = group;
        c.l2Cache = on("l2CacheTaskProfiling");
        c.msprofTx = on("msproftx");
        // The collection's switches as profileConfig flags (sample.json, profiler_info: writers/tree).
        E2eProfile e2e;
        e2e.useE2eProfiler = !raw_.msprofTx.empty();
        e2e.flags.aclApi = on("acl");
        e2e.flags.taskTime = on("hwts_log");
        e2e.flags.aicoreMetrics = group != AicMetrics::None;
        e2e.flags.aicpu = on("aicpuTrace");
        e2e.flags.l2cache = c.l2Cache;
        e2e.flags.hcclTrace = on("hcclTrace");
        e2e.flags.trainingTrace = on("ts_keypoint");
        c.e2e = e2e;
        return c;
    }

    std::uint64_t simNs(std::uint64_t count, const RawClockPair& clock, const RecordPlace& place, std::size_t index) const {
        const double deltaNs = (static_cast<double>(count) - static_cast<double>(clock.count)) * 1000.0 / clock.freqMhz;
        const double monotonic = static_cast<double>(clock.monotonicNs) + std::round(deltaNs);
        if (monotonic < static_cast<double>(raw_.startMonotonicNs))
            place.fail(index, "system count " + std::to_string(count) + " is before the collection started");
        return static_cast<std::uint64_t>(monotonic) - raw_.startMonotonicNs;
    }

    const std::string& typeName(std::uint16_t level, std::uint32_t type, const RecordPlace& place, std::size_t i) const {
        auto it = raw_.types.find({level, type});
        if (it == raw_.types.end())
            place.fail(i, "type " + std::to_string(level) + "_" + std::to_string(type) + " is not in type_info_dic");
        return it->second;
    }
    const std::string& hashName(std::uint64_t id, const RecordPlace& place, std::size_t i) const {
        auto it = raw_.hashes.find(id);
        if (it == raw_.hashes.end()) place.fail(i, "id " + std::to_string(id) + " is not in hash_dic");
        return it->second;
    }

    void apis() {
        const RecordPlace place{hostData("unaging.api_event.data"), RawApiEvent::kBytes};
        for (std::size_t i = 0; i < raw_.apis.size(); ++i) {
            const RawApiEvent& a = raw_.apis[i];
            ApiRecord api;
            switch (a.level) {
                case kRawLevelAcl: api.level = ApiLevel::Acl; break;
                case kRawLevelModel: api.level = ApiLevel::Model; break;
                case kRawLevelNode: api.level = ApiLevel::Node; break;
                case kRawLevelHccl: api.level = ApiLevel::Communication; break;
                case kRawLevelRuntime: api.level = ApiLevel::Runtime; break;
                default: place.fail(i, "unknown API level " + std::to_string(a.level));
            }
            // HCCL calls are named by their op (itemId), the others by their type.
            api.name = api.level == ApiLevel::Communication ? hashName(a.itemId, place, i)
                                                            : typeName(a.level, a.type, place, i);
            api.threadId = a.threadId;
            api.startNs = simNs(a.begin, raw_.hostClock, place, i);
            api.endNs = simNs(a.end, raw_.hostClock, place, i);
            api.connectionId = i + 1;
            out_.run.apis.push_back(std::move(api));
            byBegin_[{a.threadId, a.begin}].push_back(i);
            byEnd_[{a.threadId, a.end}].push_back(i);
            if (out_.run.apis.back().level == ApiLevel::Node && out_.run.apis.back().name == "launch")
                launchByBegin_[{a.threadId, a.begin}] = i;
        }
    }

    // The calls of `level` named `name` (any name when empty) on `thread` that begin (or end) at `count`.
    std::size_t api(bool atBegin, std::uint32_t thread, std::uint64_t count, ApiLevel level, const std::string& name,
                    const RecordPlace& place, std::size_t i) {
        auto& index = atBegin ? byBegin_ : byEnd_;
        auto it = index.find({thread, count});
        if (it != index.end()) {
            for (std::size_t a : it->second) {
                const ApiRecord& call = out_.run.apis[a];
                if (call.level == level && (name.empty() || call.name == name)) return a;
            }
        }
        place.fail(i, std::string("no ") + (name.empty() ? "API" : name) + " call on thread " + std::to_string(thread) +
                          (atBegin ? " begins" : " ends") + " at system count " + std::to_string(count));
    }

    // The Node@launch that submitted a task tracked on `thread` at `count`: a kernel's ends there;
    // a collective's encloses it (HCCL's call inside the launch submits its FFTS+ task).
    std::size_t launchOfTrack(std::uint32_t thread, std::uint64_t count, const RecordPlace& place, std::size_t i) {
        if (auto it = byEnd_.find({thread, count}); it != byEnd_.end())
            for (std::size_t a : it->second)
                if (out_.run.apis[a].level == ApiLevel::Node && out_.run.apis[a].name == "launch") return a;
        auto it = launchByBegin_.upper_bound({thread, count});
        if (it != launchByBegin_.begin() && (--it)->first.first == thread && raw_.apis[it->second].end >= count)
            return it->second;
        place.fail(i, "no launch call on thread " + std::to_string(thread) + " ends at or encloses system count " +
                          std::to_string(count));
    }

    // Whether host record time `count` on `thread` lies within API call `a`.
    bool within(std::size_t a, std::uint32_t thread, std::uint64_t count) const {
        const RawApiEvent& call = raw_.apis[a];
        return call.threadId == thread && call.begin <= count && count <= call.end;
    }

    // A start or end of a task in the scheduler's log (stars_soc on STARS chips, hwts.data on the 910A).
    struct LogMark {
        bool start;
        std::uint16_t streamId, taskId;
        std::uint64_t sysCount;
    };

    // The device start and end of each (stream, task id), in log order.
    void deviceTimes() {
        const bool hwts = raw_.taskLog.empty() && !raw_.hwtsLog.empty();
        const RecordPlace place = hwts ? RecordPlace{deviceData("hwts.data"), RawHwtsLog::kBytes}
                                       : RecordPlace{deviceData("stars_soc.data"), RawStarsLog::kBytes};
        std::vector<LogMark> log;
        // A task's times are its ACSQ start and end; a MIX kernel's FFTS+ sub-task records repeat them.
        for (const RawStarsLog& r : raw_.taskLog)
            if (!r.subtask()) log.push_back({r.start(), r.streamId, r.taskId, r.sysCount});
        for (const RawHwtsLog& r : raw_.hwtsLog)
            log.push_back({r.logType == RawHwtsLog::kStart, static_cast<std::uint16_t>(r.streamId & 0x7FFu), r.taskId,
                           r.sysCount});
        // FFTS+ sub-tasks (a collective's HCCL tasks) by stream, task and context id, in log order.
        std::map<std::tuple<std::uint16_t, std::uint16_t, std::uint16_t>, std::deque<std::size_t>> openSubtasks;
        for (std::size_t i = 0; i < raw_.taskLog.size(); ++i) {
            const RawStarsLog& r = raw_.taskLog[i];
            if (!r.subtask()) continue;
            const auto key = std::make_tuple(r.streamId, r.taskId, r.subtaskId);
            if (r.start()) {
                openSubtasks[key].push_back(i);
                continue;
            }
            auto it = openSubtasks.find(key);
            if (it == openSubtasks.end() || it->second.empty())
                place.fail(i, "sub-task end without a start (stream " + std::to_string(r.streamId) + ", task " +
                                  std::to_string(r.taskId) + ", context " + std::to_string(r.subtaskId) + ")");
            const std::size_t s = it->second.front();
            it->second.pop_front();
            subtaskTimes_[key].push_back({simNs(raw_.taskLog[s].sysCount, raw_.deviceClock, place, s),
                                          simNs(r.sysCount, raw_.deviceClock, place, i)});
        }
        std::map<std::pair<std::uint16_t, std::uint16_t>, std::deque<std::size_t>> open;
        for (std::size_t i = 0; i < log.size(); ++i) {
            const LogMark& r = log[i];
            const auto key = std::make_pair(r.streamId, r.taskId);
            if (r.start) {
                open[key].push_back(i);
                continue;
            }
            auto it = open.find(key);
            if (it == open.end() || it->second.empty())
                place.fail(i, "task end without a start (stream " + std::to_string(r.streamId) + ", task " +
                                  std::to_string(r.taskId) + ")");
            const std::size_t s = it->second.front();
            it->second.pop_front();
            times_[key].push_back({simNs(log[s].sysCount, raw_.deviceClock, place, s),
                                   simNs(r.sysCount, raw_.deviceClock, place, i)});
        }
        for (const auto& [key, starts] : open)
            if (!starts.empty()) place.fail(starts.front(), "task start without an end");
    }

    std::pair<std::uint64_t, std::uint64_t> takeTimes(const RawTaskTrack& t, const RecordPlace& place, std::size_t i) {
        auto it = times_.find({t.streamId, static_cast<std::uint16_t>(t.taskId)});
        if (it == times_.end() || it->second.empty())
            place.fail(i, "stream " + std::to_string(t.streamId) + " task " + std::to_string(t.taskId) +
                              " has no start and end in the task log (stars_soc.data or hwts.data)");
        auto times = it->second.front();
        it->second.pop_front();
        return times;
    }

    void tasks() {
        const RecordPlace nodePlace{hostData("aging.compact.node_basic_info"), RawCompactHeader::kRecordBytes};
        const RecordPlace trackPlace{hostData("aging.compact.task_track"), RawCompactHeader::kRecordBytes};
        const RecordPlace tensorPlace{hostData("unaging.additional.tensor_info"), RawTensorInfo::kRecordBytes};
        // Kernels: GE's node record at the start of its Node@launch.
        std::map<std::size_t, std::size_t> kernelOfLaunch;  // launch API index -> node index
        for (std::size_t i = 0; i < raw_.nodes.size(); ++i) {
            const RawNodeBasicInfo& n = raw_.nodes[i];
            const std::size_t launch = api(true, n.header.threadId, n.header.timestamp, ApiLevel::Node, "launch",
                                           nodePlace, i);
            kernelOfLaunch[launch] = i;
        }
        // GE's context ids of the nodes that run as FFTS+ contexts (MIX kernels), by thread, time and op.
        std::map<std::tuple<std::uint32_t, std::uint64_t, std::uint64_t>, std::vector<std::uint32_t>> contextIdsOf;
        for (const RawContextIdInfo& c : raw_.contextIds)
            if (c.header.level == RawContextIdInfo::kNodeLevel)
                contextIdsOf[{c.header.threadId, c.header.timestamp, c.opName}] = c.contextIds;
        std::map<std::tuple<std::uint32_t, std::uint64_t, std::uint64_t>, std::deque<std::size_t>> tensorsOf;
        for (std::size_t i = 0; i < raw_.tensors.size(); ++i) {
            const RawTensorInfo& t = raw_.tensors[i];
            tensorsOf[{t.header.threadId, t.header.timestamp, t.opName}].push_back(i);
        }
        const std::vector<PmuEvent> aicEvents = profiledEvents(*out_.config.aicMetrics, CoreSide::Aic);
        const std::vector<PmuEvent> aivEvents = profiledEvents(*out_.config.aicMetrics, CoreSide::Aiv);
        std::map<std::pair<std::uint16_t, std::uint16_t>, std::deque<std::size_t>> pmuOf, aicpuOf;
        for (std::size_t i = 0; i < raw_.aicpu.size(); ++i)
            aicpuOf[{raw_.aicpu[i].streamId, raw_.aicpu[i].taskId}].push_back(i);
        const RecordPlace aicpuPlace{deviceData("aicpu.data"), RawAicpuNode::kBytes};
        const RecordPlace l2Place{deviceData("l2_cache.data"), RawL2Cache::kBytes};
        std::map<std::pair<std::uint16_t, std::uint16_t>, std::deque<std::size_t>> l2Of;
        for (std::size_t i = 0; i < raw_.l2Cache.size(); ++i)
            l2Of[{raw_.l2Cache[i].streamId, raw_.l2Cache[i].taskId}].push_back(i);
        std::map<std::pair<std::uint16_t, std::uint16_t>, std::deque<std::size_t>> blocksOf;  // MIX second sides
        for (std::size_t i = 0; i < raw_.pmu.size(); ++i)
            (raw_.pmu[i].func == RawFftsPmu::kFuncBlock ? blocksOf : pmuOf)[{raw_.pmu[i].streamId, raw_.pmu[i].taskId}]
                .push_back(i);
        const RecordPlace pmuPlace{deviceData("ffts_profile.data"), RawFftsPmu::kBytes};
        const std::vector<PmuEvent> coupledEvents = profiledEvents(*out_.config.aicMetrics, CoreSide::Coupled);
        std::map<std::pair<std::uint16_t, std::uint16_t>, std::deque<std::size_t>> aicoreOf;
        for (std::size_t i = 0; i < raw_.aicorePmu.size(); ++i) {
            const RawAicPmu& p = raw_.aicorePmu[i];
            aicoreOf[{static_cast<std::uint16_t>(p.streamId & 0x7FFu), p.taskId}].push_back(i);
        }

        RunRecord& run = out_.run;
        for (std::size_t i = 0; i < raw_.tracks.size(); ++i) {
            const RawTaskTrack& t = raw_.tracks[i];
            const std::string& taskType = typeName(kRawLevelRuntime, static_cast<std::uint32_t>(t.taskType), trackPlace, i);
            const auto [startNs, endNs] = takeTimes(t, trackPlace, i);
            if (t.kernelName == 0) {
                // A copy or a stream event: launched by the AscendCL call that ends where it is tracked.
                const std::size_t call = api(false, t.header.threadId, t.header.timestamp, ApiLevel::Acl, "", trackPlace, i);
                if (taskType == "MEMCPY_ASYNC") {
                    MemcpyTaskRecord m;
                    m.startNs = startNs, m.endNs = endNs, m.streamId = t.streamId, m.taskId = t.taskId;
                    m.correlationId = run.apis[call].connectionId;
                    run.memcpyTasks.push_back(m);
                } else if (taskType == "EVENT_RECORD" || taskType == "EVENT_WAIT") {
                    StreamEventTaskRecord e;
                    e.kind = taskType == "EVENT_WAIT" ? StreamEventKind::Wait : StreamEventKind::Record;
                    e.startNs = startNs, e.endNs = endNs, e.streamId = t.streamId, e.taskId = t.taskId;
                    e.correlationId = run.apis[call].connectionId;
                    run.eventTasks.push_back(e);
                } else {
                    trackPlace.fail(i, "task type " + taskType + " without a kernel");
                }
                continue;
            }
            const std::size_t launch = launchOfTrack(t.header.threadId, t.header.timestamp, trackPlace, i);
            auto node = kernelOfLaunch.find(launch);
            if (node == kernelOfLaunch.end()) trackPlace.fail(i, "kernel task without a node_basic_info record");
            const RawNodeBasicInfo& n = raw_.nodes[node->second];
            if (n.opName != t.kernelName) trackPlace.fail(i, "kernel name differs from its node_basic_info record");
            if (n.taskType == kGeTaskTypeHccl) {
                collective(n, node->second, t, launch, startNs, endNs);
                continue;
            }
            KernelRecord k;
            k.name = hashName(n.opName, nodePlace, node->second);
            k.opType = hashName(n.opType, nodePlace, node->second);
            if (!taskTypeOfGe(n.taskType, k.device.type))
                nodePlace.fail(node->second, "unknown GE task type " + std::to_string(n.taskType));
            k.device.blockDim = n.blockNum & 0xFFFFu;
            k.device.mixBlockDim = (n.blockNum >> 16) * k.device.blockDim;
            k.hf32Eligible = n.opFlag != 0;
            if (k.device.type == TaskType::MixAic || k.device.type == TaskType::MixAiv) {
                const auto ids = contextIdsOf.find({n.header.threadId, n.header.timestamp, n.opName});
                if (ids == contextIdsOf.end() || ids->second != std::vector<std::uint32_t>{0})
                    nodePlace.fail(node->second, "MIX kernel " + k.name +
                                                     " without its context_id_info record (FFTS+ context 0)");
            }
            k.device.streamId = t.streamId;
            k.device.taskId = t.taskId;
            k.taskId = t.taskId;
            k.device.startNs = startNs;
            k.device.endNs = endNs;
            k.device.submitNs = startNs;  // the AI CPU record's submit count for AI CPU tasks, below
            if (auto it = aicpuOf.find({t.streamId, static_cast<std::uint16_t>(t.taskId)});
                k.device.type == TaskType::AiCpu && it != aicpuOf.end() && !it->second.empty()) {
                const std::size_t r = it->second.front();
                it->second.pop_front();
                k.device.submitNs = simNs(raw_.aicpu[r].submitTick, raw_.deviceClock, aicpuPlace, r);
            }
            k.correlationId = run.apis[launch].connectionId;
            const RawApiEvent& launchCall = raw_.apis[launch];
            if (auto it = tensorsOf.find({launchCall.threadId, launchCall.begin, n.opName}); it != tensorsOf.end()) {
                for (std::size_t r : it->second) addTensors(k, raw_.tensors[r], tensorPlace, r);
                it->second.clear();
            }
            if (auto it = l2Of.find({t.streamId, static_cast<std::uint16_t>(t.taskId)}); it != l2Of.end() &&
                                                                                         !it->second.empty()) {
                const std::size_t r = it->second.front();
                it->second.pop_front();
                if (!applyRawL2Cache(raw_.l2Cache[r], chip_, k.device)) l2Place.fail(r, "more L2 hits than requests");
            }
            if (auto it = pmuOf.find({t.streamId, static_cast<std::uint16_t>(t.taskId)}); it != pmuOf.end() &&
                                                                                          !it->second.empty()) {
                const std::size_t r = it->second.front();
                it->second.pop_front();
                const RawFftsPmu& p = raw_.pmu[r];
                const bool mix = p.fftsType == RawFftsPmu::kFftsPlus;
                if (mix != (k.device.type == TaskType::MixAic || k.device.type == TaskType::MixAiv))
                    pmuPlace.fail(r, "FFTS type " + std::to_string(p.fftsType) + " of a " + k.opType + " task of GE type " +
                                         std::to_string(n.taskType));
                const bool aic = mix ? p.subtaskType == RawFftsPmu::kSubtaskMixAic : p.fftsType == RawFftsPmu::kFftsNormal;
                addCounts(aic ? k.device.cubeSum : k.device.vectorSum, p, aic ? aicEvents : aivEvents);
                // The second side: one block record per block of the mix block dim, summed.
                auto blocks = blocksOf.find({t.streamId, static_cast<std::uint16_t>(t.taskId)});
                for (std::uint32_t b = 0; mix && b < k.device.mixBlockDim; ++b) {
                    if (blocks == blocksOf.end() || blocks->second.empty())
                        pmuPlace.fail(r, "MIX task (stream " + std::to_string(t.streamId) + ", task " +
                                             std::to_string(t.taskId) + ") has " + std::to_string(b) + " of its " +
                                             std::to_string(k.device.mixBlockDim) + " block PMU records");
                    const RawFftsPmu& block = raw_.pmu[blocks->second.front()];
                    blocks->second.pop_front();
                    addCounts(aic ? k.device.vectorSum : k.device.cubeSum, block, aic ? aivEvents : aicEvents);
                }
            }
            if (auto it = aicoreOf.find({t.streamId, static_cast<std::uint16_t>(t.taskId)}); it != aicoreOf.end() &&
                                                                                             !it->second.empty()) {
                const RawAicPmu& p = raw_.aicorePmu[it->second.front()];
                it->second.pop_front();
                k.device.cubeSum.totalCycles = p.totalCycles;
                for (std::size_t e = 0; e < coupledEvents.size() && e < p.pmu.size(); ++e)
                    k.device.cubeSum[coupledEvents[e]] = p.pmu[e];
            }
            run.kernels.push_back(std::move(k));
        }
    }

    // A collective: GE's node (name, op type), its hccl_op_info (communicator, algorithm, data
    // type, count) at the launch, one hccl_info per HCCL task within the launch (raw_hccl_data.h:
    // HCCL reports them in its call inside it, with the contexts' range) with the times of its
    // FFTS+ sub-task (the context id) in the STARS log.
    void collective(const RawNodeBasicInfo& n, std::size_t nodeIndex, const RawTaskTrack& t, std::size_t launch,
                    std::uint64_t startNs, std::uint64_t endNs) {
        const RecordPlace nodePlace{hostData("aging.compact.node_basic_info"), RawCompactHeader::kRecordBytes};
        const RecordPlace opPlace{hostData("aging.compact.hccl_op_info"), RawCompactHeader::kRecordBytes};
        const RecordPlace infoPlace{hostData("unaging.additional.hccl_info"), RawHcclInfo::kRecordBytes};
        const RecordPlace logPlace{deviceData("stars_soc.data"), RawStarsLog::kBytes};
        CommunicationOpRecord op;
        op.name = hashName(n.opName, nodePlace, nodeIndex);
        op.opType = hashName(n.opType, nodePlace, nodeIndex);
        const auto opInfo = std::find_if(raw_.hcclOpInfo.begin(), raw_.hcclOpInfo.end(), [&](const RawHcclOpInfo& o) {
            return o.header.threadId == n.header.threadId && o.header.timestamp == n.header.timestamp;
        });
        if (opInfo == raw_.hcclOpInfo.end()) nodePlace.fail(nodeIndex, "collective " + op.name + " without its hccl_op_info");
        const std::size_t o = static_cast<std::size_t>(opInfo - raw_.hcclOpInfo.begin());
        op.groupName = std::to_string(opInfo->groupName);
        op.algorithm = hashName(opInfo->algType, opPlace, o);
        op.dataType = hcclDataTypeName(opInfo->dataType);
        op.count = opInfo->count;
        op.startNs = startNs;
        op.endNs = endNs;
        op.correlationId = out_.run.apis[launch].connectionId;
        op.streamId = t.streamId;
        op.taskId = t.taskId;
        // HCCL's context range of the op (msprof pairs each hccl_info with a context of it).
        std::optional<std::pair<std::uint32_t, std::uint32_t>> contexts;
        for (const RawContextIdInfo& c : raw_.contextIds)
            if (c.header.level == RawContextIdInfo::kHcclLevel && c.opName == n.opName && c.contextIds.size() == 2 &&
                within(launch, c.header.threadId, c.header.timestamp))
                contexts = std::make_pair(c.contextIds[0], c.contextIds[1]);
        for (std::size_t i = 0; i < raw_.hcclInfo.size(); ++i) {
            const RawHcclInfo& info = raw_.hcclInfo[i];
            if (!within(launch, info.header.threadId, info.header.timestamp)) continue;
            std::optional<HcclTask> task = hcclTaskOf(info, hashName(info.itemId, infoPlace, i));
            if (!task) infoPlace.fail(i, "hccl_info names no HCCL task (Memcpy, Notify_Record, ...) or link");
            if (!contexts || task->contextId < contexts->first || task->contextId > contexts->second)
                infoPlace.fail(i, "HCCL task (context " + std::to_string(task->contextId) + ") of " + op.name +
                                      " outside its HCCL-level context_id_info range");
            op.rankSize = info.rankSize;
            const auto key = std::make_tuple(t.streamId, static_cast<std::uint16_t>(t.taskId),
                                             static_cast<std::uint16_t>(task->contextId));
            auto times = subtaskTimes_.find(key);
            if (times == subtaskTimes_.end() || times->second.empty())
                infoPlace.fail(i, "HCCL task (context " + std::to_string(task->contextId) + ") of " + op.name +
                                      " has no sub-task start and end in the STARS log");
            const auto [taskStart, taskEnd] = times->second.front();
            times->second.pop_front();
            if (taskStart < startNs) logPlace.fail(0, "HCCL task of " + op.name + " starts before its collective");
            task->startNs = taskStart - startNs;
            task->durationNs = taskEnd - taskStart;
            op.tasks.push_back(*task);
        }
        out_.run.communicationOps.push_back(std::move(op));
    }

    static void addCounts(PmuCounters& into, const RawFftsPmu& p, const std::vector<PmuEvent>& events) {
        into.totalCycles += p.totalCycles;
        for (std::size_t e = 0; e < events.size() && e < p.pmu.size(); ++e) into[events[e]] += p.pmu[e];
    }

    void addTensors(KernelRecord& k, const RawTensorInfo& info, const RecordPlace& place, std::size_t i) const {
        for (const RawTensorData& t : info.tensors) {
            TensorDescription d;
            const auto dtype = geDataTypeName(t.dataType);
            const auto format = geFormatName(t.format);
            if (!dtype) place.fail(i, "unknown GE data type " + std::to_string(t.dataType));
            if (!format) place.fail(i, "unknown GE format " + std::to_string(t.format));
            d.dtype = *dtype;
            d.format = *format;
            std::size_t dims = t.shape.size();
            while (dims > 0 && t.shape[dims - 1] == 0) --dims;
            for (std::size_t j = 0; j < dims; ++j) {
                if (j != 0) d.shape += ',';
                d.shape += std::to_string(t.shape[j]);
            }
            if (t.tensorType == 0) k.inputs.push_back(std::move(d));
            else if (t.tensorType == 1) k.outputs.push_back(std::move(d));
            else place.fail(i, "tensor type " + std::to_string(t.tensorType) + " (0 input, 1 output)");
        }
    }

    void markers() {
        const RecordPlace place{hostData("unaging.additional.msproftx"), RawMsprofTx::kBytes};
        std::map<std::uint64_t, std::size_t> byMark;  // mark id -> index in mstxEvents
        for (std::size_t i = 0; i < raw_.msprofTx.size(); ++i) {
            const RawMsprofTx& r = raw_.msprofTx[i];
            auto [it, first] = byMark.emplace(r.markId, out_.run.mstxEvents.size());
            if (!first) {
                out_.run.mstxEvents[it->second].message += r.message;  // the next 155-byte segment
                continue;
            }
            MstxEventRecord m;
            m.kind = r.eventType == 3 ? MstxEventKind::Mark : MstxEventKind::Range;
            m.message = r.message;
            m.domain = hashName(r.domainId, place, i);
            m.startNs = simNs(r.start, raw_.hostClock, place, i);
            m.endNs = simNs(r.end, raw_.hostClock, place, i);
            m.threadId = r.threadId;
            m.markId = r.markId;
            out_.run.mstxEvents.push_back(std::move(m));
        }
    }

    // Each step from its start and end marks (the same index id), in the order the steps end.
    void steps() {
        const RecordPlace place{deviceData("ts_track.data"), RawStepTrace::kBytes};
        std::map<std::uint64_t, std::size_t> open;  // index id -> its start mark
        for (std::size_t i = 0; i < raw_.stepTrace.size(); ++i) {
            const RawStepTrace& r = raw_.stepTrace[i];
            if (r.tagId == RawStepTrace::kStepStart) {
                if (!open.emplace(r.indexId, i).second)
                    place.fail(i, "step " + std::to_string(r.indexId) + " starts twice");
            } else if (r.tagId == RawStepTrace::kStepEnd) {
                auto it = open.find(r.indexId);
                if (it == open.end()) place.fail(i, "step " + std::to_string(r.indexId) + " ends without a start");
                StepRecord step;
                step.stepNumber = static_cast<std::uint32_t>(r.indexId);
                step.startNs = simNs(raw_.stepTrace[it->second].timestamp, raw_.deviceClock, place, it->second);
                step.endNs = simNs(r.timestamp, raw_.deviceClock, place, i);
                open.erase(it);
                out_.run.steps.push_back(step);
            } else {
                place.fail(i, "step trace tag " + std::to_string(r.tagId) + " (60000 step start, 60001 step end)");
            }
        }
        if (!open.empty())
            place.fail(open.begin()->second, "step " + std::to_string(open.begin()->first) + " has no end");
    }

    const RawProfData& raw_;
    const ChipConfig& chip_;
    RebuiltRun out_;
    std::map<std::pair<std::uint32_t, std::uint64_t>, std::vector<std::size_t>> byBegin_, byEnd_;
    std::map<std::pair<std::uint32_t, std::uint64_t>, std::size_t> launchByBegin_;  // Node@launch calls
    std::map<std::pair<std::uint16_t, std::uint16_t>, std::deque<std::pair<std::uint64_t, std::uint64_t>>> times_;
    std::map<std::tuple<std::uint16_t, std::uint16_t, std::uint16_t>, std::deque<std::pair<std::uint64_t, std::uint64_t>>>
        subtaskTimes_;
};

}  // namespace

bool rawDataRebuildsRun(const RunRecord& run, const ProfilerConfig& config) {
    if (run.chip == nullptr) return false;
    // A collective's HCCL tasks are FFTS+ sub-tasks in the STARS log (the 910A's HWTS log has none)
    // and hccl_info records (ACL_PROF_HCCL_TRACE); without them the export reads the run.
    if (!run.communicationOps.empty() &&
        (run.chip->organisation != CoreOrganisation::Split || !config.e2e || !config.e2e->flags.hcclTrace ||
         !config.e2e->flags.taskTime))
        return false;
    // A coupled chip's vector-core tasks (the 310P's) would need its aiVectorCore.data, which is not
    // written (no kernel model places a task there: docs/output-formats.md).
    if (run.chip->organisation == CoreOrganisation::Split || config.effectiveAicMetrics() == AicMetrics::None)
        return true;
    for (const KernelRecord& k : run.kernels)
        if (k.device.type == TaskType::AiVectorCore) return false;
    return true;
}

RebuiltRun rebuildRunFromRaw(const RawProfData& raw, const ChipConfig& chip) { return Rebuilder(raw, chip).build(); }

}  // namespace ascendsim

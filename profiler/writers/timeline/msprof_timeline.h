#pragma once
// The CANN msprof timeline (msprof_{ts}.json, formats.md §4.2) as an ordered list of events:
// the MsprofTx process (mstx markers), the CANN host-API process, Ascend Hardware (one thread per stream), HCCL (collectives and their
// tasks), Overlap Analysis, and the
// AI Core Freq counter. trace_view.json embeds it (after Level0 pruning), step_trace_time.csv is
// computed from its Overlap Analysis events.
//
// Era differences (FormatVersion) are data in TimelineEra: the process sort-index enum moved
// between CANN releases, the C++ writer orders keys differently from the old Python one, labels
// gained the device id, and flow ids became `connection_id << 32`.
#include <cstdint>
#include <string>
#include <vector>

#include "profiler/config/profiler_config.h"
#include "profiler/record/run_record.h"
#include "profiler/writers/json/json_text.h"
#include "profiler/writers/timeline/trace_event.h"

namespace ascendsim {

struct TimelineEra {
    std::uint32_t msprofTxSortIndex = 6;   // LAYER_FRAMEWORK_SORT (both msprof writers)
    std::uint32_t cannSortIndex = 7;
    std::uint32_t hardwareSortIndex = 14;
    std::uint32_t aiCoreFreqSortIndex = 15;
    std::uint32_t overlapSortIndex = 31;
    std::uint32_t npuMemSortIndex = 17;
    std::uint32_t hcclSortIndex = 16;      // the "HCCL" (Communication) process
    bool hostLayersUseDevice31 = true;     // C++ msprof: host layers carry deviceId 31 in the pid
    bool labelsCarryDeviceId = true;       // "NPU 0" (C++) vs "NPU" (Python msprof)
    bool cppKeyOrder = true;               // key order of msprof's C++ JsonWriter
    bool flowIdShifted = true;             // HostToDevice id = connection_id << 32 (ConnectionIdPool)
    bool overlapEventsHaveArgs = true;     // C++ OverlapEvent dumps "args": {}
    bool eventsSortedByTime = false;       // Python msprof: metadata first, then all events by ts
    std::string communicationApiPrefix = "Communication";  // old Python msprof: "Hccl"
    bool hasAiCoreFreqCounter = true;      // the 2024 (910A) samples have no AI Core Freq process
};

TimelineEra timelineEra(FormatVersion version);

// The mstx markers' process. msprof's C++ writer names it after info.json's pid_name and its
// Python writer "PID Name" when info.json has none (ascendsim's, like the public sample's, has
// none); assumed: the layer's own name, which CANN 6/7's timeline shows (issue 14's E2E page).
inline constexpr const char* kMsprofTxProcessName = "MsprofTx";
// msprof's START_CONNECTION_ID_MSTX (DEFAULT_CONNECTION_ID_MSTX 4000000000 + 1): an mstx marker's
// connection id is its mark id plus this (msproftx_host_processor.cpp FormatTxExData).
inline constexpr std::uint64_t kMstxFirstConnectionId = 4000000001ULL;
std::uint64_t mstxConnectionId(const MstxEventRecord& event);

// (pid << 10) | (sortIndex << 5) | deviceId, in 32 bits as msprof computes it.
std::uint32_t formatTracePid(std::uint32_t pid, std::uint32_t sortIndex, std::uint32_t deviceId);

// The pid of the Ascend Hardware process (kernels and their flow ends live there).
std::uint32_t ascendHardwarePid(const RunRecord& run, FormatVersion version);

// Absolute µs string of a simulated time ("1736405443881410.320").
std::string traceTimestamp(const RunRecord& run, std::uint64_t simNs);

// The "Task Type" arg of a kernel on the Ascend Hardware process. msprof shows the compute task
// info type (AI_CORE, AI_VECTOR_CORE, MIX_AIC, ...) when it has one and the hardware (SQE) type
// otherwise. Real samples: the 8.0 era shows the SQE type at every level (vector kernels are
// "AI_CORE", e5a31957 level0/1/2), the 2024 era on 910A "Other" (c1e639ee), and at Level0
// (task time l0: no compute type) the SQE type is all there is.
std::string hardwareTaskTypeArg(TaskType type, const ProfilerConfig& config);

// Flow id text of a HostToDevice flow for a connection id, per era.
std::string hostToDeviceFlowId(std::uint64_t connectionId, FormatVersion version);

// All msprof timeline events for the run (empty at Level_none or without NPU activity).
// Level pruning for trace_view is applied while renderTraceView writes (torch_npu's
// LEVEL_TRACE_PRUNE_CONFIG: at Level0 the CANN host-layer events are dropped).
std::vector<TraceEvent> buildMsprofTraceEvents(const RunRecord& run, const ProfilerConfig& config);
// The same as JSON objects (the era-2023 export reshapes them; tests read them so).
std::vector<OrderedJson> buildMsprofTimeline(const RunRecord& run, const ProfilerConfig& config);

// msprof_{ts}.json text as msprof's C++ JsonWriter (rapidjson) writes it: one compact array with
// "," and ":" separators, shortest round-trip doubles.
std::string renderMsprofTimelineJson(const std::vector<TraceEvent>& timeline);
std::string renderMsprofTimelineJson(const std::vector<OrderedJson>& timeline);

}  // namespace ascendsim

#include "profiler/writers/tree/profiler_info.h"

#include "profiler/writers/json/json_text.h"

namespace ascendsim {

namespace {

// Versions the Cann83 era imitates (the 8.3.RC1 sample's profiler_info).
constexpr const char* kTorchNpuVersion = "2.7.1";
constexpr const char* kCannVersion = "8.3.RC1";
// start_info.freq default when the system counter is not used (torch_npu writes 100).
constexpr int kDefaultSyscntFreq = 100;

const char* exportTypeName(ExportType t) { return t == ExportType::Db ? "db" : "text"; }

OrderedJson commonConfig(const ProfilerConfig& config) {
    OrderedJson common;
    OrderedJson activities = OrderedJson::array();
    if (config.activityCpu) activities.push_back("ProfilerActivity.CPU");
    if (config.activityNpu) activities.push_back("ProfilerActivity.NPU");
    common["activities"] = activities;
    if (config.schedule) {
        OrderedJson s;
        s["wait"] = config.schedule->wait;
        s["active"] = config.schedule->active;
        s["warmup"] = config.schedule->warmup;
        s["repeat"] = config.schedule->repeat;
        s["skip_first"] = config.schedule->skipFirst;
        common["schedule"] = s;
    } else {
        common["schedule"] = nullptr;
    }
    common["record_shapes"] = config.recordShapes;
    common["profile_memory"] = config.profileMemory;
    common["with_stack"] = config.withStack;
    common["with_flops"] = config.withFlops;
    common["with_modules"] = config.withModules;
    return common;
}

OrderedJson experimentalConfig(const ProfilerConfig& config) {
    const bool current = config.formatVersion == FormatVersion::Cann83;
    OrderedJson e;
    e["_profiler_level"] = std::string(profilerLevelName(config.level));
    e["_aic_metrics"] = std::string(aicMetricsAclName(config.effectiveAicMetrics()));
    e["_l2_cache"] = config.l2Cache;
    e["_msprof_tx"] = config.msprofTx;
    if (current) e["_mstx"] = config.msprofTx;
    e["_data_simplification"] = config.dataSimplification;
    e["record_op_args"] = config.recordOpArgs;
    if (current) {
        OrderedJson types = OrderedJson::array();
        for (auto t : config.exportTypes) types.push_back(exportTypeName(t));
        e["_export_type"] = types;
        e["_host_sys"] = OrderedJson::array();
    } else if (config.exportTypes.size() == 1) {
        e["_export_type"] = exportTypeName(config.exportTypes.front());  // old releases: a plain string
    } else {
        OrderedJson types = OrderedJson::array();
        for (auto t : config.exportTypes) types.push_back(exportTypeName(t));
        e["_export_type"] = types;
    }
    e["_op_attr"] = config.opAttr;
    e["_gc_detect_threshold"] = nullptr;
    if (current) {
        e["_mstx_domain_include"] = OrderedJson::array();
        e["_mstx_domain_exclude"] = OrderedJson::array();
        e["_sys_io"] = false;
        e["_sys_interconnection"] = false;
    }
    return e;
}

}  // namespace

std::string profilerInfoFileName(const RunRecord& run) {
    return run.rankId >= 0 ? "profiler_info_" + std::to_string(run.rankId) + ".json" : "profiler_info.json";
}

std::string renderProfilerInfo(const RunRecord& run, const ProfilerConfig& config, std::uint64_t collectionStartNs,
                               std::uint64_t collectionEndNs) {
    OrderedJson root;
    root["config"]["common_config"] = commonConfig(config);
    root["config"]["experimental_config"] = experimentalConfig(config);
    OrderedJson start;
    start["syscnt_enable"] = false;
    start["freq"] = kDefaultSyscntFreq;
    start["start_cnt"] = 0;
    start["start_monotonic"] = monotonicNs(collectionStartNs);
    root["start_info"] = start;
    OrderedJson end;
    end["collectionTimeEnd"] = run.epochNs + collectionEndNs;
    end["MonotonicTimeEnd"] = monotonicNs(collectionEndNs);
    root["end_info"] = end;
    if (config.formatVersion == FormatVersion::Cann83) {
        root["torch_npu_version"] = kTorchNpuVersion;
        root["cann_version"] = kCannVersion;
    }
    if (run.rankId >= 0) {
        // RANK from the environment is a string in current releases; older ones stored an int.
        if (config.formatVersion == FormatVersion::Cann83) root["rank_id"] = std::to_string(run.rankId);
        else root["rank_id"] = run.rankId;
    }
    return dumpPythonJsonIndented(root, 4, true);
}

}  // namespace ascendsim

// Metadata files of the PROF_* tree: info.json, sample.json, start/end_info, *_start.log.
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <set>

#include "profiler/format/time_format.h"
#include "profiler/metrics/metric_catalog.h"
#include "profiler/writers/json/json_text.h"
#include "profiler/writers/era2023/era2023_data_selection.h"
#include "profiler/writers/prof_raw/raw_l2_cache_data.h"
#include "profiler/writers/tree/prof_tree.h"
#include "profiler/writers/tree/profiler_info.h"

namespace ascendsim {

namespace {

constexpr double kNsPerUs = 1000.0;
constexpr std::uint64_t kNsPerSecond = 1'000'000'000ULL;
constexpr const char* kHostDeviceId = "64";

std::string mhzText(double mhz) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", mhz);
    return text;
}

OrderedJson deviceInfo(const RunRecord& run) {
    const ChipConfig& chip = *run.chip;
    const std::uint32_t aiCpus = chip.aiCpu.count;
    std::string aiCpuList;
    for (std::uint32_t i = 1; i <= aiCpus; ++i) {
        if (i != 1) aiCpuList += ", ";
        aiCpuList += std::to_string(i);
    }
    // AI CPUs are cores 1..n of the device's control cluster (core 0 is the control CPU).
    const std::uint64_t occupyBitmap = aiCpus == 0 ? 0 : ((1ULL << aiCpus) - 1) << 1;
    OrderedJson d;
    d["id"] = run.deviceId;
    d["env_type"] = 3;
    d["ctrl_cpu_id"] = "ARMv8_Cortex_A55";
    d["ctrl_cpu_core_num"] = 1;
    d["ctrl_cpu_endian_little"] = 1;
    d["ts_cpu_core_num"] = 1;
    d["ai_cpu_core_num"] = aiCpus;
    d["ai_core_num"] = chip.aiCoreCount;
    d["ai_cpu_core_id"] = 1;
    d["ai_core_id"] = 0;
    d["aicpu_occupy_bitmap"] = occupyBitmap;
    d["ctrl_cpu"] = "0";
    d["ai_cpu"] = aiCpuList;
    d["aiv_num"] = chip.organisation == CoreOrganisation::Split ? chip.vectorCoreCount : 0;
    d["hwts_frequency"] = mhzText(chip.hwtsFreqMhz);
    d["aic_frequency"] = mhzText(chip.aiCoreFreqMhz);
    d["aiv_frequency"] = mhzText(chip.vectorCoreFreqMhz > 0 ? chip.vectorCoreFreqMhz : chip.aiCoreFreqMhz);
    return d;
}

OrderedJson infoJson(const RunRecord& run, bool withDevice) {
    OrderedJson info;
    info["jobInfo"] = "NA";
    // The host directory's info.json names the host as device 64 (Ascend/msprof
    // common_func/ms_constant/number_constant.py HOST_ID; config_data_parsers.py runs the host
    // parsers only for it).
    info["devices"] = withDevice ? std::to_string(run.deviceId) : std::string(kHostDeviceId);
    OrderedJson cpu;
    cpu["Id"] = 0;
    cpu["Name"] = "ascendsim";
    // CPU[0].Frequency is the host system counter frequency torch_npu converts syscnt with.
    char frequency[32];
    std::snprintf(frequency, sizeof frequency, "%f", run.chip->hwtsFreqMhz);
    cpu["Frequency"] = frequency;
    cpu["Logical_CPU_Count"] = 1;
    cpu["Type"] = "ascendsim host model";
    info["CPU"] = OrderedJson::array({cpu});
    info["DeviceInfo"] = withDevice ? OrderedJson::array({deviceInfo(run)}) : OrderedJson::array();
    info["platform_version"] = msprofPlatformVersion(*run.chip);
    info["pid"] = std::to_string(run.processId);
    return info;
}

std::string onOff(bool on) { return on ? "on" : "off"; }

// Hardware ids of the events a group programs on one core side, in catalog order.
std::string profilingEvents(AicMetrics group, CoreSide side) {
    std::string text;
    for (PmuEvent e : profiledEvents(group, side)) {
        char hex[16];
        std::snprintf(hex, sizeof hex, "0x%x", pmuEventInfo(e).hardwareId);
        if (!text.empty()) text += ',';
        text += hex;
    }
    return text;
}

std::string dateText(const RunRecord& run, std::uint64_t simNs) {
    const std::int64_t wallNs = static_cast<std::int64_t>(run.epochNs + simNs) +
                                run.utcOffsetSeconds * static_cast<std::int64_t>(kNsPerSecond);
    const std::time_t seconds = static_cast<std::time_t>(wallNs / static_cast<std::int64_t>(kNsPerSecond));
    std::tm parts{};
    gmtime_r(&seconds, &parts);
    char text[64];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", &parts);
    return text;
}

}  // namespace

std::string renderHostInfoJson(const RunRecord& run) { return dumpPythonJson(infoJson(run, false), false); }
std::string renderDeviceInfoJson(const RunRecord& run) { return dumpPythonJson(infoJson(run, true), false); }

std::string renderSampleJson(const RunRecord& run, const ProfilerConfig& config, const std::string& resultDir) {
    const AicMetrics group = config.effectiveAicMetrics();
    const bool aicoreOn = group != AicMetrics::None;
    const bool split = run.chip->organisation == CoreOrganisation::Split;
    const bool level1Plus = config.level == ProfilerLevel::Level1 || config.level == ProfilerLevel::Level2;
    const bool level2 = config.level == ProfilerLevel::Level2;
    const std::string metricsName = aicoreOn ? std::string(aicMetricsName(group)) : "";
    OrderedJson s;
    s["acl"] = onOff(config.level != ProfilerLevel::LevelNone);
    // The AI Cores of split chips count PipeUtilization with the "Exct" event set (mac_fp/int, mte1
    // and fixpipe extras, hardware.md §3.4), which msprof's analysis reads under the name
    // PipeUtilizationExct (Ascend/msprof analysis/common_func/platform/ai_core_metrics_manager.py,
    // csrc/.../pipeutext_calculator.h: events 0x416, 0x417, 0x9, 0x302, 0xc, 0x303, 0x55, 0x54);
    // under "PipeUtilization" it would look for vec/mac/mte3 events the AIC side does not program.
    const bool exct = split && group == AicMetrics::PipeUtilization;
    s["ai_core_metrics"] = exct ? std::string("PipeUtilizationExct") : metricsName;
    s["ai_core_profiling"] = onOff(aicoreOn);
    s["ai_core_profiling_events"] = aicoreOn ? profilingEvents(group, split ? CoreSide::Aic : CoreSide::Coupled) : "";
    s["ai_core_profiling_mode"] = "task-based";
    s["aicpuTrace"] = onOff(level2);
    s["aiv_metrics"] = split ? metricsName : "";
    s["aiv_profiling"] = onOff(aicoreOn && split);
    s["aiv_profiling_events"] = aicoreOn && split ? profilingEvents(group, CoreSide::Aiv) : "";
    s["aiv_profiling_mode"] = "task-based";
    // The host directory is device 64 to msprof (infoJson above).
    s["devices"] = resultDir.ends_with("/host/") ? std::string(kHostDeviceId) : std::to_string(run.deviceId);
    s["hcclTrace"] = onOff(level1Plus);
    s["hwts_log"] = onOff(config.level != ProfilerLevel::LevelNone);
    s["job_id"] = std::to_string(run.deviceId);
    s["l2CacheTaskProfiling"] = onOff(config.l2Cache);
    if (config.l2Cache) s["l2CacheTaskProfilingEvents"] = l2CacheProfilingEvents(*run.chip);
    s["msproftx"] = onOff(config.msprofTx);
    s["result_dir"] = resultDir;
    s["runtimeApi"] = onOff(level2);
    s["task_time"] = config.level == ProfilerLevel::Level0 ? "l0" : (level1Plus ? "l1" : "off");
    // The task scheduler's step trace keypoints (raw_step_trace_data.h); the 2023 era writes them.
    if (config.formatVersion == FormatVersion::Era2023)
        s["ts_keypoint"] = onOff(era2023DataSelection(config).stepTrace);
    if (config.e2e) {
        // An E2E collection's switches are its profileConfig flags (aclprofCreateConfig's dataTypeConfig):
        // AscendCL API data, the task log, AI CPU and HCCL data, each on or off by itself.
        const AclProfFlags& f = config.e2e->flags;
        s["acl"] = onOff(f.aclApi);
        s["aicpuTrace"] = onOff(f.aicpu);
        s["hcclTrace"] = onOff(f.hcclTrace);
        s["hwts_log"] = onOff(f.taskTime);
    }
    return s.dump();
}

// msprof's chip ids (platform_version): CHIP_V2_1_0 = 910A ("1"), CHIP_V3_3_0 = 310P ("4"),
// CHIP_V4_1_0 = 910B/910_93 ("5") [MSPROF analysis/common_func/platform/chip_manager.py; assumed].
std::string msprofPlatformVersion(const ChipConfig& chip) {
    if (chip.organisation == CoreOrganisation::Split) return "5";
    if (chip.name.find("310P") != std::string::npos) return "4";
    return "1";
}

std::string renderStartInfo(const RunRecord& run, std::uint64_t collectionStartNs) {
    OrderedJson j;
    j["collectionDateBegin"] = dateText(run, collectionStartNs);
    j["collectionTimeBegin"] = std::to_string((run.epochNs + collectionStartNs) / static_cast<std::uint64_t>(kNsPerUs));
    j["clockMonotonicRaw"] = std::to_string(monotonicNs(collectionStartNs));
    return dumpPythonJson(j, false);
}

std::string renderEndInfo(const RunRecord& run, std::uint64_t collectionEndNs) {
    OrderedJson j;
    j["collectionDateEnd"] = dateText(run, collectionEndNs);
    j["collectionTimeEnd"] = std::to_string((run.epochNs + collectionEndNs) / static_cast<std::uint64_t>(kNsPerUs));
    j["clockMonotonicRaw"] = std::to_string(monotonicNs(collectionEndNs));
    return dumpPythonJson(j, false);
}

std::string renderStartLog(const RunRecord& run, std::uint64_t collectionStartNs, bool host) {
    const std::uint64_t monotonic = monotonicNs(collectionStartNs);
    // The system counter runs at hwtsFreqMhz: ticks = ns × MHz / 1000.
    const auto ticks = static_cast<std::uint64_t>(static_cast<double>(monotonic) * run.chip->hwtsFreqMhz / kNsPerUs);
    std::string text = host ? "[Host]\n" : "[Device]\n";
    text += "clock_monotonic_raw: " + std::to_string(monotonic) + "\n";
    text += "cntvct: " + std::to_string(ticks) + "\n";
    return text;
}

}  // namespace ascendsim

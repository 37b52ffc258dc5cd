#include "profiler/writers/era2023/era2023_export.h"
#include "profiler/writers/tree/export_log.h"

#include "profiler/format/csv_writer.h"
#include "profiler/format/file_output.h"

#include <set>
#include "profiler/writers/communication/communication_json.h"
#include "profiler/writers/communication/communication_matrix.h"
#include "profiler/writers/era2023/era2023_ai_cpu_layer.h"
#include "profiler/writers/era2023/era2023_data_selection.h"
#include "profiler/writers/era2023/era2023_file_names.h"
#include "profiler/writers/era2023/era2023_prof_rule.h"
#include "profiler/writers/era2023/era2023_step_trace.h"
#include "profiler/writers/summary/data_preprocess.h"
#include "profiler/writers/summary/l2_cache.h"
#include "profiler/writers/summary/op_statistic.h"
#include "profiler/writers/summary/op_summary.h"
#include "profiler/writers/summary/task_time.h"
#include "profiler/writers/timeline/msprof_timeline.h"

namespace fs = std::filesystem;

namespace ascendsim {

namespace {

void writeIfAny(const fs::path& path, const std::string& text) {
    if (!text.empty()) writeFileBytes(path, text);
}

bool isProcessName(const OrderedJson& event, std::string_view name) {
    return event.value("ph", "") == "M" && event.value("name", "") == "process_name" && event.contains("args") &&
           event["args"].value("name", "") == name;
}

}  // namespace

namespace {

// The msprof timeline without the processes the collection lacks, the device layer renamed.
std::vector<OrderedJson> collectedTimeline(const std::vector<OrderedJson>& msprofTimeline, const ProfilerConfig& config) {
    // Processes whose data the collection lacks: their pids, found from their names.
    const Era2023DataSelection selection = era2023DataSelection(config);
    std::vector<std::string_view> absent;
    if (!selection.apiLayer) absent.push_back("CANN");
    if (!selection.taskScheduler) absent.push_back("Ascend Hardware");
    if (!selection.hccl) absent.push_back("HCCL");
    std::set<std::uint32_t> absentPids;
    for (const OrderedJson& event : msprofTimeline)
        for (std::string_view name : absent)
            if (isProcessName(event, name)) absentPids.insert(event["pid"].get<std::uint32_t>());
    // A host-to-device flow joins the API layer and the Task Scheduler: gone with either.
    const bool flows = selection.apiLayer && selection.taskScheduler;
    std::vector<OrderedJson> events;
    for (const OrderedJson& event : msprofTimeline) {
        if (absentPids.count(event.value("pid", 0U)) != 0) continue;
        const std::string ph = event.value("ph", "");
        if (!flows && (ph == "s" || ph == "f" || ph == "t")) continue;
        events.push_back(event);
        if (isProcessName(events.back(), "Ascend Hardware")) events.back()["args"]["name"] = kEra2023TaskSchedulerName;
    }
    return events;
}

}  // namespace

std::vector<OrderedJson> era2023Timeline(const std::vector<OrderedJson>& msprofTimeline,
                                         const ProfilerConfig& config) {
    // The AI CPU layer is the AI CPU data (ACL_PROF_AICPU); without it the tasks stay in the task log.
    const Era2023DataSelection selection = era2023DataSelection(config);
    if (!selection.aiCpu) return collectedTimeline(msprofTimeline, config);
    if (selection.taskScheduler)
        return withAiCpuLayer(collectedTimeline(msprofTimeline, config), kEra2023TaskSchedulerName);
    // AI CPU data without the task log: the AI CPU layer alone, cut from the device layer.
    ProfilerConfig withTasks = config;
    withTasks.e2e->flags.taskTime = true;
    std::vector<OrderedJson> events = withAiCpuLayer(collectedTimeline(msprofTimeline, withTasks), kEra2023TaskSchedulerName);
    std::set<std::uint32_t> scheduler;
    for (const OrderedJson& e : events)
        if (isProcessName(e, kEra2023TaskSchedulerName)) scheduler.insert(e["pid"].get<std::uint32_t>());
    std::vector<OrderedJson> kept;
    for (OrderedJson& e : events) {
        const std::string ph = e.value("ph", "");
        if (scheduler.count(e.value("pid", 0U)) != 0) continue;
        if (ph == "s" || ph == "f" || ph == "t") continue;  // flows need the task log (collectedTimeline)
        kept.push_back(std::move(e));
    }
    return kept;
}

std::vector<OrderedJson> era2023TaskTimeTimeline(const std::vector<OrderedJson>& msprofTimeline,
                                                 const RunRecord& run, const ProfilerConfig& config) {
    const std::uint32_t pid = ascendHardwarePid(run, FormatVersion::Era2023);
    std::vector<OrderedJson> events;
    for (const OrderedJson& event : collectedTimeline(msprofTimeline, config)) {
        const std::string ph = event.value("ph", "");
        if ((ph == "M" || ph == "X") && event.value("pid", 0U) == pid) events.push_back(event);
    }
    return events;
}

std::string era2023FusionOpHeader() {
    std::string line;
    for (const char* name : {"Model Name", "Model ID", "Fusion Op", "Original Ops", "Memory Input(KB)",
                             "Memory Output(KB)", "Memory Weight(KB)", "Memory Workspace(KB)", "Memory Total(KB)"}) {
        if (!line.empty()) line += ',';
        line += name;
    }
    line += csvLineTerminator(CsvDialect::Cann);
    return line;
}

namespace {

struct Era2023Folders {
    fs::path timeline, summary;
    std::string suffix;
};

Era2023Folders era2023Folders(const fs::path& profRoot, const RunRecord& run) {
    const fs::path device = profRoot / ("device_" + std::to_string(run.deviceId));
    Era2023Folders f{device / "timeline", device / "summary", era2023FileSuffix(run.deviceId, std::nullopt)};
    fs::create_directories(f.timeline);
    fs::create_directories(f.summary);
    return f;
}

}  // namespace

void writeEra2023RawDataExport(const fs::path& profRoot, const RunRecord& run, const ProfilerConfig& config,
                               const std::vector<OrderedJson>& msprofTimeline) {
    if (!config.activityNpu || config.level == ProfilerLevel::LevelNone) return;
    const Era2023Folders f = era2023Folders(profRoot, run);
    const Era2023DataSelection selection = era2023DataSelection(config);
    if (!msprofTimeline.empty()) {
        writeFileBytes(f.timeline / era2023FileName("msprof", f.suffix, "json"),
                       renderMsprofTimelineJson(era2023Timeline(msprofTimeline, config)));
        if (selection.taskScheduler)
            writeFileBytes(f.timeline / era2023FileName("task_time", f.suffix, "json"),
                           renderMsprofTimelineJson(era2023TaskTimeTimeline(msprofTimeline, run, config)));
    }
    CsvTable opSummary;
    if (selection.taskScheduler) {
        opSummary = buildOpSummaryTable(run, config);
        writeIfAny(f.summary / era2023FileName("op_summary", f.suffix, "csv"), renderOpSummaryCsv(run, config));
        writeIfAny(f.summary / era2023FileName("op_statistic", f.suffix, "csv"), renderOpStatisticCsv(run, config));
        writeIfAny(f.summary / era2023FileName("task_time", f.suffix, "csv"), renderTaskTimeCsv(run, config));
    }
    if (selection.aiCpu) {
        // The AI CPU table the Level2 writer builds (data_preprocess.h), whatever the level.
        ProfilerConfig aiCpuConfig = config;
        aiCpuConfig.level = ProfilerLevel::Level2;
        writeIfAny(f.summary / era2023FileName("aicpu", f.suffix, "csv"), renderDataPreprocessCsv(run, aiCpuConfig));
    }
    if (selection.l2Cache)
        writeIfAny(f.summary / era2023FileName("l2_cache", f.suffix, "csv"), renderL2CacheCsv(run, config));
    const auto stepTrace = buildEra2023StepTraceTimeline(run);
    if (selection.stepTrace && !stepTrace.empty())
        writeFileBytes(f.timeline / era2023FileName("step_trace", f.suffix, "json"),
                       renderMsprofTimelineJson(stepTrace));
    if (selection.stepTrace)
        writeIfAny(f.summary / era2023FileName("step_trace", f.suffix, "csv"),
                   renderCsv(buildEra2023StepTraceTable(run), CsvDialect::Cann));
    writeFileBytes(f.summary / era2023FileName("fusion_op", f.suffix, "csv"), era2023FusionOpHeader());
    writeFileBytes(f.summary / ("prof_rule_" + std::to_string(run.deviceId) + ".json"),
                   renderEra2023ProfRule(opSummary, config));
    // msprof's communication analyzer writes PROF_*/analyze/ (PathManager.get_analyze_dir of the
    // device directory's parent); torch_npu runs it at Level1/2.
    if (config.level == ProfilerLevel::Level1 || config.level == ProfilerLevel::Level2) {
        const fs::path analyze = profRoot / "analyze";
        fs::create_directories(analyze);
        if (selection.hccl) {
            writeCommunicationJson(analyze, run, config);
            writeCommunicationMatrixJson(analyze, run, config);
        }
    }
    // A kept collection keeps the export's log; data_simplification deletes it (formats.md §1.5).
    if (!config.dataSimplification) writeExportLog(profRoot, run);
}

void writeEra2023Export(const fs::path& profRoot, const RunRecord& run, const ProfilerConfig& config,
                        const std::vector<OrderedJson>& msprofTimeline) {
    writeEra2023RawDataExport(profRoot, run, config, msprofTimeline);
}

}  // namespace ascendsim

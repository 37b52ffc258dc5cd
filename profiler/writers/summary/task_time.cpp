#include "profiler/writers/summary/task_time.h"

#include <algorithm>
#include <map>

#include "profiler/format/number_format.h"
#include "profiler/format/time_format.h"
#include "profiler/writers/timeline/ascend_tasks.h"

namespace ascendsim {

namespace {

constexpr const char* kNotAvailable = "N/A";
constexpr double kNsPerUs = 1000.0;

// Which msprof exporter wrote the era's summaries: the C++ assembler (CANN 8.3) or the older
// Python viewer (CANN 8.0, 2024), the same split as op_summary's number formats.
bool cppAssembler(const ProfilerConfig& config) { return config.formatVersion == FormatVersion::Cann83; }

// FilterAscendTaskData of the C++ assembler: a task id with several AscendTask entries is scanned
// in time order; a context 0 met before any other context keeps only the context-0 entries, a
// non-zero context met first keeps all of them. In this run only a collective's own task and its
// HCCL contexts share a task id (a kernel is a single entry), so each collective is one group.
std::vector<AscendTask> keptByContextFilter(const std::vector<AscendTask>& tasks) {
    std::map<const CommunicationOpRecord*, bool> onlyContextZero;
    for (const AscendTask& task : tasks) {
        if (task.collective == nullptr || task.contextId == kNoContextId) continue;
        // try_emplace: the first context of the group decides.
        onlyContextZero.try_emplace(task.collective, task.contextId == 0);
    }
    std::vector<AscendTask> kept;
    for (const AscendTask& task : tasks) {
        const auto decided = onlyContextZero.find(task.collective);
        if (task.collective != nullptr && decided != onlyContextZero.end() && decided->second &&
            task.contextId != 0)
            continue;
        kept.push_back(task);
    }
    return kept;
}

// The Python viewer selects `context_id = 4294967295` only.
std::vector<AscendTask> tasksWithoutContext(const std::vector<AscendTask>& tasks) {
    std::vector<AscendTask> kept;
    std::copy_if(tasks.begin(), tasks.end(), std::back_inserter(kept),
                 [](const AscendTask& task) { return task.contextId == kNoContextId; });
    return kept;
}

std::string kernelTypeOf(const AscendTask& task, const ProfilerConfig& config) {
    if (task.kernel == nullptr) return task.ascendType;  // no GE TaskInfo (see the header)
    // GE's TaskInfo carries no task type under task time l0 (op_summary shows N/A at Level0).
    if (config.level != ProfilerLevel::Level0) return std::string(taskTypeName(task.kernel->device.type));
    return cppAssembler(config) ? task.ascendType : kNotAvailable;
}

std::string durationCell(std::uint64_t ns, bool cpp) {
    return cpp ? nsToUsString(ns) : pythonFloatRepr(static_cast<double>(ns) / kNsPerUs);
}

}  // namespace

CsvTable buildTaskTimeTable(const RunRecord& run, const ProfilerConfig& config) {
    CsvTable table;
    const bool cpp = cppAssembler(config);
    const std::vector<AscendTask> all = ascendTasksOf(run, config);
    const std::vector<AscendTask> tasks = cpp ? keptByContextFilter(all) : tasksWithoutContext(all);
    if (tasks.empty()) return table;
    if (cpp) table.header.emplace_back("Device_id");
    for (const char* name : {"kernel_name", "kernel_type", "stream_id", "task_id", "task_time(us)",
                             "task_start(us)", "task_stop(us)"}) {
        table.header.emplace_back(name);
    }
    for (const AscendTask& task : tasks) {
        CsvRow row;
        if (cpp) row.push_back(std::to_string(run.deviceId));
        row.push_back(task.kernel != nullptr ? task.kernel->name : kNotAvailable);
        row.push_back(kernelTypeOf(task, config));
        row.push_back(std::to_string(task.streamId));
        row.push_back(std::to_string(task.taskId));
        row.push_back(durationCell(task.endNs - task.startNs, cpp));
        row.push_back(nsToUsStringWithTab(run.epochNs + task.startNs));
        row.push_back(nsToUsStringWithTab(run.epochNs + task.endNs));
        table.rows.push_back(std::move(row));
    }
    return table;
}

std::string renderTaskTimeCsv(const RunRecord& run, const ProfilerConfig& config) {
    return renderCsv(buildTaskTimeTable(run, config), CsvDialect::Cann);
}

bool writeTaskTimeCsv(const std::filesystem::path& outputDir, const RunRecord& run,
                      const ProfilerConfig& config) {
    return writeCsvFile(outputDir / "task_time.csv", buildTaskTimeTable(run, config), CsvDialect::Cann);
}

}  // namespace ascendsim

#include "profiler/writers/task_time.h"

#include <algorithm>
#include <numeric>

#include "profiler/format/time_format.h"

namespace ascendsim {

CsvTable buildTaskTimeTable(const RunRecord& run, const ProfilerConfig& config) {
    CsvTable table;
    if (config.level == ProfilerLevel::LevelNone || !config.activityNpu) return table;
    const bool deviceIdColumn = config.formatVersion == FormatVersion::Cann83;
    if (deviceIdColumn) table.header.emplace_back("Device_id");
    for (const char* name : {"kernel_name", "kernel_type", "stream_id", "task_id", "task_time(us)",
                             "task_start(us)", "task_stop(us)"}) {
        table.header.emplace_back(name);
    }
    std::vector<std::size_t> order(run.kernels.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return run.kernels[a].device.startNs < run.kernels[b].device.startNs;
    });
    for (std::size_t index : order) {
        const KernelRecord& kernel = run.kernels[index];
        const TaskResult& task = kernel.device;
        CsvRow row;
        if (deviceIdColumn) row.push_back(std::to_string(run.deviceId));
        row.push_back(kernel.name);
        row.emplace_back(taskTypeName(task.type));
        row.push_back(std::to_string(task.streamId));
        row.push_back(std::to_string(kernel.taskId));
        row.push_back(nsToUsString(task.endNs - task.startNs));
        row.push_back(nsToUsStringWithTab(run.epochNs + task.startNs));
        row.push_back(nsToUsStringWithTab(run.epochNs + task.endNs));
        table.rows.push_back(std::move(row));
    }
    return table;
}

std::string renderTaskTimeCsv(const RunRecord& run, const ProfilerConfig& config) {
    return renderCsv(buildTaskTimeTable(run, config), CsvDialect::Cann);
}

}  // namespace ascendsim

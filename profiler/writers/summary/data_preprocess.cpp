#include "profiler/writers/summary/data_preprocess.h"

#include <algorithm>

#include "profiler/format/number_format.h"
#include "profiler/format/time_format.h"

namespace ascendsim {

namespace {
constexpr double kNsPerUs = 1000.0;
std::string us(std::uint64_t ns) { return pythonRound3(static_cast<double>(ns) / kNsPerUs); }
}  // namespace

CsvTable buildDataPreprocessTable(const RunRecord& run, const ProfilerConfig& config) {
    CsvTable table;
    if (config.level != ProfilerLevel::Level2 || !config.activityNpu) return table;
    const bool deviceIdColumn = config.formatVersion == FormatVersion::Cann83;
    if (deviceIdColumn) table.header.emplace_back("Device_id");
    for (const char* name : {"Timestamp(us)", "Node", "Compute_time(us)", "Memcpy_time(us)", "Task_time(us)",
                             "Dispatch_time(us)", "Total_time(us)", "Stream ID", "Task ID"}) {
        table.header.emplace_back(name);
    }
    for (const KernelRecord& kernel : run.kernels) {
        const TaskResult& task = kernel.device;
        if (task.type != TaskType::AiCpu) continue;
        const std::uint64_t executionNs = task.endNs - task.startNs;
        const std::uint64_t submitNs = std::min(task.submitNs, task.startNs);
        CsvRow row;
        if (deviceIdColumn) row.push_back(std::to_string(run.deviceId));
        row.push_back(nsToUsString(run.epochNs + task.startNs));
        row.push_back(kernel.name);
        row.push_back(us(executionNs));
        row.push_back(us(0));
        row.push_back(us(executionNs));
        row.push_back(us(task.startNs - submitNs));
        row.push_back(us(task.endNs - submitNs));
        row.push_back(std::to_string(task.streamId));
        row.push_back(std::to_string(kernel.taskId));
        table.rows.push_back(std::move(row));
    }
    return table;
}

std::string renderDataPreprocessCsv(const RunRecord& run, const ProfilerConfig& config) {
    return renderCsv(buildDataPreprocessTable(run, config), CsvDialect::Cann);
}

bool writeDataPreprocessCsv(const std::filesystem::path& outputDir, const RunRecord& run,
                            const ProfilerConfig& config) {
    return writeCsvFile(outputDir / "data_preprocess.csv", buildDataPreprocessTable(run, config),
                        CsvDialect::Cann);
}

}  // namespace ascendsim

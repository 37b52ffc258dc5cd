#include "profiler/writers/summary/op_summary.h"

#include <algorithm>
#include <numeric>

#include "profiler/format/number_format.h"
#include "profiler/format/time_format.h"
#include "profiler/metrics/task_metrics.h"

namespace ascendsim {

namespace {

// msprof prints UINT32_MAX for a Model ID that does not exist (eager mode) (formats.md §2.4).
constexpr std::string_view kNoModelId = "4294967295";
constexpr std::string_view kNotAvailable = "N/A";
constexpr double kNsPerUs = 1000.0;

bool cppNumberFormats(const ProfilerConfig& config) {
    return config.formatVersion == FormatVersion::Cann83;
}

std::string joinTensors(const std::vector<TensorDescription>& tensors,
                        std::string TensorDescription::*field) {
    std::string joined;
    for (std::size_t i = 0; i < tensors.size(); ++i) {
        if (i != 0) joined.push_back(';');
        joined += tensors[i].*field;
    }
    return joined;
}

// CANN quotes a shape list as a whole: "32,3,224,224;64" (then escapes the quotes on output).
std::string shapeCell(const std::vector<TensorDescription>& tensors) {
    if (tensors.empty()) return std::string(kNotAvailable);
    std::string cell(1, '"');
    cell.append(joinTensors(tensors, &TensorDescription::shape));
    cell.push_back('"');
    return cell;
}

std::string listCell(const std::vector<TensorDescription>& tensors, std::string TensorDescription::*field) {
    if (tensors.empty()) return std::string(kNotAvailable);
    return joinTensors(tensors, field);
}

// Duration and wait cells: C++ msprof prints "%.3f" and "%f"; older Python msprof printed
// rounded floats ("6.28", "0.0").
std::string durationCell(std::uint64_t ns, bool cpp) {
    const double us = static_cast<double>(ns) / kNsPerUs;
    return cpp ? fixed3(us) : pythonRound3(us);
}
std::string waitCell(std::int64_t ns, bool cpp) {
    const double us = static_cast<double>(ns) / kNsPerUs;
    return cpp ? cFixed6(us) : pythonRound3(us);
}

bool isMix(TaskType type) { return type == TaskType::MixAic || type == TaskType::MixAiv; }

struct PmuLayout {
    std::vector<CoreSide> sides;
    AicMetrics group = AicMetrics::None;
    // The CANN 6/7 (2023) era's MemoryL0 also lists scalar_ld/st_ratio (metric_catalog.h).
    MetricEdition edition = MetricEdition::Current;
    bool cubeUtilization = false;
};

PmuLayout pmuLayout(const RunRecord& run, const ProfilerConfig& config) {
    PmuLayout layout;
    layout.group = config.effectiveAicMetrics();
    if (config.formatVersion == FormatVersion::Era2023) layout.edition = MetricEdition::Cann6;
    if (layout.group == AicMetrics::None || run.chip == nullptr) return layout;
    layout.sides = chipCoreSides(*run.chip);
    layout.cubeUtilization = layout.group == AicMetrics::PipeUtilization;
    return layout;
}

void appendPmuCells(CsvRow& row, const KernelRecord& kernel, const RunRecord& run,
                    const ProfilerConfig& config, const PmuLayout& layout) {
    const bool aiCpu = kernel.device.type == TaskType::AiCpu;
    for (CoreSide side : layout.sides) {
        const auto& columns = metricColumns(layout.group, side, layout.edition);
        const SideCounters counters = sideCounters(kernel.device, *run.chip, side);
        for (const MetricColumn& column : columns) {
            if (aiCpu) {
                row.emplace_back(kNotAvailable);
            } else if (column.formula == MetricFormula::TotalCycles) {
                row.push_back(std::to_string(counters.counters.totalCycles));
            } else {
                row.push_back(pythonRound3(evaluateMetric(column, counters, *run.chip)));
            }
        }
    }
    if (!layout.cubeUtilization) return;
    if (aiCpu) {
        row.emplace_back(kNotAvailable);
        return;
    }
    // Only split chips have the aic_mac_ratio/aic_total_cycles pair AddCubeUsage needs; others 0.
    const bool computable = run.chip->organisation == CoreOrganisation::Split;
    const double durationUs = static_cast<double>(kernel.device.endNs - kernel.device.startNs) / kNsPerUs;
    const double value = computable ? cubeUtilizationPercent(kernel.device, *run.chip, durationUs) : 0.0;
    if (cppNumberFormats(config)) row.push_back(fixed3(value));
    else row.push_back(value == 0.0 ? "0" : pythonRound3(value));
}

}  // namespace

CsvTable buildOpSummaryTable(const RunRecord& run, const ProfilerConfig& config) {
    CsvTable table;
    if (config.level == ProfilerLevel::LevelNone || !config.activityNpu) return table;
    const bool cpp = cppNumberFormats(config);
    const bool deviceIdColumn = config.formatVersion == FormatVersion::Cann83;
    const bool split = run.chip == nullptr || run.chip->organisation == CoreOrganisation::Split;
    // Level0 collects task time l0 only: OP Type, Task Type and the tensor columns are N/A and
    // Block Dim 0, with or without record_shapes (every real Level0 sample, e5a31957 and c1e639ee,
    // has record_shapes=true and N/A; AICORE_SHAPE exists only in torch_npu master).
    const bool taskTimeOnly = config.level == ProfilerLevel::Level0;
    const PmuLayout layout = pmuLayout(run, config);

    CsvRow& h = table.header;
    if (deviceIdColumn) h.emplace_back("Device_id");
    for (const char* name : {"Model ID", "Task ID", "Stream ID", "Op Name", "OP Type", "OP State", "Task Type",
                             "Task Start Time(us)", "Task Duration(us)", "Task Wait Time(us)", "Block Dim"}) {
        h.emplace_back(name);
    }
    if (split) h.emplace_back("Mix Block Dim");
    for (const char* name : {"HF32 Eligible", "Input Shapes", "Input Data Types", "Input Formats",
                             "Output Shapes", "Output Data Types", "Output Formats"}) {
        h.emplace_back(name);
    }
    if (split) h.emplace_back("Context ID");
    for (CoreSide side : layout.sides) {
        for (const MetricColumn& column : metricColumns(layout.group, side, layout.edition)) {
            h.push_back(metricHeaderName(column, side));
        }
    }
    if (layout.cubeUtilization) h.emplace_back("cube_utilization(%)");

    // Kernels and collectives in one start-time order: the wait column runs over both.
    struct Entry {
        std::uint64_t startNs, endNs;
        const KernelRecord* kernel;
        const CommunicationOpRecord* collective;
    };
    std::vector<Entry> order;
    order.reserve(run.kernels.size() + run.communicationOps.size());
    for (const auto& k : run.kernels)
        order.push_back({k.device.startNs, k.device.endNs, &k, nullptr});
    for (const auto& c : run.communicationOps) order.push_back({c.startNs, c.endNs, nullptr, &c});
    std::stable_sort(order.begin(), order.end(),
                     [](const Entry& a, const Entry& b) { return a.startNs < b.startNs; });

    const Entry* previous = nullptr;
    for (const Entry& entry : order) {
        const std::string na(kNotAvailable);
        CsvRow row;
        if (deviceIdColumn) row.push_back(std::to_string(run.deviceId));
        row.emplace_back(kNoModelId);
        std::string waitText = "0";
        if (previous != nullptr) {
            const auto gap = static_cast<std::int64_t>(entry.startNs) -
                             static_cast<std::int64_t>(previous->endNs);
            waitText = waitCell(std::max<std::int64_t>(0, gap), cpp);
        }
        previous = &entry;
        if (entry.collective != nullptr) {
            // formats.md §3.1: Task ID, Stream ID and OP State N/A, Block Dim 0, the rest N/A; the
            // 8.0-era samples (e5a31957 Level0/1/2) call the task type HCCL.
            const CommunicationOpRecord& c = *entry.collective;
            row.push_back(na);
            row.push_back(na);
            row.push_back(c.name);
            row.push_back(taskTimeOnly ? na : c.opType);
            row.push_back(na);
            row.emplace_back(config.formatVersion == FormatVersion::Cann83 ? "COMMUNICATION"
                                                                           : "HCCL");
            row.push_back(nsToUsStringWithTab(run.epochNs + c.startNs));
            row.push_back(durationCell(c.endNs - c.startNs, cpp));
            row.push_back(waitText);
            row.emplace_back("0");
            while (row.size() < table.header.size()) row.push_back(na);
            table.rows.push_back(std::move(row));
            continue;
        }
        const KernelRecord& kernel = *entry.kernel;
        const TaskResult& task = kernel.device;
        row.push_back(std::to_string(kernel.taskId));
        row.push_back(std::to_string(task.streamId));
        row.push_back(kernel.name);
        row.push_back(taskTimeOnly ? na : kernel.opType);
        row.push_back(taskTimeOnly ? na : "dynamic");
        row.push_back(taskTimeOnly ? na : std::string(taskTypeName(task.type)));
        row.push_back(nsToUsStringWithTab(run.epochNs + task.startNs));
        row.push_back(durationCell(task.endNs - task.startNs, cpp));
        row.push_back(waitText);
        row.push_back(taskTimeOnly ? "0" : std::to_string(task.blockDim));
        if (split) row.push_back(taskTimeOnly ? na : std::to_string(task.mixBlockDim));
        row.push_back(taskTimeOnly ? na : (kernel.hf32Eligible ? "YES" : "NO"));
        if (taskTimeOnly) {
            for (int i = 0; i < 6; ++i) row.push_back(na);
        } else {
            row.push_back(shapeCell(kernel.inputs));
            row.push_back(listCell(kernel.inputs, &TensorDescription::dtype));
            row.push_back(listCell(kernel.inputs, &TensorDescription::format));
            row.push_back(shapeCell(kernel.outputs));
            row.push_back(listCell(kernel.outputs, &TensorDescription::dtype));
            row.push_back(listCell(kernel.outputs, &TensorDescription::format));
        }
        // MIX kernels run as one context of a FFTS+ task (context 0); others have none.
        if (split) row.push_back(!taskTimeOnly && isMix(task.type) ? "0" : na);
        appendPmuCells(row, kernel, run, config, layout);
        table.rows.push_back(std::move(row));
    }
    return table;
}

std::string renderOpSummaryCsv(const RunRecord& run, const ProfilerConfig& config) {
    CsvTable table = buildOpSummaryTable(run, config);
    for (CsvRow& row : table.rows) {
        for (std::string& cell : row) cell = cannEscapeQuotes(cell);
    }
    return renderCsv(table, CsvDialect::Cann);
}

}  // namespace ascendsim

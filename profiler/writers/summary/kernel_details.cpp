#include "profiler/writers/summary/kernel_details.h"

#include <algorithm>
#include <map>

#include "profiler/format/time_format.h"
#include "profiler/writers/summary/op_summary.h"
#include "profiler/writers/summary/step_trace_time.h"

namespace ascendsim {

namespace {

const std::map<std::string, std::string>& renamedColumns() {
    static const std::map<std::string, std::string> kRenamed = {
        {"Op Name", "Name"},
        {"OP Type", "Type"},
        {"Task Type", "Accelerator Core"},
        {"Task Start Time(us)", "Start Time(us)"},
        {"Task Duration(us)", "Duration(us)"},
        {"Task Wait Time(us)", "Wait Time(us)"},
    };
    return kRenamed;
}

// torch_npu's OP_SUMMARY_SHOW_HEADERS (release branches, formats.md §3.1, §6).
bool shownAtLevel0(const std::string& opSummaryName) {
    static const std::vector<std::string> kShown = {
        "Device_id", "Op Name", "OP Type", "Task Type", "Task Start Time(us)",
        "Task Duration(us)", "Task Wait Time(us)", "Block Dim"};
    return std::find(kShown.begin(), kShown.end(), opSummaryName) != kShown.end();
}

}  // namespace

CsvTable buildKernelDetailsTable(const RunRecord& run, const ProfilerConfig& config) {
    const CsvTable summary = buildOpSummaryTable(run, config);
    CsvTable table;
    if (summary.rows.empty()) return table;

    std::vector<std::size_t> kept;
    std::size_t startColumn = 0;
    for (std::size_t i = 0; i < summary.header.size(); ++i) {
        const std::string& name = summary.header[i];
        if (name == "Task Start Time(us)") startColumn = i;
        if (config.level == ProfilerLevel::Level0 && !shownAtLevel0(name)) continue;
        kept.push_back(i);
    }

    // The same device step ranges step_trace_time uses (torch_npu get_step_range); none when a
    // step has no linked kernel, and then there is no Step Id column.
    const std::vector<StepRange> ranges = computeStepRanges(run);
    const bool withSteps = !ranges.empty();
    std::vector<std::string> rangeStart, rangeEnd;
    for (const StepRange& range : ranges) {
        rangeStart.push_back(nsToUsString(range.startNs));
        rangeEnd.push_back(nsToUsString(range.endNs));
    }

    if (withSteps) table.header.emplace_back("Step Id");
    for (std::size_t i : kept) {
        const auto renamed = renamedColumns().find(summary.header[i]);
        table.header.push_back(renamed == renamedColumns().end() ? summary.header[i] : renamed->second);
    }
    for (const CsvRow& source : summary.rows) {
        CsvRow row;
        if (withSteps) {
            // String comparison of the tab-suffixed start text, exactly as torch_npu does.
            const std::string& startText = source[startColumn];
            std::string stepId;
            for (std::size_t r = 0; r < ranges.size(); ++r) {
                if (rangeStart[r] <= startText && startText <= rangeEnd[r]) {
                    stepId = ranges[r].stepId;
                    break;
                }
            }
            row.push_back(stepId);
        }
        for (std::size_t i : kept) row.push_back(source[i]);
        table.rows.push_back(std::move(row));
    }
    return table;
}

std::string renderKernelDetailsCsv(const RunRecord& run, const ProfilerConfig& config) {
    return renderCsv(buildKernelDetailsTable(run, config), CsvDialect::TorchNpu);
}

bool writeKernelDetailsCsv(const std::filesystem::path& outputDir, const RunRecord& run,
                           const ProfilerConfig& config) {
    return writeCsvFile(outputDir / "kernel_details.csv", buildKernelDetailsTable(run, config),
                        CsvDialect::TorchNpu);
}

}  // namespace ascendsim

#pragma once
// `ascendsim matrix`: the grid of profiler configurations a parser must handle (level × aic_metrics
// × era × export type × ranks), one fixture tree per combination. This file turns the command's
// axis lists into the combinations, each with its tree name, its run arguments, or the reason it
// is skipped.
#include <cstdint>
#include <string>
#include <vector>

#include "profiler/config/profiler_config.h"

namespace ascendsim {

struct MatrixAxes {
    std::vector<ProfilerLevel> levels;
    std::vector<AicMetrics> metrics;
    std::vector<FormatVersion> eras;
    std::vector<std::vector<ExportType>> exports;  // each entry one --export-type: text, db, text+db
    std::vector<std::uint32_t> ranks;              // empty: the workload's own rank count
};

// Parses the command's lists (comma-separated; `all` means every value). Levels accept Level0 /
// L0 / Level_none / none; metrics the names or ACL_AICORE_*; eras 8.3 / 8.0 / 2024; exports text,
// db, text+db. Throws std::invalid_argument naming the option and listing the valid values.
MatrixAxes parseMatrixAxes(const std::string& levels, const std::string& metrics, const std::string& eras,
                           const std::string& exports, const std::string& ranks);

struct MatrixCombination {
    std::string name;                    // tree folder, e.g. Level1-PipeUtilization-8.3-text+db-r2
    ProfilerLevel level{};
    AicMetrics metrics{};
    FormatVersion era{};
    std::vector<ExportType> exports;
    std::uint32_t ranks = 0;             // 0: the workload's own
    std::vector<std::string> runArguments;  // ascendsim options of this combination's run
    std::string skipReason;              // non-empty: not run, and why
};

// Every combination in axis order (level, metrics, era, export, ranks). A combination real tools
// cannot produce is kept with its skip reason: torch_npu forces aic_metrics to ACL_AICORE_NONE at
// Level0 and Level_none (formats.md §1.2), so those levels run only with None.
std::vector<MatrixCombination> planMatrix(const MatrixAxes& axes);

std::string exportTypesName(const std::vector<ExportType>& exports);  // "text", "db", "text+db"

}  // namespace ascendsim

#pragma once
// Assembles the torch_npu output directories of a run (formats.md §1.1, §1.6):
//   {worker}_{pid}_{17-digit local timestamp}_ascend_pt/
//     profiler_info[_{rank}].json, profiler_metadata.json, FRAMEWORK/, logs/,
//     ASCEND_PROFILER_OUTPUT/ (text and/or db files per level and switches, analyse.done)
//   and, with record_op_args, a sibling {dir}_op_args/.
// One directory per profiling cycle of the schedule, each from a RunRecord restricted to that
// cycle. Directories are 0750, files 0640.
//
// Atomicity: every directory is built under a temporary sibling name and renamed into place only
// when all cycles are complete; on any error all temporaries (and directories already renamed by
// this call) are removed and the error is rethrown, so a failed call leaves nothing behind.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "profiler/config/profiler_config.h"
#include "profiler/quirks/quirk_set.h"
#include "profiler/record/local_time.h"
#include "profiler/record/run_record.h"

namespace ascendsim {

struct OutputOptions {
    std::filesystem::path parentDirectory = ".";
    // Empty: the host name. torch_npu (≥ 2.5.1) appends "_{pid}" to the worker name either way.
    std::string workerName;
    // Deterministic: trace ids derived from the run instead of random; every other output byte
    // already depends only on the RunRecord (its epoch, pid, host name fix names and timestamps).
    bool deterministic = true;
    std::optional<std::int64_t> rank;  // overrides RunRecord::rankId when set
    QuirkSet quirks;                   // anomalies of real data to reproduce (profiler/quirks/)
    // Test hook: called with a stage name while a cycle is being built ("cycle-built"); throwing
    // from it exercises the cleanup path.
    std::function<void(std::string_view stage)> faultInjection;
    // `ascendsim msprof`: the msprof command line's layout instead (one PROF_* directly under
    // parentDirectory, profiler/writers/msprof_cli/), with or without its export.
    bool msprofCommandLine = false;
    bool msprofExport = true;
};

struct OutputResult {
    std::vector<std::filesystem::path> directories;  // the *_ascend_pt directories written
};

// "{worker}_{pid}" as the directory prefix.
std::string workerDirectoryPrefix(const RunRecord& run, const OutputOptions& options);


// Writes every cycle's directory. Throws std::runtime_error (after cleaning up) on failure.
OutputResult writeProfilerOutput(const RunRecord& run, const ProfilerConfig& config, const OutputOptions& options);
// The same for a record the caller no longer needs (a cluster rank's record, built per rank):
// it is used in place instead of copied.
OutputResult writeProfilerOutput(RunRecord&& run, const ProfilerConfig& config, const OutputOptions& options);

// The contents of one *_ascend_pt directory for an already restricted run, written into `dir`
// (which must exist). Exposed for tools that want a single directory without a schedule.
void writeProfilerDirectory(const std::filesystem::path& dir, const RunRecord& cycleRun, const ProfilerConfig& config,
                            std::uint32_t cycleIndex, bool deterministic);

}  // namespace ascendsim

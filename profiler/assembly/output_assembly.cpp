#include "profiler/assembly/output_assembly.h"
#include "profiler/format/file_output.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <set>
#include <stdexcept>
#include <utility>

#include "profiler/assembly/output_permissions.h"
#include "profiler/quirks/file_quirks.h"
#include "profiler/quirks/record_quirks.h"
#include "profiler/assembly/profiling_schedule.h"
#include "profiler/assembly/run_slice.h"
#include "profiler/writers/summary/api_statistic.h"
#include "profiler/writers/communication/communication_json.h"
#include "profiler/writers/communication/communication_matrix.h"
#include "profiler/writers/summary/data_preprocess.h"
#include "profiler/writers/db/db_export.h"
#include "profiler/writers/era2023/era2023_export.h"
#include "profiler/writers/msprof_cli/msprof_collection.h"
#include "profiler/writers/op_args/op_args_files.h"
#include "profiler/writers/tree/framework_files.h"
#include "profiler/writers/summary/kernel_details.h"
#include "profiler/writers/summary/l2_cache.h"
#include "profiler/writers/memory/memory_record.h"
#include "profiler/writers/timeline/msprof_timeline.h"
#include "profiler/writers/memory/npu_module_mem.h"
#include "profiler/writers/summary/op_statistic.h"
#include "profiler/writers/summary/operator_details.h"
#include "profiler/writers/memory/operator_memory.h"
#include "profiler/writers/tree/prof_tree.h"
#include "profiler/writers/tree/profiler_info.h"
#include "profiler/writers/tree/profiler_metadata.h"
#include "profiler/writers/summary/step_trace_time.h"
#include "profiler/writers/summary/task_time.h"
#include "profiler/writers/timeline/trace_view.h"

namespace fs = std::filesystem;

namespace ascendsim {

namespace {

constexpr const char* kOutputDirName = "ASCEND_PROFILER_OUTPUT";

void writeTextFile(const fs::path& path, const std::string& text) {
    writeFileBytes(path, text);
}

bool hasLevel(const ProfilerConfig& c) { return c.activityNpu && c.level != ProfilerLevel::LevelNone; }

std::optional<std::uint64_t> firstFrameworkOpNs(const RunRecord& run, const ProfilerConfig& config) {
    if (!config.activityCpu || run.hostOps.empty()) return std::nullopt;
    std::uint64_t first = run.hostOps.front().startNs;
    for (const auto& op : run.hostOps) first = std::min(first, op.startNs);
    return run.epochNs + first;
}

// ASCEND_PROFILER_OUTPUT per export type, level and switches (formats.md §1.6).
void writeAscendProfilerOutput(const fs::path& out, const RunRecord& run, const ProfilerConfig& config,
                               const std::vector<TraceEvent>& timeline) {
    fs::create_directories(out);
    CsvTable stepTrace;
    if (hasLevel(config))
        stepTrace = buildStepTraceTime(timeline, computeStepRanges(run), firstFrameworkOpNs(run, config),
                                       config.formatVersion);
    // The 2024-era torch_npu copied no CANN summary (op/api statistics, npu_module_mem) into
    // ASCEND_PROFILER_OUTPUT: the c1e639ee Level1 sample has none (real-profiles README).
    const bool copiesCannSummaries = !predates2025(config.formatVersion);
    if (config.exportsText()) {
        writeTextFile(out / "trace_view.json", renderTraceView(run, config, timeline));
        if (hasLevel(config)) {
            writeKernelDetailsCsv(out, run, config);
            writeCsvFile(out / "step_trace_time.csv", stepTrace, CsvDialect::TorchNpu);
            if (config.profileMemory && copiesCannSummaries)
                writeCsvFile(out / "npu_module_mem.csv", buildNpuModuleMem(run, config.formatVersion),
                             CsvDialect::TorchNpu);
        }
        // The summaries' writers decide their own level/switch conditions and write nothing
        // when those do not hold (or when there is no row). task_time.csv follows formats.md
        // §1.6 (LEVEL_PARSER_CONFIG, Level0/1/2) although no real sample has one; the
        // taskTimeCsv switch reproduces the samples' file sets.
        if (copiesCannSummaries) {
            writeOpStatisticCsv(out, run, config);
            writeApiStatisticCsv(out, run, config);
            if (config.taskTimeCsv) writeTaskTimeCsv(out, run, config);
        }
        writeL2CacheCsv(out, run, config);
        writeDataPreprocessCsv(out, run, config);
        writeCommunicationJson(out, run, config);
        writeCommunicationMatrixJson(out, run, config);
        if (config.activityCpu && (!predates2025(config.formatVersion) || config.withStack))
            writeCsvFile(out / "operator_details.csv", buildOperatorDetails(run, config), CsvDialect::TorchNpu);
        if (config.profileMemory) {
            writeCsvFile(out / "memory_record.csv", buildMemoryRecord(run), CsvDialect::TorchNpu);
            writeCsvFile(out / "operator_memory.csv", buildOperatorMemory(run), CsvDialect::TorchNpu);
        }
    }
    if (config.exportsDb()) {
        writeAscendPytorchProfilerDb(out, run, config);
        const CommunicationAnalysisRows communication = buildCommunicationAnalysisRows(run, config);
        writeAnalysisDb(out, stepTrace, &communication);
    }
    writeTextFile(out / "analyse.done", "");
}

// A temporary sibling name that no other call uses.
fs::path temporarySibling(const fs::path& finalPath) {
    static std::atomic<unsigned> counter = 0;  // rank directories are written on several threads
    std::string name = ".";
    name += finalPath.filename().string();
    name += ".tmp-";
    name += std::to_string(::getpid());
    name += '-';
    name += std::to_string(++counter);
    return finalPath.parent_path() / name;
}

struct PendingDirectory {
    fs::path temporary;
    fs::path final;
};

void removeQuietly(const fs::path& p) {
    std::error_code ec;
    fs::remove_all(p, ec);
}

}  // namespace

std::string workerDirectoryPrefix(const RunRecord& run, const OutputOptions& options) {
    const std::string worker = options.workerName.empty() ? run.hostName : options.workerName;
    return worker + "_" + std::to_string(run.processId);
}

void writeProfilerDirectory(const fs::path& dir, const RunRecord& cycleRun, const ProfilerConfig& config,
                            std::uint32_t cycleIndex, bool deterministic) {
    std::uint64_t start = cycleRun.endNs;
    for (const auto& s : cycleRun.steps) start = std::min(start, s.startNs);
    for (const auto& op : cycleRun.hostOps) start = std::min(start, op.startNs);
    for (const auto& k : cycleRun.kernels) start = std::min(start, k.device.startNs);
    writeTextFile(dir / profilerInfoFileName(cycleRun), renderProfilerInfo(cycleRun, config, start, cycleRun.endNs));
    if (hasProfilerMetadata(config)) {
        writeTextFile(dir / "profiler_metadata.json",
                      renderProfilerMetadata(config, profilerTraceId(cycleRun, cycleIndex, deterministic),
                                             cycleRun.distributed, cycleRun.rankId));
    }
    // 2023 era: data_simplification deletes FRAMEWORK/ after export (issue 14, data-collection page).
    const bool era2023 = config.formatVersion == FormatVersion::Era2023;
    if (config.activityCpu && !(era2023 && config.dataSimplification))
        writeFrameworkFiles(dir / "FRAMEWORK", cycleRun, config);
    fs::create_directories(dir / "logs");
    const auto timeline = buildMsprofTraceEvents(cycleRun, config);
    if (config.activityNpu) {
        ProfTreeNames names;
        names.timestamp17 = localTimestamp17(cycleRun, start);
        names.suffix = profDirectorySuffix(cycleRun);
        names.exportTimestamp14 = localTimestamp17(cycleRun, cycleRun.endNs).substr(0, 14);
        std::optional<std::string> msprofJson;
        if (!timeline.empty() && profTreeExportsSummaries(config)) msprofJson = renderMsprofTimelineJson(timeline);
        const fs::path prof = writeProfTree(dir, cycleRun, config, names, msprofJson);
        if (era2023) writeEra2023Export(prof, cycleRun, config, traceEventsJson(timeline));
    }
    writeAscendProfilerOutput(dir / kOutputDirName, cycleRun, config, timeline);
}

OutputResult writeProfilerOutput(const RunRecord& run, const ProfilerConfig& config, const OutputOptions& options) {
    if (options.msprofCommandLine) return {{writeMsprofCollection(options.parentDirectory, run, config, options.msprofExport)}};
    return writeProfilerOutput(RunRecord(run), config, options);
}

OutputResult writeProfilerOutput(RunRecord&& run, const ProfilerConfig& config, const OutputOptions& options) {
    if (options.msprofCommandLine) return {{writeMsprofCollection(options.parentDirectory, run, config, options.msprofExport)}};
    RunRecord base = std::move(run);
    if (options.rank) base.rankId = *options.rank;
    if (options.quirks.contains(Quirk::ClockSkew)) applyClockSkew(base);
    const auto cycles = profilingCycles(config.schedule, base.steps);
    if (config.e2e) {
        // E2E profiling: PROF_* directly in the result folder (msprof_collection.h); the caller's
        // output transaction removes everything on failure.
        OutputResult result;
        for (const auto& cycle : cycles)
            result.directories.push_back(writeE2eCollection(options.parentDirectory, sliceRunRecord(base, cycle), config));
        return result;
    }
    const std::string prefix = workerDirectoryPrefix(base, options);

    std::vector<PendingDirectory> pending;
    std::vector<fs::path> committed;
    OpArgsCounters opArgsCounters;  // CANN numbers the op-info files per process, across cycles
    try {
        fs::create_directories(options.parentDirectory);
        std::set<std::string> usedNames;
        for (const auto& cycle : cycles) {
            // One cycle: the slice takes base's elements (only its scalars are read after).
            const bool interrupted = options.quirks.contains(Quirk::InterruptedStep);
            const RunRecord cycleRun = interrupted           ? sliceRunRecord(withLastStepInterrupted(base, cycle), cycle)
                                       : cycles.size() == 1 ? sliceRunRecord(std::move(base), cycle)
                                                            : sliceRunRecord(base, cycle);
            // The stamp is taken when the trace is ready (cycle end); equal stamps of cycles shorter
            // than a millisecond are separated by moving the later one forward by 1 ms.
            std::uint64_t stampNs = cycleRun.endNs;
            std::string name;
            do {
                name = prefix + "_" + localTimestamp17(base, stampNs) + "_ascend_pt";
                stampNs += 1'000'000;
            } while (!usedNames.insert(name).second);
            const fs::path final = options.parentDirectory / name;
            if (fs::exists(final)) throw std::runtime_error("output directory already exists: " + final.string());
            PendingDirectory dir{temporarySibling(final), final};
            pending.push_back(dir);
            fs::create_directory(dir.temporary);
            writeProfilerDirectory(dir.temporary, cycleRun, config, cycle.index, options.deterministic);
            applyFileQuirks(options.quirks, dir.temporary, base.rankId);
            if (config.recordOpArgs) {
                PendingDirectory opArgs{temporarySibling(fs::path(final.string() + "_op_args")),
                                        fs::path(final.string() + "_op_args")};
                pending.push_back(opArgs);
                fs::create_directory(opArgs.temporary);
                for (const auto& [relative, text] : opArgsFiles(cycleRun, opArgsCounters)) {
                    fs::create_directories((opArgs.temporary / relative).parent_path());
                    writeTextFile(opArgs.temporary / relative, text);
                }
            }
            if (options.faultInjection) options.faultInjection("cycle-built");
        }
        for (const auto& dir : pending) applyOutputPermissions(dir.temporary);
        for (const auto& dir : pending) {
            if (fs::exists(dir.final)) throw std::runtime_error("output directory already exists: " + dir.final.string());
            fs::rename(dir.temporary, dir.final);
            committed.push_back(dir.final);
        }
    } catch (...) {
        for (const auto& dir : pending) removeQuietly(dir.temporary);
        for (const auto& dir : committed) removeQuietly(dir);
        throw;
    }
    OutputResult result;
    for (const auto& dir : committed)
        if (!dir.string().ends_with("_op_args")) result.directories.push_back(dir);
    return result;
}

}  // namespace ascendsim

#include "profiler/writers/msprof_cli/msprof_collection.h"

#include <algorithm>
#include <optional>

#include "profiler/assembly/output_assembly.h"
#include "profiler/readers/prof_raw/raw_run_rebuild.h"
#include "profiler/writers/era2023/era2023_export.h"
#include "profiler/writers/timeline/msprof_timeline.h"
#include "profiler/writers/tree/prof_tree.h"

namespace ascendsim {

std::filesystem::path writeMsprofCollection(const std::filesystem::path& parent, const RunRecord& run,
                                            const ProfilerConfig& config, bool exportOn) {
    std::uint64_t start = run.endNs;
    for (const auto& k : run.kernels) start = std::min(start, k.device.startNs);
    for (const auto& api : run.apis) start = std::min(start, api.startNs);
    ProfTreeNames names;
    names.timestamp17 = localTimestamp17(run, start);
    names.suffix = profDirectorySuffix(run);
    names.exportTimestamp14 = localTimestamp17(run, run.endNs).substr(0, 14);
    // The collection keeps its raw data; the export adds the parsed files beside it.
    ProfilerConfig collection = config;
    collection.dataSimplification = false;
    const auto timeline = buildMsprofTimeline(run, collection);
    std::optional<std::string> msprofJson;
    if (exportOn && !timeline.empty()) msprofJson = renderMsprofTimelineJson(timeline);
    std::filesystem::create_directories(parent);
    const std::filesystem::path prof = writeProfTree(parent, run, collection, names, msprofJson);
    if (!exportOn) {
        std::filesystem::remove_all(prof / "mindstudio_profiler_output");
        std::filesystem::remove_all(prof / "mindstudio_profiler_log");
    } else if (collection.formatVersion == FormatVersion::Era2023 && rawDataRebuildsRun(run, collection)) {
        // The export of the raw data just written, as `ascendsim msprof --export=on --output=PROF_DIR`
        // makes it later (raw_run_rebuild.h).
        const RebuiltRun rebuilt = rebuildRunFromRaw(readRawProfData(prof), *run.chip);
        writeEra2023RawDataExport(prof, rebuilt.run, rebuilt.config, buildMsprofTimeline(rebuilt.run, rebuilt.config));
    } else if (collection.formatVersion == FormatVersion::Era2023) {
        writeEra2023Export(prof, run, collection, timeline);
    }
    return prof;
}

namespace {

// The torch ops as the E2E profiler's MsprofTx ranges, after the run's own markers.
void addFrameworkRanges(RunRecord& run) {
    std::uint64_t markId = 0;
    for (const MstxEventRecord& m : run.mstxEvents) markId = std::max(markId, m.markId + 1);
    for (const HostOpRecord& op : run.hostOps) {
        if (op.name.starts_with("ProfilerStep#")) continue;  // torch.profiler's step marks, not an op
        MstxEventRecord range;
        range.kind = MstxEventKind::Range;
        range.message = op.name;
        range.startNs = op.startNs;
        range.endNs = op.endNs;
        range.threadId = op.threadId;
        range.markId = markId++;
        run.mstxEvents.push_back(std::move(range));
    }
    std::stable_sort(run.mstxEvents.begin(), run.mstxEvents.end(),
                     [](const MstxEventRecord& a, const MstxEventRecord& b) { return a.startNs < b.startNs; });
}

}  // namespace

std::filesystem::path writeE2eCollection(const std::filesystem::path& parent, const RunRecord& cycleRun,
                                         const ProfilerConfig& config) {
    RunRecord run = cycleRun;
    if (config.e2e && config.e2e->useE2eProfiler) addFrameworkRanges(run);
    return writeMsprofCollection(parent, run, config, true);
}

}  // namespace ascendsim

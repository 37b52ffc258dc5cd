#include "profiler/writers/msprof_cli/msprof_collection.h"

#include <algorithm>
#include <optional>

#include "profiler/assembly/output_assembly.h"
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
    } else if (collection.formatVersion == FormatVersion::Era2023) {
        writeEra2023Export(prof, run, collection, timeline);
    }
    return prof;
}

}  // namespace ascendsim

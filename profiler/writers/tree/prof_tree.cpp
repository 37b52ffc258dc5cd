#include "profiler/writers/tree/prof_tree.h"

#include "profiler/format/file_output.h"

#include <cstdio>
#include <stdexcept>

#include "profiler/writers/prof_raw/raw_prof_data.h"
#include "profiler/writers/summary/api_statistic.h"
#include "profiler/writers/summary/data_preprocess.h"
#include "profiler/writers/summary/l2_cache.h"
#include "profiler/writers/summary/op_statistic.h"
#include "profiler/writers/summary/op_summary.h"
#include "profiler/writers/summary/task_time.h"
#include "profiler/writers/tree/export_log.h"

namespace ascendsim {

namespace {

constexpr std::size_t kSuffixLetters = 16;
constexpr std::uint32_t kLettersInAlphabet = 26;

void writeText(const std::filesystem::path& path, const std::string& text) {
    writeFileBytes(path, text);
}

// Writes a CSV only when it has rows (an empty text means an empty table).
void writeIfAny(const std::filesystem::path& path, const std::string& text) {
    if (!text.empty()) writeText(path, text);
}

}  // namespace

std::string profDirectoryName(const ProfTreeNames& names) {
    char sequence[16];
    std::snprintf(sequence, sizeof sequence, "%06u", names.sequence);
    return "PROF_" + std::string(sequence) + "_" + names.timestamp17 + "_" + names.suffix;
}

std::string profDirectorySuffix(const RunRecord& run) {
    // FNV-1a over the identifying fields, then base-26 letters.
    std::uint64_t hash = 14695981039346656037ULL;
    const auto mix = [&hash](const std::string& bytes) {
        for (unsigned char c : bytes) {
            hash ^= c;
            hash *= 1099511628211ULL;
        }
    };
    mix(run.hostName);
    mix(std::to_string(run.processId));
    mix(std::to_string(run.deviceId));
    mix(std::to_string(run.epochNs));
    std::string suffix;
    for (std::size_t i = 0; i < kSuffixLetters; ++i) {
        suffix.push_back(static_cast<char>('A' + hash % kLettersInAlphabet));
        hash = hash / kLettersInAlphabet + (hash % kLettersInAlphabet + 1) * 1099511628211ULL;
    }
    return suffix;
}

bool profTreeExportsSummaries(const ProfilerConfig& config) {
    return !config.dataSimplification && config.formatVersion != FormatVersion::Era2023;
}

std::filesystem::path writeProfTree(const std::filesystem::path& parentDir, const RunRecord& run,
                                    const ProfilerConfig& config, const ProfTreeNames& names,
                                    const std::optional<std::string>& msprofTimelineJson) {
    if (run.chip == nullptr) throw std::runtime_error("writeProfTree: the run has no chip");
    namespace fs = std::filesystem;
    const fs::path root = parentDir / profDirectoryName(names);
    const std::string id = std::to_string(run.deviceId);
    const fs::path host = root / "host";
    const fs::path device = root / ("device_" + id);
    fs::create_directories(host);
    fs::create_directories(device);

    const std::uint64_t startNs = 0;
    const std::uint64_t endNs = run.endNs;
    writeText(host / "info.json", renderHostInfoJson(run));
    writeText(host / "start_info", renderStartInfo(run, startNs));
    writeText(host / "end_info", renderEndInfo(run, endNs));
    writeText(host / "sample.json", renderSampleJson(run, config, root.filename().string() + "/host/"));
    writeText(host / "host_start.log", renderStartLog(run, startNs, true));
    writeText(device / ("info.json." + id), renderDeviceInfoJson(run));
    writeText(device / ("start_info." + id), renderStartInfo(run, startNs));
    writeText(device / ("end_info." + id), renderEndInfo(run, endNs));
    writeText(device / "sample.json", renderSampleJson(run, config, root.filename().string() + "/device_" + id + "/"));
    writeText(device / ("dev_start.log." + id), renderStartLog(run, startNs, false));

    // Raw data is an E2E collection's result; a torch_npu.profiler run keeps it unless
    // data_simplification deletes it after the export (prof_raw/).
    if (config.e2e || !config.dataSimplification) writeRawProfData(root, run, config);

    // The 2023 era exports into device_{id}/{timeline,summary}/ instead (profiler/writers/era2023).
    if (profTreeExportsSummaries(config)) {
        const fs::path out = root / "mindstudio_profiler_output";
        fs::create_directories(out);
        const std::string ts = "_" + names.exportTimestamp14;
        writeIfAny(out / ("op_summary" + ts + ".csv"), renderOpSummaryCsv(run, config));
        writeIfAny(out / ("op_statistic" + ts + ".csv"), renderOpStatisticCsv(run, config));
        writeIfAny(out / ("task_time" + ts + ".csv"), renderTaskTimeCsv(run, config));
        writeIfAny(out / ("api_statistic" + ts + ".csv"), renderApiStatisticCsv(run, config));
        writeIfAny(out / ("l2_cache" + ts + ".csv"), renderL2CacheCsv(run, config));
        writeIfAny(out / ("aicpu" + ts + ".csv"), renderDataPreprocessCsv(run, config));
        if (msprofTimelineJson) writeText(out / ("msprof" + ts + ".json"), *msprofTimelineJson);
        writeExportLog(root, run);
    }
    return root;
}

}  // namespace ascendsim

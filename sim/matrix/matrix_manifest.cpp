#include "sim/matrix/matrix_manifest.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "sim/engine/version.h"
#include "sim/matrix/sha256.h"

namespace ascendsim {

namespace fs = std::filesystem;

namespace {

nlohmann::ordered_json treeFiles(const fs::path& tree) {
    std::vector<fs::path> files;
    for (const auto& entry : fs::recursive_directory_iterator(tree)) {
        if (entry.is_regular_file()) files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const fs::path& file : files) {
        list.push_back({{"path", fs::relative(file, tree).generic_string()},
                        {"bytes", fs::file_size(file)},
                        {"sha256", sha256OfFile(file.string())}});
    }
    return list;
}

}  // namespace

void writeMatrixManifest(const std::string& matrixDir, const std::string& workloadPath,
                         const std::vector<std::string>& extraArguments, const std::vector<MatrixOutcome>& outcomes) {
    nlohmann::ordered_json manifest;
    manifest["ascendsim_version"] = std::string(simulatorVersion());
    // The workload by name and content, not by path: the manifest must not depend on where it ran.
    manifest["workload"] = {{"file", fs::path(workloadPath).filename().string()},
                            {"sha256", sha256OfFile(workloadPath)}};
    manifest["extra_arguments"] = extraArguments;
    nlohmann::ordered_json combinations = nlohmann::ordered_json::array();
    for (const MatrixOutcome& outcome : outcomes) {
        const MatrixCombination& c = *outcome.combination;
        nlohmann::ordered_json entry;
        entry["name"] = c.name;
        entry["options"] = {{"level", profilerLevelName(c.level)},
                            {"aic_metrics", aicMetricsName(c.metrics)},
                            {"format_version", formatVersionName(c.era)},
                            {"export_type", exportTypesName(c.exports)}};
        if (c.ranks > 0) entry["options"]["ranks"] = c.ranks;
        entry["arguments"] = c.runArguments;
        entry["status"] = outcome.written ? "written" : "skipped";
        if (outcome.written) {
            entry["files"] = treeFiles(fs::path(matrixDir) / c.name);
        } else {
            entry["reason"] = outcome.skipReason;
        }
        combinations.push_back(std::move(entry));
    }
    manifest["combinations"] = std::move(combinations);
    const fs::path path = fs::path(matrixDir) / "MANIFEST.json";
    std::ofstream out(path, std::ios::binary);
    if (!out) throw std::runtime_error("cannot write " + path.string() + ": " + std::strerror(errno));
    out << manifest.dump(2) << "\n";
    if (!out.flush()) throw std::runtime_error("cannot write " + path.string() + ": " + std::strerror(errno));
}

}  // namespace ascendsim

#include "sim/msprof_cli/msprof_export_only.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include <unistd.h>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <vector>

#include "profiler/readers/prof_raw/raw_run_rebuild.h"
#include "profiler/writers/era2023/era2023_export.h"
#include "profiler/writers/timeline/msprof_timeline.h"
#include "sim/config/chip_config_loader.h"
#include "sim/config/config_error.h"
#include "sim/engine/exit_codes.h"

namespace fs = std::filesystem;

namespace ascendsim {

namespace {

class ExportInputError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::vector<fs::path> profDirectories(const fs::path& output) {
    if (fs::is_directory(output / "host")) return {output};
    std::vector<fs::path> dirs;
    if (fs::is_directory(output))
        for (const auto& entry : fs::directory_iterator(output))
            if (entry.is_directory() && entry.path().filename().string().starts_with("PROF_") &&
                fs::is_directory(entry.path() / "host"))
                dirs.push_back(entry.path());
    std::sort(dirs.begin(), dirs.end());
    if (dirs.empty())
        throw ExportInputError("--output '" + output.string() + "': no PROF_* directory (with host/) to export");
    return dirs;
}

double mhzField(const nlohmann::json& info, const char* key) {
    if (!info.contains(key) || !info[key].is_string()) return -1.0;
    try {
        return std::stod(info[key].get<std::string>());
    } catch (const std::exception&) {
        return -1.0;
    }
}

bool sameMhz(double a, double b) { return std::fabs(a - b) < 1e-6; }

// The configs whose counts and clocks are the ones info.json reports (prof_tree_info.cpp writes them).
std::vector<ChipConfig> fittingChips(const RawProfData& raw, const std::string& configDir) {
    const nlohmann::json& d = raw.deviceInfo;
    const bool split = raw.platformVersion == "5";
    std::vector<ChipConfig> fitting;
    for (const ChipSummary& summary : listChips(configDir)) {
        if ((summary.organisation == CoreOrganisation::Split) != split) continue;
        ChipConfig chip = loadChipByName(summary.name, configDir);
        const double vectorMhz = chip.vectorCoreFreqMhz > 0 ? chip.vectorCoreFreqMhz : chip.aiCoreFreqMhz;
        if (d.value("ai_core_num", -1) == static_cast<int>(chip.aiCoreCount) &&
            d.value("aiv_num", -1) == static_cast<int>(split ? chip.vectorCoreCount : 0) &&
            d.value("ai_cpu_core_num", -1) == static_cast<int>(chip.aiCpu.count) &&
            sameMhz(mhzField(d, "aic_frequency"), chip.aiCoreFreqMhz) && sameMhz(mhzField(d, "aiv_frequency"), vectorMhz) &&
            sameMhz(mhzField(d, "hwts_frequency"), chip.hwtsFreqMhz))
            fitting.push_back(std::move(chip));
    }
    return fitting;
}

// The exported files' bytes with `chip`, written into a scratch folder.
std::map<std::string, std::string> exportWith(const RawProfData& raw, const ChipConfig& chip, const fs::path& scratch) {
    RebuiltRun rebuilt = rebuildRunFromRaw(raw, chip);
    fs::remove_all(scratch);
    writeEra2023RawDataExport(scratch, rebuilt.run, rebuilt.config, buildMsprofTimeline(rebuilt.run, rebuilt.config));
    std::map<std::string, std::string> files;
    for (const auto& e : fs::recursive_directory_iterator(scratch)) {
        if (!e.is_regular_file()) continue;
        std::ifstream in(e.path(), std::ios::binary);
        std::ostringstream bytes;
        bytes << in.rdbuf();
        files[fs::relative(e.path(), scratch).string()] = bytes.str();
    }
    fs::remove_all(scratch);
    return files;
}

// The one chip info.json fits. Several chips (the 910B1 and the 910_9391 share every DeviceInfo
// field) are fine when the export is the same with each: then it does not depend on the choice.
ChipConfig identifyChip(const RawProfData& raw, const std::string& configDir) {
    std::vector<ChipConfig> fitting = fittingChips(raw, configDir);
    const std::string info = (raw.root / ("device_" + std::to_string(raw.deviceId)) /
                              ("info.json." + std::to_string(raw.deviceId))).string();
    if (fitting.empty())
        throw ExportInputError(info + ": no chip config in " + configDir + " has its DeviceInfo counts and clocks; give --chip");
    if (fitting.size() > 1) {
        const fs::path scratch = fs::temp_directory_path() / ("ascendsim_export_" + std::to_string(::getpid()));
        const auto first = exportWith(raw, fitting.front(), scratch);
        std::string names = fitting.front().name;
        bool same = true;
        for (std::size_t i = 1; i < fitting.size(); ++i) {
            names += ", " + fitting[i].name;
            same = same && exportWith(raw, fitting[i], scratch) == first;
        }
        if (!same) throw ExportInputError(info + ": DeviceInfo fits several chips whose exports differ (" + names + "); give --chip");
    }
    return std::move(fitting.front());
}

struct PendingExport {
    fs::path prof;
    std::unique_ptr<ChipConfig> chip;
    RebuiltRun rebuilt;
};

void writeExport(PendingExport& p, std::ostream& out) {
    // A new export replaces the old one, as msprof's does.
    const fs::path device = p.prof / ("device_" + std::to_string(p.rebuilt.run.deviceId));
    fs::remove_all(device / "timeline");
    fs::remove_all(device / "summary");
    fs::remove_all(p.prof / "analyze");
    p.rebuilt.run.chip = p.chip.get();
    writeEra2023RawDataExport(p.prof, p.rebuilt.run, p.rebuilt.config, buildMsprofTimeline(p.rebuilt.run, p.rebuilt.config));
    out << "exported " << device.string() << "/timeline and summary\n";
}

}  // namespace

int exportExistingCollection(const std::string& output, const std::string& chipName, const std::string& configDir,
                             std::ostream& out, std::ostream& err) {
    std::vector<PendingExport> pending;
    try {
        for (const fs::path& prof : profDirectories(output)) {
            const RawProfData raw = readRawProfData(prof);
            auto chip = std::make_unique<ChipConfig>(chipName.empty() ? identifyChip(raw, configDir)
                                                                      : loadChipByName(chipName, configDir));
            RebuiltRun rebuilt = rebuildRunFromRaw(raw, *chip);
            pending.push_back({prof, std::move(chip), std::move(rebuilt)});
        }
    } catch (const RawDataError& e) {
        err << "ascendsim msprof: " << e.what() << "\n";
        return kExitBadInput;
    } catch (const ExportInputError& e) {
        err << "ascendsim msprof: " << e.what() << "\n";
        return kExitBadInput;
    } catch (const ConfigError& e) {
        err << "ascendsim msprof: --chip: " << e.what() << "\n";
        return kExitBadInput;
    }
    try {
        for (PendingExport& p : pending) writeExport(p, out);
    } catch (const std::exception& e) {
        err << "ascendsim msprof: writing the export failed: " << e.what() << "\n";
        return kExitRuntimeFailure;
    }
    return kExitSuccess;
}

}  // namespace ascendsim

#include "sim/replay/replay_command.h"

#include <cstdio>
#include <filesystem>
#include <system_error>

#include "profiler/report/html/html_file.h"

#include "sim/config/chip_config_loader.h"
#include "sim/replay/input/chip_inference.h"
#include "sim/replay/input/l2_cache_reader.h"
#include "sim/replay/report/replay_html.h"

namespace ascendsim {

namespace {

L2State l2Of(const std::string& text) {
    L2State state{};
    if (!parseL2State(text, state)) throw ReplayInputError("--l2: expected cold, warm, producer or timeline, got '" + text + "'");
    return state;
}

ProfileSource sourceOf(const std::string& text) {
    ProfileSource source{};
    if (!parseProfileSource(text, source)) throw ReplayInputError("--source: expected auto, text or db, got '" + text + "'");
    return source;
}

}  // namespace

PreparedReplay prepareReplay(const ReplayOptions& options) {
    const L2State l2 = l2Of(options.l2);
    RealProfile profile = loadRealProfile(options.profileDir, sourceOf(options.source));
    ReplayReport report;
    report.source = profile.source;
    report.exportType = profile.exportType;
    report.era = profile.era;
    report.hasShapes = profile.hasShapes;
    report.l2 = l2;
    report.computeRows = profile.kernels.size();
    report.communicationTasks = profile.communicationTasks;
    report.communicationUs = profile.communicationUs;
    if (options.chip.empty()) {
        const ChipChoice choice = inferChip(chipEvidence(profile), listChips(options.configDir));
        report.chipName = choice.name;
        report.chipReason = "inferred: " + choice.reason;
    } else {
        report.chipName = options.chip;
        report.chipReason = "given by --chip";
    }
    if (!options.chipOverrides.empty()) report.chipReason += "; --chip-set " + std::to_string(options.chipOverrides.size()) + " keys";
    ChipConfig chip = loadChipByName(report.chipName, options.configDir, options.chipOverrides);
    const TimelineReads reads{options.l2Scalars == "held" ? ScalarInputs::Held : ScalarInputs::Cold,
                              options.l2Views == "autograd" ? ViewInputs::NodeViews : ViewInputs::New};
    report.kernels = distinctKernels(profile, l2, chip.l2.sizeBytes, &chip, options.codeL2 == "walk",
                                     options.l2Victims == "timeline", options.hcclTraffic == "on", reads);
    if (preloadsResidents(l2) && profile.hasShapes && profile.exportType == "text") {
        const L2VictimRates rates = readL2CacheCsv(profile.source.parent_path() / "l2_cache.csv");
        if (!rates.empty())
            report.residencyCheck = residencyAgainstVictimRates(
                profile, residencyByRow(profile, l2, chip.l2.sizeBytes, reads).residentInputs, rates);
    }
    return PreparedReplay{std::move(report), std::move(chip)};
}

void runReplay(PreparedReplay& prepared, const ChipConfig& chip, bool showProgress) {
    simulateKernels(prepared.report.kernels, chip, prepared.report.l2, [&](std::size_t done, std::size_t total) {
        if (!showProgress) return;
        // A terminal user sees the replay advance; pipes and CI logs stay clean.
        std::fprintf(stderr, "\rascendsim replay: %zu/%zu distinct kernels", done, total);
        if (done == total) std::fputc('\n', stderr);
    });
}

int reportReplayFailure(std::ostream& err, const char* command) {
    try {
        throw;
    } catch (const ReplayInputError& e) {
        err << "ascendsim " << command << ": " << e.what() << "\n";
        return 2;
    } catch (const ConfigError& e) {
        err << "ascendsim " << command << ": " << e.what() << "\n";
        return 2;
    } catch (const std::system_error& e) {
        err << "ascendsim " << command << ": " << e.what() << "\n";
        return 1;
    } catch (const std::exception& e) {
        err << "ascendsim " << command << ": " << e.what() << "\n";
        return 1;
    }
}

int runReplayCommand(const ReplayOptions& options, std::ostream& out, std::ostream& err) {
    try {
        PreparedReplay prepared = prepareReplay(options);
        runReplay(prepared, prepared.chip, options.showProgress);
        // The page first (written whole or not at all), then the CSVs; a failure of either leaves
        // neither behind.
        if (!options.htmlPath.empty())
            writeHtmlFile(options.htmlPath, [&](std::ostream& file) { writeReplayHtml(prepared.report, file); });
        try {
            writeReplayReport(prepared.report, options.outputDir);
        } catch (...) {
            std::error_code ignored;
            if (!options.htmlPath.empty()) std::filesystem::remove(options.htmlPath, ignored);
            throw;
        }
        out << renderReplaySummary(prepared.report);
        if (!options.htmlPath.empty()) out << "HTML report written to " << options.htmlPath << "\n";
        return 0;
    } catch (...) {
        return reportReplayFailure(err, "replay");
    }
}

}  // namespace ascendsim

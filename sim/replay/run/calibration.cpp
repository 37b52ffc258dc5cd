#include "sim/replay/run/calibration.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <limits>
#include <optional>
#include <sstream>
#include <system_error>

#include "sim/config/chip_config_loader.h"
#include "sim/config/config_error.h"
#include "sim/replay/replay_command.h"
#include "sim/replay/report/replay_statistics.h"

namespace ascendsim {

namespace {

// Fitting order: HBM and L2 first (the streaming kernels' time), then the latency and per-core
// cold-read limit (the small and skinny kernels'), then the start-up and the scalar issue costs
// (every kernel's fixed part). A DRAM efficiency is a share of the nominal rate: it stays <= 1.
const std::vector<CalibrationParameter> kParameters = {
    {"hbm.bandwidth_gbps", [](const ChipConfig& c) { return c.hbm.bandwidthGBps; }, false, 0.25, 1.5},
    {"hbm.read_efficiency", [](const ChipConfig& c) { return c.hbm.readEfficiency; }, false, 0.5, 1.5, 1.0},
    {"hbm.write_efficiency", [](const ChipConfig& c) { return c.hbm.writeEfficiency; }, false, 0.5, 1.5, 1.0},
    {"l2.bandwidth_bytes_per_cycle", [](const ChipConfig& c) { return c.l2.bandwidthBytesPerCycle; }, false, 0.25, 2.0},
    {"hbm.read_latency_cycles", [](const ChipConfig& c) { return double(c.hbm.readLatencyCycles); }, true, 0.25, 4.0},
    {"hbm.outstanding_read_lines_per_core", [](const ChipConfig& c) { return double(c.hbm.outstandingReadLinesPerCore); },
     true, 0.5, 2.0},
    {"pipes.block_start_cycles", [](const ChipConfig& c) { return double(c.blockStartCycles); }, true, 0.1, 10.0},
    {"pipes.scalar_cycles_per_instruction", [](const ChipConfig& c) { return double(c.scalarCyclesPerInstruction); },
     true, 0.5, 2.0},
    {"pipes.scalar_cycles_per_instruction_aic",
     [](const ChipConfig& c) { return double(c.scalarCyclesPerInstructionAic); }, true, 0.5, 2.0},
};

struct Score {
    double meanSquaredLog = 0.0;
    double medianAbsError = 0.0;
    std::size_t kernels = 0;
};

class Calibration {
public:
    explicit Calibration(const CalibrateOptions& options) : options_(options) {
        for (const auto& dir : options.profileDirs) {
            ReplayOptions replay;
            replay.profileDir = dir;
            replay.chip = options.baseChip;
            replay.configDir = options.configDir;
            prepared_.push_back(prepareReplay(replay));
        }
    }

    // The objective with `overrides` on the base chip. A trial value the chip's own checks reject
    // (e.g. an HBM bandwidth below the concurrent capacity the config states) is infeasible: it
    // scores +inf, so the search stays inside the valid range. The base chip itself must load.
    Score score(const std::vector<std::string>& overrides) {
        std::optional<ChipConfig> loaded;
        try {
            loaded.emplace(loadChipByName(options_.baseChip, options_.configDir, overrides));
        } catch (const ConfigError&) {
            if (evaluations_ == 0) throw;
            ++infeasible_;
            Score rejected;
            rejected.meanSquaredLog = std::numeric_limits<double>::infinity();
            return rejected;
        }
        const ChipConfig& chip = *loaded;
        std::vector<double> logs, errors;
        for (auto& p : prepared_) {
            runReplay(p, chip, false);
            for (const auto& k : p.report.kernels) {
                if (!k.simulated || k.realUs <= 0.0 || k.simulated->durationUs <= 0.0) continue;
                const double ratio = k.simulated->durationUs / k.realUs;
                logs.push_back(std::log(ratio) * std::log(ratio));
                errors.push_back(std::fabs(ratio - 1.0));
            }
        }
        ++evaluations_;
        if (options_.showProgress) std::fprintf(stderr, "\rascendsim calibrate: %u replays", evaluations_);
        Score s;
        s.kernels = logs.size();
        for (double l : logs) s.meanSquaredLog += l;
        if (!logs.empty()) s.meanSquaredLog /= static_cast<double>(logs.size());
        s.medianAbsError = median(errors);
        return s;
    }

    unsigned evaluations() const { return evaluations_; }
    unsigned infeasible() const { return infeasible_; }

private:
    const CalibrateOptions& options_;
    std::vector<PreparedReplay> prepared_;
    unsigned evaluations_ = 0;
    unsigned infeasible_ = 0;
};

std::string valueText(double value, bool integer) {
    std::ostringstream text;
    if (integer) text << std::llround(value);
    else text << std::setprecision(6) << value;
    return text.str();
}

std::string scoreText(const Score& s) {
    std::ostringstream text;
    text << "rms log error " << std::fixed << std::setprecision(3) << std::sqrt(s.meanSquaredLog) << ", median abs error "
         << std::setprecision(1) << s.medianAbsError * 100.0 << " %";
    return text.str();
}

struct Fitted {
    const CalibrationParameter* parameter;
    double before, after;
    Score scoreBefore, scoreAfter;
};

std::string yamlOf(const CalibrateOptions& o, const std::vector<Fitted>& fitted, const Score& base, const Score& final) {
    std::ostringstream y;
    const std::string name = std::filesystem::path(o.outputFile).stem().string();
    y << "# Fitted by `ascendsim calibrate` (docs/fidelity.md) to " << base.kernels << " replayed kernels of:\n";
    for (const auto& dir : o.profileDirs) y << "#   " << dir << "\n";
    y << "# Objective: mean squared log(sim/real). " << o.baseChip << ": " << scoreText(base) << "; this chip: "
      << scoreText(final) << ".\nschema_version: 1\ninherits: " << o.baseChip << "\nname: " << name << "\n";
    // One mapping per section, in the order the sections were first fitted.
    std::vector<std::pair<std::string, std::string>> sections;
    for (const auto& f : fitted) {
        const std::string key(f.parameter->key);
        const auto dot = key.find('.');
        const std::string section = key.substr(0, dot);
        auto it = std::find_if(sections.begin(), sections.end(), [&](const auto& s) { return s.first == section; });
        if (it == sections.end()) it = sections.insert(sections.end(), {section, ""});
        it->second += "  " + key.substr(dot + 1) + ": " + valueText(f.after, f.parameter->integer) + "  # fitted: " +
                      valueText(f.before, f.parameter->integer) + " -> " + valueText(f.after, f.parameter->integer) +
                      "; " + scoreText(f.scoreBefore) + " -> " + scoreText(f.scoreAfter) + "\n";
    }
    for (const auto& [section, lines] : sections) y << section << ":\n" << lines;
    return y.str();
}

}  // namespace

const std::vector<CalibrationParameter>& calibrationParameters() { return kParameters; }

int runCalibrateCommand(const CalibrateOptions& options, std::ostream& out, std::ostream& err) {
    try {
        if (options.profileDirs.empty()) throw ReplayInputError("calibrate: name at least one REAL_DIR");
        if (options.baseChip.empty()) throw ReplayInputError("calibrate: --chip BASE is required");
        if (options.outputFile.empty()) throw ReplayInputError("calibrate: -o my_chip.yaml is required");
        for (const auto& key : options.only) {
            bool known = false;
            for (const auto& p : kParameters) known = known || p.key == key;
            if (!known) throw ReplayInputError("--param: '" + key + "' is not a calibrated chip key");
        }
        Calibration calibration(options);
        const ChipConfig base = loadChipByName(options.baseChip, options.configDir);
        std::vector<std::string> overrides;
        const Score baseScore = calibration.score(overrides);
        if (baseScore.kernels == 0) throw ReplayInputError("calibrate: no kernel of the profiles could be replayed");
        Score current = baseScore;
        std::vector<Fitted> fitted;
        for (const auto& p : kParameters) {
            if (!options.only.empty() && std::find(options.only.begin(), options.only.end(), p.key) == options.only.end())
                continue;
            const double start = p.value(base);
            if (start <= 0.0) continue;
            const auto trial = [&](double logValue) {
                auto edits = overrides;
                edits.push_back(std::string(p.key) + "=" + valueText(std::exp(logValue), p.integer));
                return calibration.score(edits);
            };
            // Golden-section search for the minimum of the objective over log(value).
            const double ratio = (std::sqrt(5.0) - 1.0) / 2.0;
            double lo = std::log(start * p.lowFactor), hi = std::log(std::min(start * p.highFactor, p.maxValue));
            if (hi <= lo) continue;  // the base value already sits at the key's cap
            double x1 = hi - ratio * (hi - lo), x2 = lo + ratio * (hi - lo);
            Score f1 = trial(x1), f2 = trial(x2);
            for (unsigned i = 2; i < options.evaluations; ++i) {
                if (f1.meanSquaredLog <= f2.meanSquaredLog) {
                    hi = x2, x2 = x1, f2 = f1;
                    x1 = hi - ratio * (hi - lo);
                    f1 = trial(x1);
                } else {
                    lo = x1, x1 = x2, f1 = f2;
                    x2 = lo + ratio * (hi - lo);
                    f2 = trial(x2);
                }
            }
            const bool firstBetter = f1.meanSquaredLog <= f2.meanSquaredLog;
            const Score best = firstBetter ? f1 : f2;
            if (best.meanSquaredLog >= current.meanSquaredLog) continue;  // the base value stays
            const double value = std::exp(firstBetter ? x1 : x2);
            overrides.push_back(std::string(p.key) + "=" + valueText(value, p.integer));
            fitted.push_back(Fitted{&p, start, value, current, best});
            current = best;
        }
        if (options.showProgress) std::fputc('\n', stderr);
        const std::string yaml = yamlOf(options, fitted, baseScore, current);
        std::ofstream file(options.outputFile, std::ios::binary | std::ios::trunc);
        if (!file) throw std::system_error(errno, std::generic_category(), "cannot write " + options.outputFile);
        file << yaml;
        file.close();
        if (!file) throw std::system_error(errno, std::generic_category(), "cannot write " + options.outputFile);
        out << yaml << "# " << calibration.evaluations() << " replays";
        if (calibration.infeasible() > 0)
            out << ", " << calibration.infeasible() << " trial values outside the chip's valid range (not replayed)";
        out << "\n";
        return 0;
    } catch (...) {
        return reportReplayFailure(err, "calibrate");
    }
}

}  // namespace ascendsim

#pragma once
// The calibration runner behind `ascendsim microbench`: builds single-core programs (1024-style
// back-to-back transfers per path and size, mmad sweeps, vector sweeps), runs them on the real
// Device and sets the model's numbers beside the published measurements (hardware.md §1.3,
// §2.5, §2.6), plus chip-wide streaming runs against the configured HBM and L2 bandwidths.
#include <ostream>
#include <string>
#include <vector>

#include "models/chip/chip_config.h"

namespace ascendsim {

struct MicrobenchRow {
    std::string what;        // "GM->L1 (910b1)", "mmad m=32 k=16", "vadd fp16 start-up"
    std::string size;        // "64 KiB", "n=128", "128 repeats"
    std::string unit;        // "GiB/s", "FLOP/cycle", "B/cycle", "cycles", "GB/s"
    double model = 0.0;      // measured on the simulated Device
    double reference = 0.0;  // published measurement or configured bandwidth
    double absoluteTolerance = 0.0;  // > 0: accepted when |model - reference| <= this (cycles)
    double errorPercent() const { return reference != 0.0 ? (model / reference - 1.0) * 100 : 0; }
    // Calibration target: within ±10 %, or within absoluteTolerance where one is set.
    bool withinTolerance() const;
};

// Single-core transfer sweep: bandwidth of back-to-back transfers on every path the chip has,
// in GiB/s at the 1.8 GHz the references were measured at (a per-cycle comparison).
std::vector<MicrobenchRow> runTransferMicrobench(const ChipConfig& chip);
// mmad fp16 m=32 k=16 sweep over n: FLOP per cycle.
std::vector<MicrobenchRow> runMmadMicrobench(const ChipConfig& chip);
// Vector classes: steady bytes per cycle (128 repeats) and start-up cycles.
std::vector<MicrobenchRow> runVectorMicrobench(const ChipConfig& chip);
// Chip-wide streaming: all AIC cold (vs HBM bandwidth) and all vector cores on an L2-resident
// data set, second pass (vs L2 bandwidth), in GB/s.
std::vector<MicrobenchRow> runContentionMicrobench(const ChipConfig& chip);

std::vector<MicrobenchRow> runAllMicrobenchmarks(const ChipConfig& chip);

void printMicrobenchTable(const std::string& title, const std::vector<MicrobenchRow>& rows,
                          std::ostream& out);

// Loads `chipName` from `configDir` (default: defaultConfigDir()), runs everything and prints
// the table. Throws ConfigError for an unknown chip.
void printMicrobenchReport(const std::string& chipName, std::ostream& out);
void printMicrobenchReport(const std::string& chipName, const std::string& configDir,
                           std::ostream& out);

}  // namespace ascendsim

#include "sim/microbench/microbench_runner.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "models/memory/shared_memory_system.h"
#include "models/timing/transfer_timing.h"
#include "sim/config/chip_config_loader.h"
#include "sim/microbench/device_run.h"
#include "sim/microbench/many_core_streaming.h"
#include "sim/microbench/reference_measurements.h"
#include "sim/microbench/streaming_bench.h"

namespace ascendsim {

namespace {

constexpr double kBytesPerGiB = 1073741824.0;
constexpr std::uint32_t kBackToBack = 512;  // marginal cost of 512 more transfers (N vs 2N)
constexpr std::uint16_t kVectorRepeats = 128;
constexpr double kStartupToleranceCycles = 1.0;           // start-up target: ±1 cycle
constexpr std::uint64_t kVectorRegionBytes = 48 * 1024;  // a multiple of the UB bank period

CoreKind kindForPath(MemSpace src, MemSpace dst) {
    return (src == MemSpace::UB || dst == MemSpace::UB) ? CoreKind::Vector : CoreKind::Cube;
}

std::string formatKib(double kib) {
    std::ostringstream text;
    text << kib << " KiB";
    return text.str();
}

std::string pathLabel(const TransferReference& ref) {
    std::string label = pathName(ref.src, ref.dst);
    if (ref.conversion == LayoutConversion::Nd2Nz) label += " ND2NZ";
    if (ref.conversion == LayoutConversion::Nz2Nd) label += " NZ2ND";
    return label + " (" + ref.table + ")";
}

Instruction transferOf(const TransferReference& ref, std::uint64_t bytes) {
    DataMove move;
    move.src = ref.src;
    move.dst = ref.dst;
    move.srcAddr = 0;
    move.dstAddr = (ref.src == ref.dst) ? 64 * 1024 : 0;  // UB->UB: disjoint source and destination
    move.burstBytes = static_cast<std::uint32_t>(kMeasuredBurstBytes);  // MSKPP moved 1 KiB bursts
    move.burstCount = static_cast<std::uint32_t>(bytes / kMeasuredBurstBytes);
    move.conversion = ref.conversion;
    return Instruction::move(move);
}

// Operands in separate 48 KiB regions, offset so that per repeat the two sources use disjoint
// bank groups and the destination a different bank of the first source's groups: the
// measurement shows the class cost, not bank conflicts.
VectorInstr vectorOf(const VectorReference& ref, std::uint16_t repeats) {
    VectorInstr v;
    v.op = ref.op;
    v.dtype = ref.dtype;
    v.srcType = ref.dtype;
    v.repeats = repeats;
    v.mask = static_cast<std::uint16_t>(256 / bytesOf(ref.dtype));
    v.src0 = 0;
    v.src1 = kVectorRegionBytes + 256;
    v.dst = 2 * kVectorRegionBytes + 512;
    // A reduction writes one element per repeat, so its destination stays in one bank while a
    // sweeping source meets that bank every G·B blocks; re-reading one source repeat keeps the
    // source and destination banks apart (the class cost, not a layout's conflicts).
    if (vectorClassOf(ref.op) == VectorClass::Reduction) v.src0RepeatStride = 0;
    return v;
}

std::string vectorLabel(const VectorReference& ref) {
    return std::string(vectorOpName(ref.op)) + " " + std::string(dataTypeName(ref.dtype));
}

}  // namespace

bool MicrobenchRow::withinTolerance() const {
    if (absoluteTolerance > 0.0) return std::abs(model - reference) <= absoluteTolerance + 1e-9;
    return std::abs(errorPercent()) <= 10.0;
}

std::vector<MicrobenchRow> runTransferMicrobench(const ChipConfig& config) {
    const ChipConfig chip = withLoopResidentCode(config);
    std::vector<MicrobenchRow> rows;
    for (const TransferReference& ref : transferReferences()) {
        if (chip.findPath(ref.src, ref.dst) == nullptr) continue;
        const auto bytes = static_cast<std::uint64_t>(ref.kib * 1024);
        const double cycles = marginalCyclesPerRepetition(
            chip, kindForPath(ref.src, ref.dst), {transferOf(ref, bytes)}, kBackToBack);
        const double gibps = static_cast<double>(bytes) / (cycles / kReferenceClockHz) / kBytesPerGiB;
        rows.push_back({pathLabel(ref), formatKib(ref.kib), "GiB/s", gibps, ref.gibPerSecond});
    }
    return rows;
}

std::vector<MicrobenchRow> runMmadMicrobench(const ChipConfig& config) {
    const ChipConfig chip = withLoopResidentCode(config);
    std::vector<MicrobenchRow> rows;
    for (const MmadReference& ref : mmadReferences()) {
        Mmad mmad;
        mmad.m = ref.m;
        mmad.k = ref.k;
        mmad.n = ref.n;
        mmad.l0cAddr = 0;
        const double cycles =
            marginalCyclesPerRepetition(chip, CoreKind::Cube, {Instruction::mmad(mmad)}, kBackToBack);
        const double flopsPerCycle = 2.0 * ref.m * ref.k * ref.n / cycles;
        rows.push_back({"mmad fp16 m=" + std::to_string(ref.m) + " k=" + std::to_string(ref.k),
                        "n=" + std::to_string(ref.n), "FLOP/cycle", flopsPerCycle,
                        ref.flopsPerCycle});
    }
    return rows;
}

std::vector<MicrobenchRow> runVectorMicrobench(const ChipConfig& config) {
    const ChipConfig chip = withLoopResidentCode(config);
    std::vector<MicrobenchRow> rows;
    for (const VectorReference& ref : vectorReferences()) {
        const double one = marginalCyclesPerRepetition(
            chip, CoreKind::Vector, {Instruction::vector(vectorOf(ref, 1))}, kBackToBack);
        const double many = marginalCyclesPerRepetition(
            chip, CoreKind::Vector, {Instruction::vector(vectorOf(ref, kVectorRepeats))}, 64);
        const double perRepeat = (many - one) / (kVectorRepeats - 1);
        rows.push_back({vectorLabel(ref), std::to_string(kVectorRepeats) + " repeats", "B/cycle",
                        256.0 * kVectorRepeats / many, ref.bytesPerCycle});
        rows.push_back({vectorLabel(ref) + " start-up", "1 repeat", "cycles", one - perRepeat,
                        ref.startupCycles, kStartupToleranceCycles});
    }
    return rows;
}

std::vector<MicrobenchRow> runContentionMicrobench(const ChipConfig& chip) {
    constexpr std::uint64_t kCubeTransfer = 64 * 1024;
    constexpr std::uint64_t kVectorTransfer = 128 * 1024;
    std::vector<MicrobenchRow> rows;
    // Cold reads with no write-back queued get the HBM bandwidth times its read-only efficiency.
    const double hbmReadGBps = chip.hbm.bandwidthGBps * hbmReadOnlyEfficiency(chip.hbm);
    // Cold data set larger than a core's share of L2 traffic: every line misses once.
    const std::uint64_t cubeBytes = 64 * kCubeTransfer;
    const StreamingPasses cube = runStreamingPasses(chip, CoreKind::Cube, kCubeTransfer, cubeBytes);
    rows.push_back({"all " + std::to_string(cube.cores) + " AI cores GM->L1 cold, aggregate",
                    "64 KiB", "GB/s", cube.firstPassGBps, hbmReadGBps});
    // Vector cores (or coupled cores) on a data set that fits in L2: second pass at L2 speed.
    const CoreKind vectorKind = chip.vectorCoreCount > 0 || chip.organisation == CoreOrganisation::Coupled
                                    ? CoreKind::Vector
                                    : CoreKind::Cube;
    const std::uint32_t streamers = chip.organisation == CoreOrganisation::Split ? chip.vectorCoreCount
                                                                                  : chip.aiCoreCount;
    const std::uint64_t perCore =
        std::max<std::uint64_t>(kVectorTransfer,
                                chip.l2.sizeBytes / 2 / streamers / kVectorTransfer * kVectorTransfer);
    const StreamingPasses warm = runStreamingPasses(chip, vectorKind, kVectorTransfer, perCore);
    const double l2GBps = chip.l2.bandwidthBytesPerCycle * chip.aiCoreFreqMhz * 1e6 / 1e9;
    rows.push_back({"all " + std::to_string(warm.cores) + " cores GM->UB, pass 1 (cold)",
                    formatKib(perCore / 1024.0) + "/core", "GB/s", warm.firstPassGBps, hbmReadGBps});
    // With few cores the second pass is bound by the cores themselves, not by the L2.
    const double coresGBps = warm.cores * singleCoreStreamingGBps(chip, vectorKind, kVectorTransfer);
    rows.push_back({"all " + std::to_string(warm.cores) + " cores GM->UB, pass 2 (in L2)" +
                        (coresGBps < l2GBps ? " [ref: cores x 1-core]" : " [ref: L2]"),
                    formatKib(perCore / 1024.0) + "/core", "GB/s", warm.secondPassGBps,
                    std::min(l2GBps, coresGBps)});
    return rows;
}

std::vector<MicrobenchRow> runAllMicrobenchmarks(const ChipConfig& chip) {
    std::vector<MicrobenchRow> rows = runTransferMicrobench(chip);
    for (auto part : {runMmadMicrobench(chip), runVectorMicrobench(chip), runContentionMicrobench(chip)}) {
        rows.insert(rows.end(), part.begin(), part.end());
    }
    return rows;
}

void printMicrobenchTable(const std::string& title, const std::vector<MicrobenchRow>& rows,
                          std::ostream& out) {
    out << title << "\n";
    out << std::left << std::setw(50) << "what" << std::setw(16) << "size" << std::setw(12) << "unit"
        << std::right << std::setw(12) << "model" << std::setw(12) << "reference" << std::setw(10)
        << "error %" << "\n";
    const auto flags = out.flags();
    for (const MicrobenchRow& row : rows) {
        out << std::left << std::setw(50) << row.what << std::setw(16) << row.size << std::setw(12)
            << row.unit << std::right << std::fixed << std::setprecision(1) << std::setw(12)
            << row.model << std::setw(12) << row.reference << std::showpos << std::setw(10)
            << row.errorPercent() << std::noshowpos << "\n";
    }
    out.flags(flags);
}

void printMicrobenchReport(const std::string& chipName, std::ostream& out) {
    printMicrobenchReport(chipName, defaultConfigDir(), out);
}

void printMicrobenchReport(const std::string& chipName, const std::string& configDir,
                           std::ostream& out) {
    const ChipConfig chip = loadChipByName(chipName, configDir);
    out << "ascendsim microbench: " << chip.name << " (" << chip.sourceFile << ")\n"
        << "Single-core references: MSKPP tables measured on 910B1/910B3 at 1.8 GHz (hardware.md "
           "§1.3, §2.5, §2.6); model bandwidth is per cycle, expressed at 1.8 GHz.\n\n";
    const auto report = [&](const std::string& title, const std::vector<MicrobenchRow>& rows) {
        printMicrobenchTable(title, rows, out);
        std::size_t within = 0;
        double worst = 0.0;
        for (const auto& row : rows) {
            within += row.withinTolerance() ? 1 : 0;
            if (row.absoluteTolerance == 0.0) worst = std::max(worst, std::abs(row.errorPercent()));
        }
        out << "  " << within << "/" << rows.size()
            << " within tolerance (+-10 %; start-up +-1 cycle), worst relative error " << std::fixed
            << std::setprecision(1) << worst << " %\n\n";
    };
    report("Transfers (1 core, back-to-back)", runTransferMicrobench(chip));
    report("Cube (1 AIC, back-to-back mmad)", runMmadMicrobench(chip));
    report("Vector (1 core)", runVectorMicrobench(chip));
    report("Shared L2/HBM (all cores; reference = configured bandwidth, HBM x read efficiency)",
           runContentionMicrobench(chip));
    printStreamingScaling(runStreamingScaling(chip), out);
    const std::vector<MicrobenchRow> real = runRealStreamingComparison(chip);
    if (real.empty()) {
        out << "No real profile of a part with " << chip.aiCoreCount << " AI cores, " << chip.vectorCoreCount
            << " vector cores at " << chip.aiCoreFreqMhz << " MHz to compare streaming with.\n";
    } else {
        report("Many-core streaming vs real profiles (reference = bytes / duration of a real kernel)", real);
    }
}

}  // namespace ascendsim

#include "sim/microbench/many_core_streaming.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <string>

namespace ascendsim {

namespace {

constexpr std::uint64_t kTransferBytes = 32 * 1024;  // a typical elementwise tile (UB / 6)

std::uint32_t streamingCores(const ChipConfig& chip) {
    return chip.organisation == CoreOrganisation::Split ? chip.vectorCoreCount : chip.aiCoreCount;
}

const char* directionName(StreamDirection d) {
    switch (d) {
        case StreamDirection::Read: return "read";
        case StreamDirection::Write: return "write";
        default: return "copy";
    }
}

}  // namespace

// Each direction streams eight times the L2 over all cores: it pays for fills and write-backs as
// a kernel over a tensor much larger than L2 does (the real references move 0.6-1.5 GB), and the
// last L2-full of written data, still dirty in L2 when the kernel ends, is a small share.
std::uint64_t coldBytesPerCore(const ChipConfig& chip, std::uint32_t cores) {
    const std::uint64_t perCore = 8 * chip.l2.sizeBytes / cores;
    return std::max<std::uint64_t>(kTransferBytes, perCore / kTransferBytes * kTransferBytes);
}

std::vector<StreamingScalingRow> runStreamingScaling(const ChipConfig& chip) {
    std::vector<std::uint32_t> counts;
    const std::uint32_t all = streamingCores(chip);
    for (std::uint32_t n = 1; n < all; n *= 2) counts.push_back(n);
    counts.push_back(all);
    std::vector<StreamingScalingRow> rows;
    for (std::uint32_t n : counts) {
        StreamingScalingRow row;
        row.cores = n;
        const std::uint64_t bytesPerCore = coldBytesPerCore(chip, n);
        row.readGBps = runDirectionalStream(chip, StreamDirection::Read, kTransferBytes, bytesPerCore, n);
        row.writeGBps = runDirectionalStream(chip, StreamDirection::Write, kTransferBytes, bytesPerCore, n);
        row.copyGBps = runDirectionalStream(chip, StreamDirection::Copy, kTransferBytes, bytesPerCore, n);
        rows.push_back(row);
    }
    return rows;
}

// Aggregate bytes (read + written) / Duration of the largest streaming kernels of the grade-A
// samples (docs/fidelity.md "Mechanisms"). Their tensors exceed L2, so the data streams from HBM.
const std::vector<RealStreamingReference>& realStreamingReferences() {
    static const std::vector<RealStreamingReference> refs = {
        // Qwen3-0.6B, msinsight ef63bc64 st/level2 rank_0 (20 AIC / 40 AIV, 1650 MHz).
        {20, 40, 1650, StreamDirection::Copy, 647.4, 622329856, "TensorMove [77791232] fp32"},  // 961.24 us
        {20, 40, 1650, StreamDirection::Write, 794.1, 1503262720, "ZerosLike [375815680] fp32"},  // 1892.92 us
        // AlexNet, msinsight e5a31957 text/level2 rank0 (910B2: 24 AIC / 48 AIV, 1800 MHz).
        {24, 48, 1800, StreamDirection::Copy, 1176.0, 301989888, "TensorMove [4096,9216] fp32"},  // 256.785 us
        // CNN on 910A, msinsight c1e639ee text/level1 rank0 (32 AI cores, 1000 MHz); Mul by a
        // scalar reads and writes the tensor once, as a copy does (vec_ratio 0.11: memory-bound).
        {32, 0, 1000, StreamDirection::Copy, 987.9, 301989888, "Mul [4096,9216] fp32 x scalar"},  // 305.703 us
    };
    return refs;
}

std::vector<MicrobenchRow> runRealStreamingComparison(const ChipConfig& chip) {
    std::vector<MicrobenchRow> rows;
    const std::uint32_t cores = streamingCores(chip);
    for (const RealStreamingReference& ref : realStreamingReferences()) {
        if (ref.aiCores != chip.aiCoreCount || ref.vectorCores != chip.vectorCoreCount ||
            std::abs(ref.freqMhz - chip.aiCoreFreqMhz) > 1.0)
            continue;
        const std::uint64_t perDirection = ref.direction == StreamDirection::Copy ? ref.bytes / 2 : ref.bytes;
        const std::uint64_t perCore =
            std::max<std::uint64_t>(kTransferBytes, perDirection / cores / kTransferBytes * kTransferBytes);
        const double model = runDirectionalStream(chip, ref.direction, kTransferBytes, perCore, cores);
        rows.push_back({std::to_string(cores) + " cores " + directionName(ref.direction) + " ~ " + ref.kernel,
                        std::to_string(ref.bytes / 1000000) + " MB", "GB/s", model, ref.gbps});
    }
    return rows;
}

void printStreamingScaling(const std::vector<StreamingScalingRow>& rows, std::ostream& out) {
    out << "Many-core streaming, cold data, 32 KiB transfers (aggregate GB/s, read + written bytes)\n"
        << std::right << std::setw(8) << "cores" << std::setw(14) << "read" << std::setw(14) << "write"
        << std::setw(14) << "copy" << "\n";
    const auto flags = out.flags();
    for (const StreamingScalingRow& row : rows) {
        out << std::setw(8) << row.cores << std::fixed << std::setprecision(1) << std::setw(14)
            << row.readGBps << std::setw(14) << row.writeGBps << std::setw(14) << row.copyGBps << "\n";
    }
    out.flags(flags);
    out << "\n";
}

}  // namespace ascendsim

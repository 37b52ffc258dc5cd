#pragma once
// Many-core streaming check: aggregate GM bandwidth as 1, 2, 4, ... and all vector cores read
// (GM->UB), write (UB->GM) or copy cold data, and the same runs set beside the bandwidths real
// profiles show for large streaming kernels on parts with the same core count and clock
// (bytes moved / kernel duration; the kernels and samples are named in the reference table).
// Unlike the single-core tables this is not true by construction: it checks the shared L2/HBM
// model (bandwidth servers, hbm.read_efficiency / write_efficiency, latencies) end to end.
#include <cstdint>
#include <ostream>
#include <vector>

#include "models/chip/chip_config.h"
#include "sim/microbench/microbench_runner.h"
#include "sim/microbench/streaming_bench.h"

namespace ascendsim {

struct StreamingScalingRow {
    std::uint32_t cores = 0;
    double readGBps = 0.0;
    double writeGBps = 0.0;
    double copyGBps = 0.0;
};

// Aggregate bandwidth per core count (1, 2, 4, ... and all vector cores); each direction moves
// eight times the L2 size over the cores, from a cold L2.
std::vector<StreamingScalingRow> runStreamingScaling(const ChipConfig& chip);
std::uint64_t coldBytesPerCore(const ChipConfig& chip, std::uint32_t cores);

// A large streaming kernel of a real profile: its part (core counts, clock), direction and the
// aggregate bandwidth it reached.
struct RealStreamingReference {
    std::uint32_t aiCores;
    std::uint32_t vectorCores;
    double freqMhz;
    StreamDirection direction;
    double gbps;
    std::uint64_t bytes;  // read + written by the kernel
    const char* kernel;   // op and shape
};
const std::vector<RealStreamingReference>& realStreamingReferences();

// The model beside every real reference whose part matches `chip` (same core counts and clock),
// streaming as many bytes as the real kernel moved. Empty when no real profile of this part is known.
std::vector<MicrobenchRow> runRealStreamingComparison(const ChipConfig& chip);

void printStreamingScaling(const std::vector<StreamingScalingRow>& rows, std::ostream& out);

}  // namespace ascendsim

#include "sim/config/chip_config_validation.h"

#include <cstdio>
#include <string>
#include <utility>

#include "models/chip/launch_argument_records.h"
#include "sim/config/chip_config_sections.h"
#include "sim/config/config_error.h"

namespace ascendsim {

namespace {

bool isPowerOfTwo(std::uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

class Checker {
public:
    explicit Checker(const ChipConfig& chip) : chip_(chip) {}
    void require(bool ok, const std::string& keyPath, const std::string& problem) const {
        if (!ok) throw ConfigError(chip_.sourceFile, keyPath, problem);
    }

private:
    const ChipConfig& chip_;
};

void checkCurve(const Checker& check, const TransferCurve& curve, const std::string& key) {
    check.require(!curve.bytes.empty() && curve.bytes.size() == curve.cycles.size(), key,
                  "expected at least one [bytes, cycles] point");
    for (std::size_t i = 1; i < curve.bytes.size(); ++i) {
        const std::string point = key + "[" + std::to_string(i) + "]";
        check.require(curve.bytes[i] > curve.bytes[i - 1], point,
                      "bytes must increase strictly along the curve (" +
                          std::to_string(curve.bytes[i - 1]) + " then " +
                          std::to_string(curve.bytes[i]) + ")");
        check.require(curve.cycles[i] >= curve.cycles[i - 1], point,
                      "cycles must not decrease as bytes grow (curve must be monotone)");
    }
}

void checkPaths(const Checker& check, const ChipConfig& chip) {
    check.require(!chip.paths.empty(), "paths", "expected at least one transfer path");
    for (std::size_t i = 0; i < chip.paths.size(); ++i) {
        const PathTiming& path = chip.paths[i];
        const std::string key = "paths[" + std::to_string(i) + "]";
        const std::string name = pathName(path.src, path.dst);
        check.require(pipeForPath(path.src, path.dst) != Pipe::All, key,
                      "no pipe moves data " + name + " on a DaVinci core");
        check.require(chip.organisation == CoreOrganisation::Coupled ||
                          !isCoupledOnlyPath(path.src, path.dst),
                      key, name + " exists only on the coupled organisation");
        for (std::size_t j = 0; j < i; ++j) {
            check.require(chip.paths[j].src != path.src || chip.paths[j].dst != path.dst, key,
                          "path " + name + " is listed twice");
        }
        checkCurve(check, path.curve, key + ".curve");
        if (!path.convertingCurve.bytes.empty()) {
            checkCurve(check, path.convertingCurve, key + ".converting_curve");
        }
        check.require(path.conversionSlowdown >= 1.0, key + ".conversion_slowdown",
                      "a layout conversion cannot be faster than a plain move (expected >= 1)");
        check.require(path.peakBytesPerCycle > 0.0, key + ".peak_bytes_per_cycle",
                      "expected a positive number");
        check.require(path.dtypeConversionBytesPerCycle <= path.peakBytesPerCycle, key + ".dtype_conversion_bytes_per_cycle",
                      "a converting move cannot outrun the path's peak (" +
                          std::to_string(path.peakBytesPerCycle) + " B/cycle)");
    }
}

void checkBuffers(const Checker& check, const ChipConfig& chip) {
    for (MemSpace m : {MemSpace::GM, MemSpace::L1, MemSpace::L0A, MemSpace::L0B, MemSpace::L0C,
                       MemSpace::UB}) {
        const std::string key = "buffers." + std::string(memSpaceName(m));
        check.require(chip.bufferCapacity(m) > 0, key + ".bytes", "required buffer is missing");
    }
    for (std::size_t i = 0; i < kMemSpaceCount; ++i) {
        const auto m = static_cast<MemSpace>(i);
        if (chip.bufferCapacity(m) == 0) continue;
        check.require(isPowerOfTwo(chip.alignment(m)),
                      "buffers." + std::string(memSpaceName(m)) + ".align",
                      "expected a power of two, got " + std::to_string(chip.alignment(m)));
    }
    const std::uint64_t bankedBytes =
        std::uint64_t{chip.ub.bankGroups} * chip.ub.banksPerGroup * chip.ub.bankBytes;
    check.require(bankedBytes == chip.bufferCapacity(MemSpace::UB), "ub_banking",
                  "bank_groups x banks_per_group x bank_bytes = " + std::to_string(bankedBytes) +
                      " does not equal buffers.UB.bytes = " +
                      std::to_string(chip.bufferCapacity(MemSpace::UB)));
    check.require(chip.ub.bankBytes % chip.ub.rowBytes == 0, "ub_banking.row_bytes",
                  "bank_bytes must be a multiple of row_bytes");
}

// Ranges the model can represent with physical meaning. Outside them a what-if (`--chip-set`)
// does not describe a chip: picosecond times overflow 64 bits (hbm.bandwidth_gbps=1e-12) or the
// per-core state exhausts host memory (cores.ai_cores=1000000). docs/reliability.md lists them.
struct Range {
    double low, high;
};
// assumed: the largest Ascend die has 32 AI cores (hardware.md §1.1, Ascend910); 4x leaves room
// for what-ifs, and the per-core model state stays small.
constexpr Range kAiCores{1, 128};
constexpr Range kVectorCores{0, 256};          // assumed: split organisation, 2 AIV per AIC
constexpr Range kClockMhz{10, 10'000};         // assumed: 10 MHz .. 10 GHz CMOS logic
// assumed: 1 GB/s .. 100 TB/s; the slowest shipped memory is 310P3 LPDDR at 204 GB/s, the
// fastest 1.6 TB/s (hardware.md §1.1).
constexpr Range kMemoryGBps{1, 100'000};
constexpr Range kL2BytesPerCycle{1, 1 << 20};  // assumed: a 64 B/cycle port per MiB-sized bank
constexpr Range kLinkGBps{0.001, 100'000};     // assumed: HCCS/RoCE links, 1 MB/s .. 100 TB/s
// assumed: one event (a latency, a launch, a repeat) of at most 10^6 cycles, about 0.6 ms at
// 1650 MHz; the largest shipped figure is the AI CPU launch, 20 000 cycles. Beyond it a chip
// stretches a step to hours of simulated time and the 20 ms sampled series (npu_module_mem,
// HBM/LLC) to millions of rows (result_latency_cycles=4294967295 ran for minutes, 9.5 GB RSS).
constexpr Range kEventCycles{0, 1'000'000};
// assumed: a collective's fixed costs of at most 10 ms each; the shipped ones are a few µs.
constexpr Range kLinkLatencyUs{0, 10'000};
// assumed: 1 TiB device memory and 4 GiB L2 are 16x the largest shipped values (64 GiB, 192 MiB).
constexpr std::uint64_t kMaxDeviceMemoryBytes = std::uint64_t{1} << 40;
constexpr std::uint64_t kMaxL2Bytes = std::uint64_t{1} << 32;

void checkRange(const Checker& check, double value, Range range, const std::string& key,
                const std::string& unit) {
    char text[160];
    std::snprintf(text, sizeof text, "%g %s is outside what the model represents (%g .. %g %s)",
                  value, unit.c_str(), range.low, range.high, unit.c_str());
    check.require(value >= range.low && value <= range.high, key, text);
}

void checkPhysicalRanges(const Checker& check, const ChipConfig& chip) {
    checkRange(check, chip.aiCoreCount, kAiCores, "cores.ai_cores", "cores");
    checkRange(check, chip.vectorCoreCount, kVectorCores, "cores.vector_cores", "cores");
    checkRange(check, chip.aiCoreFreqMhz, kClockMhz, "clocks.ai_core_mhz", "MHz");
    checkRange(check, chip.vectorCoreFreqMhz, kClockMhz, "clocks.vector_core_mhz", "MHz");
    checkRange(check, chip.hbm.bandwidthGBps, kMemoryGBps, "hbm.bandwidth_gbps", "GB/s");
    checkRange(check, chip.l2.bandwidthBytesPerCycle, kL2BytesPerCycle,
               "l2.bandwidth_bytes_per_cycle", "bytes/cycle");
    check.require(chip.hbm.sizeBytes >= 1 && chip.hbm.sizeBytes <= kMaxDeviceMemoryBytes,
                  "hbm.size_bytes",
                  std::to_string(chip.hbm.sizeBytes) + " is outside 1 .. 2^40 bytes");
    check.require(chip.l2.ways >= 1, "l2.ways", "expected at least one way");
    check.require(chip.l2.sizeBytes >= std::uint64_t{chip.l2.lineBytes} * chip.l2.ways &&
                      chip.l2.sizeBytes <= kMaxL2Bytes,
                  "l2.size_bytes",
                  std::to_string(chip.l2.sizeBytes) +
                      " is outside one set (line_bytes x ways) .. 2^32 bytes");
    const std::pair<const char*, std::uint32_t> eventCycles[] = {
        {"l2.hit_latency_cycles", chip.l2.hitLatencyCycles},
        {"l2.same_line_read_cycles", chip.l2.sameLineReadCycles},
        {"hbm.read_latency_cycles", chip.hbm.readLatencyCycles},
        {"hbm.write_latency_cycles", chip.hbm.writeLatencyCycles},
        {"ai_cpu.launch_overhead_cycles", chip.aiCpu.launchOverheadCycles},
        {"cube.mmad_overhead_cycles", chip.cube.mmadOverheadCycles},
        {"cube.mmad_min_cycles", chip.cube.mmadMinCycles},
        {"vector.result_latency_cycles", chip.vector.resultLatencyCycles},
        {"icache.miss_penalty_cycles", chip.icache.missPenaltyCycles},
        {"icache.fill_latency_cycles", chip.icache.fillLatencyCycles},
        {"pipes.scalar_issue_cycles", chip.scalarIssueCycles},
        {"pipes.flag_latency_cycles", chip.flagLatencyCycles},
        {"pipes.all_core_sync_cycles", chip.allCoreSyncCycles},
        {"pipes.task_launch_cycles", chip.taskLaunchCycles},
        {"pipes.block_start_cycles", chip.blockStartCycles},
        {"pipes.block_mte2_floor_cycles", chip.blockMte2FloorCycles},
        {"pipes.block_dispatch_cycles", chip.blockDispatchCycles},
        {"pipes.block_dispatch_interval_cycles", chip.blockDispatchIntervalCycles},
        {"pipes.mte2_load_issue_cycles", chip.mte2LoadIssueCycles},
        {"pipes.mte2_miss_wait_in_flight_cycles", chip.mte2MissWaitInFlightCycles},
        {"pipes.mte3_store_issue_cycles", chip.mte3StoreIssueCycles},
        {"pipes.mte3_store_ack_cycles", chip.mte3StoreAckCycles},
        {"pipes.mte1_load3d_start_cycles", chip.mte1Load3dStartCycles},
    };
    for (const auto& [key, cycles] : eventCycles) checkRange(check, cycles, kEventCycles, key, "cycles");
    for (std::size_t i = 0; i < chip.paths.size(); ++i) {
        checkRange(check, chip.paths[i].burstCycles, kEventCycles,
                   "paths[" + std::to_string(i) + "].burst_cycles", "cycles");
        checkRange(check, chip.paths[i].paddedBurstCycles, kEventCycles,
                   "paths[" + std::to_string(i) + "].padded_burst_cycles", "cycles");
    }
    for (std::size_t i = 0; i < kVectorClassCount; ++i) {
        const VectorClassTiming& timing = chip.vector.byClass[i];
        const std::string key = std::string("vector.classes.") + kVectorClassKeys[i];
        checkRange(check, timing.cyclesPerRepeat, kEventCycles, key + ".cycles_per_repeat", "cycles");
        checkRange(check, timing.fp32CyclesPerRepeat, kEventCycles, key + ".fp32_cycles_per_repeat",
                   "cycles");
        checkRange(check, timing.startupCycles, kEventCycles, key + ".startup_cycles", "cycles");
    }
    if (chip.hccl.linkBandwidthGBps > 0.0) {  // zero: the chip has no collective model
        checkRange(check, chip.hccl.linkBandwidthGBps, kLinkGBps, "hccl.link_bandwidth_gbps",
                   "GB/s");
        checkRange(check, chip.hccl.reduceBandwidthGBps, kLinkGBps, "hccl.reduce_bandwidth_gbps",
                   "GB/s");
        checkRange(check, chip.hccl.localCopyBandwidthGBps, kMemoryGBps,
                   "hccl.local_copy_bandwidth_gbps", "GB/s");
        checkRange(check, chip.hccl.rdmaBandwidthGBps, kLinkGBps, "hccl.rdma_bandwidth_gbps",
                   "GB/s");
        const std::pair<const char*, double> latenciesUs[] = {
            {"hccl.transfer_latency_us", chip.hccl.transferLatencyUs},
            {"hccl.notify_record_us", chip.hccl.notifyRecordUs},
            {"hccl.notify_wait_us", chip.hccl.notifyWaitUs},
            {"hccl.rdma_latency_us", chip.hccl.rdmaLatencyUs},
            {"hccl.switch_latency_us", chip.hccl.switchLatencyUs},
        };
        for (const auto& [key, us] : latenciesUs) checkRange(check, us, kLinkLatencyUs, key, "us");
        check.require(chip.hccl.npusPerServer >= 1 && chip.hccl.npusPerServer <= 64,
                      "hccl.npus_per_server", "expected 1 .. 64 NPUs in one server");
        check.require(chip.hccl.diesPerCard >= 1 &&
                          chip.hccl.npusPerServer % chip.hccl.diesPerCard == 0,
                      "hccl.dies_per_card", "expected a divisor of npus_per_server");
        check.require(chip.hccl.diesPerCard == 1 || chip.hccl.sioBandwidthGBps > 0.0,
                      "hccl.sio_bandwidth_gbps", "a chip with dies_per_card > 1 needs it");
    }
}

}  // namespace

bool isCoupledOnlyPath(MemSpace src, MemSpace dst) {
    return (src == MemSpace::L0C && dst == MemSpace::UB) ||
           (src == MemSpace::L1 && dst == MemSpace::UB) ||
           (src == MemSpace::UB && dst == MemSpace::L1);
}

void validateChipConfig(const ChipConfig& chip) {
    const Checker check(chip);
    check.require(chip.aiCoreCount > 0, "cores.ai_cores", "expected a positive integer");
    checkPhysicalRanges(check, chip);
    if (chip.organisation == CoreOrganisation::Split) {
        check.require(chip.vectorCoreCount == chip.aiCoreCount * chip.vectorCoresPerCube,
                      "cores.vector_cores",
                      "split organisation needs ai_cores x vector_cores_per_cube = " +
                          std::to_string(chip.aiCoreCount * chip.vectorCoresPerCube) +
                          " vector cores, got " + std::to_string(chip.vectorCoreCount));
    }
    check.require(chip.aiCoreFreqMhz > 0.0, "clocks.ai_core_mhz", "expected a positive number");
    check.require(chip.vectorCoreFreqMhz > 0.0, "clocks.vector_core_mhz",
                  "expected a positive number");
    checkBuffers(check, chip);
    check.require(isPowerOfTwo(chip.l2.lineBytes), "l2.line_bytes",
                  "expected a power of two, got " + std::to_string(chip.l2.lineBytes));
    check.require(chip.l2.ways <= 64, "l2.ways",
                  "at most 64 ways are modelled, got " + std::to_string(chip.l2.ways));
    check.require(chip.l2.sizeBytes % (std::uint64_t{chip.l2.lineBytes} * chip.l2.ways) == 0,
                  "l2.size_bytes", "must be a multiple of line_bytes x ways");
    check.require(chip.l2.bandwidthBytesPerCycle > 0.0, "l2.bandwidth_bytes_per_cycle",
                  "expected a positive number");
    check.require(chip.hbm.bandwidthGBps > 0.0, "hbm.bandwidth_gbps", "expected a positive number");
    // Concurrent streams together get at least what one gets alone and at most the pins' rate.
    if (chip.hbm.concurrentCapacityGBps > 0.0) {
        const double oneStreamGBps = chip.hbm.bandwidthGBps * chip.hbm.readEfficiency;
        char range[160];
        std::snprintf(range, sizeof range,
                      "expected %g .. %g GB/s (bandwidth_gbps x read_efficiency .. bandwidth_gbps), got %g",
                      oneStreamGBps, chip.hbm.bandwidthGBps, chip.hbm.concurrentCapacityGBps);
        check.require(chip.hbm.concurrentCapacityGBps >= oneStreamGBps * (1.0 - 1e-12) &&
                          chip.hbm.concurrentCapacityGBps <= chip.hbm.bandwidthGBps,
                      "hbm.concurrent_capacity_gbps", range);
    }
    // Absurd scalar costs would silently make every kernel scalar-bound.
    check.require(chip.scalarCyclesPerInstruction <= 1000, "pipes.scalar_cycles_per_instruction",
                  "expected at most 1000 cycles per issued instruction, got " +
                      std::to_string(chip.scalarCyclesPerInstruction));
    check.require(chip.scalarCyclesPerInstructionAic <= 1000, "pipes.scalar_cycles_per_instruction_aic",
                  "expected at most 1000 cycles per issued instruction, got " +
                      std::to_string(chip.scalarCyclesPerInstructionAic));
    check.require(chip.blockPrologueScalarCycles <= 1000000, "pipes.block_prologue_scalar_cycles",
                  "expected at most 1000000 cycles, got " + std::to_string(chip.blockPrologueScalarCycles));
    // A record of more than a few lines would be a data read, not a launch's arguments.
    check.require(chip.blockArgumentReadBytes <= 65536, "pipes.block_argument_read_bytes",
                  "expected at most 65536 bytes, got " + std::to_string(chip.blockArgumentReadBytes));
    check.require(chip.blockArgumentReadBytes == 0 || launchArgumentAreaBytes(chip) <= chip.bufferCapacity(MemSpace::GM),
                  "pipes.block_argument_read_bytes",
                  "the launches' argument records (" + std::to_string(launchArgumentAreaBytes(chip)) +
                      " bytes at the top of GM) do not fit buffers.GM");
    check.require(chip.cube.mmadMinCycles > 0, "cube.mmad_min_cycles", "expected >= 1");
    check.require(chip.cube.fp32CyclesPerFractal >= 1.0 && chip.cube.fp32CyclesPerFractal <= 64.0,
                  "cube.fp32_cycles_per_fractal", "expected 1 .. 64 cycles (no fractal is faster than hf32's one a cycle)");
    check.require(chip.icache.fillBytes <= chip.icache.sizeBytes, "icache.fill_bytes",
                  "a fill cannot exceed the cache size");
    checkPaths(check, chip);
}

}  // namespace ascendsim

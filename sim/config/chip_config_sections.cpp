#include "sim/config/chip_config_sections.h"

#include <array>
#include <string_view>

namespace ascendsim {

namespace {

bool parseMemSpace(const std::string& text, MemSpace& out) {
    for (std::size_t i = 0; i < kMemSpaceCount; ++i) {
        const auto m = static_cast<MemSpace>(i);
        if (memSpaceName(m) == text) {
            out = m;
            return true;
        }
    }
    return false;
}

bool parsePartialLineFill(const std::string& text, PartialLineFill& out) {
    if (text == "none") return out = PartialLineFill::None, true;
    if (text == "read") return out = PartialLineFill::OnRead, true;
    if (text == "read_or_evict") return out = PartialLineFill::OnReadOrEvict, true;
    return false;
}

std::string memSpaceList() {
    std::string list;
    for (std::size_t i = 0; i < kMemSpaceCount; ++i) {
        list += (i ? ", " : "") + std::string(memSpaceName(static_cast<MemSpace>(i)));
    }
    return list;
}

void readCores(const ConfigNode& node, bool isRoot, ChipConfig& chip) {
    node.allowOnly({"ai_cores", "vector_cores", "vector_cores_per_cube"});
    node.readPositive("ai_cores", chip.aiCoreCount, isRoot);
    node.readNonNegative("vector_cores", chip.vectorCoreCount, isRoot);
    node.readPositive("vector_cores_per_cube", chip.vectorCoresPerCube);
}

void readClocks(const ConfigNode& node, bool isRoot, ChipConfig& chip) {
    node.allowOnly({"ai_core_mhz", "vector_core_mhz", "hwts_mhz"});
    node.readPositive("ai_core_mhz", chip.aiCoreFreqMhz, isRoot);
    node.readPositive("vector_core_mhz", chip.vectorCoreFreqMhz);
    node.readPositive("hwts_mhz", chip.hwtsFreqMhz);
}

void readBuffers(const ConfigNode& node, ChipConfig& chip) {
    if (!node.node()) return;
    for (const auto& entry : node.node()) {
        const std::string key = entry.first.as<std::string>();
        MemSpace space{};
        if (!parseMemSpace(key, space)) {
            node.fail(key, "unknown memory (expected one of: " + memSpaceList() + ")");
        }
        const ConfigNode buffer = node.child(key, true);
        buffer.allowOnly({"bytes", "align"});
        const auto index = static_cast<std::size_t>(space);
        buffer.readPositive("bytes", chip.bufferBytes[index], chip.bufferBytes[index] == 0);
        buffer.readPositive("align", chip.alignmentBytes[index], chip.alignmentBytes[index] == 0);
    }
}

void readUbBanking(const ConfigNode& node, ChipConfig& chip) {
    node.allowOnly({"bank_groups", "banks_per_group", "bank_bytes", "row_bytes"});
    node.readPositive("bank_groups", chip.ub.bankGroups);
    node.readPositive("banks_per_group", chip.ub.banksPerGroup);
    node.readPositive("bank_bytes", chip.ub.bankBytes);
    node.readPositive("row_bytes", chip.ub.rowBytes);
}

void readL2(const ConfigNode& node, bool isRoot, ChipConfig& chip) {
    node.allowOnly({"size_bytes", "line_bytes", "ways", "bandwidth_bytes_per_cycle",
                    "hit_latency_cycles", "write_back_queue_bytes", "same_line_read_cycles",
                    "partial_line_fill"});
    node.readPositive("size_bytes", chip.l2.sizeBytes, isRoot);
    node.readPositive("line_bytes", chip.l2.lineBytes);
    node.readPositive("ways", chip.l2.ways);
    node.readPositive("bandwidth_bytes_per_cycle", chip.l2.bandwidthBytesPerCycle, isRoot);
    node.readNonNegative("hit_latency_cycles", chip.l2.hitLatencyCycles);
    node.readNonNegative("write_back_queue_bytes", chip.l2.writeBackQueueBytes);
    node.readNonNegative("same_line_read_cycles", chip.l2.sameLineReadCycles);
    if (node.has("partial_line_fill")) {
        std::string fill;
        node.readString("partial_line_fill", fill);
        if (!parsePartialLineFill(fill, chip.l2.partialLineFill))
            node.fail("partial_line_fill", "expected none, read or read_or_evict, got '" + fill + "'");
    }
}

void readHbm(const ConfigNode& node, bool isRoot, ChipConfig& chip) {
    node.allowOnly({"size_bytes", "bandwidth_gbps", "read_latency_cycles", "write_latency_cycles", "stacks",
                    "read_efficiency", "write_efficiency", "outstanding_read_lines_per_core",
                    "read_only_efficiency", "concurrent_capacity_gbps"});
    node.readPositive("size_bytes", chip.hbm.sizeBytes, isRoot);
    node.readPositive("bandwidth_gbps", chip.hbm.bandwidthGBps, isRoot);
    node.readNonNegative("read_latency_cycles", chip.hbm.readLatencyCycles);
    node.readNonNegative("write_latency_cycles", chip.hbm.writeLatencyCycles);
    node.readNonNegative("stacks", chip.hbm.stacks, isRoot);
    node.readInRange("read_efficiency", chip.hbm.readEfficiency, 0.0, 1.0);
    node.readInRange("write_efficiency", chip.hbm.writeEfficiency, 0.0, 1.0);
    node.readInRange("read_only_efficiency", chip.hbm.readOnlyEfficiency, 0.0, 1.0);
    node.readPositive("concurrent_capacity_gbps", chip.hbm.concurrentCapacityGBps);
    node.readNonNegative("outstanding_read_lines_per_core", chip.hbm.outstandingReadLinesPerCore);
}

void readAiCpu(const ConfigNode& node, bool isRoot, ChipConfig& chip) {
    node.allowOnly({"count", "freq_mhz", "launch_overhead_cycles"});
    node.readNonNegative("count", chip.aiCpu.count, isRoot);
    node.readPositive("freq_mhz", chip.aiCpu.freqMhz, isRoot);
    node.readNonNegative("launch_overhead_cycles", chip.aiCpu.launchOverheadCycles);
}

// A root file's hccl section gives every figure (a file that inherits may override some); a chip
// without the section has no collective model.
void readHccl(const ConfigNode& node, bool isRoot, ChipConfig& chip) {
    node.allowOnly({"npus_per_server", "link_bandwidth_gbps", "reduce_bandwidth_gbps",
                    "local_copy_bandwidth_gbps", "transfer_latency_us", "notify_record_us",
                    "notify_wait_us", "rdma_bandwidth_gbps", "rdma_latency_us",
                    "switch_latency_us", "dies_per_card", "sio_bandwidth_gbps"});
    node.readPositive("npus_per_server", chip.hccl.npusPerServer, isRoot);
    node.readPositive("link_bandwidth_gbps", chip.hccl.linkBandwidthGBps, isRoot);
    node.readPositive("reduce_bandwidth_gbps", chip.hccl.reduceBandwidthGBps, isRoot);
    node.readPositive("local_copy_bandwidth_gbps", chip.hccl.localCopyBandwidthGBps, isRoot);
    node.readPositive("transfer_latency_us", chip.hccl.transferLatencyUs, isRoot);
    node.readPositive("notify_record_us", chip.hccl.notifyRecordUs, isRoot);
    node.readPositive("notify_wait_us", chip.hccl.notifyWaitUs, isRoot);
    node.readPositive("rdma_bandwidth_gbps", chip.hccl.rdmaBandwidthGBps, isRoot);
    node.readPositive("rdma_latency_us", chip.hccl.rdmaLatencyUs, isRoot);
    node.readPositive("switch_latency_us", chip.hccl.switchLatencyUs, isRoot);
    // SIO only on dual-die cards: optional, a root file without it has none.
    node.readPositive("dies_per_card", chip.hccl.diesPerCard);
    node.readPositive("sio_bandwidth_gbps", chip.hccl.sioBandwidthGBps);
}

void readCube(const ConfigNode& node, ChipConfig& chip) {
    node.allowOnly({"fractal_m", "fractal_k", "fractal_n", "int8_fractal_k",
                    "mmad_overhead_cycles", "mmad_min_cycles", "fp32_cycles_per_fractal"});
    node.readPositive("fractal_m", chip.cube.fractalM);
    node.readPositive("fractal_k", chip.cube.fractalK);
    node.readPositive("fractal_n", chip.cube.fractalN);
    node.readPositive("int8_fractal_k", chip.cube.int8FractalK);
    node.readNonNegative("mmad_overhead_cycles", chip.cube.mmadOverheadCycles);
    node.readPositive("mmad_min_cycles", chip.cube.mmadMinCycles);
    node.readPositive("fp32_cycles_per_fractal", chip.cube.fp32CyclesPerFractal);
}

void readVector(const ConfigNode& node, bool isRoot, ChipConfig& chip) {
    node.allowOnly({"bytes_per_repeat", "result_latency_cycles", "classes"});
    node.readPositive("bytes_per_repeat", chip.vector.bytesPerRepeat);
    node.readNonNegative("result_latency_cycles", chip.vector.resultLatencyCycles);
    const ConfigNode classes = node.child("classes", isRoot);
    classes.allowOnly({"unary", "binary", "transcendental", "fused_multiply_add", "reduction",
                       "gather", "sort", "conversion", "transpose", "bitsort"});
    const auto transpose = static_cast<std::size_t>(VectorClass::Transpose);
    const auto bitsort = static_cast<std::size_t>(VectorClass::BitSort);
    for (std::size_t i = 0; i < kVectorClassCount; ++i) {
        // transpose (vnchwconv) and bitsort (the 220x's vbitsort) are optional: a config without
        // them runs vnchwconv at the unary class's timing (hardware.md §2.6 has no measurement of
        // it) and a region sort at the sort class's (the coupled chips' vrpsort16 is that class).
        const bool required = isRoot && i != transpose && i != bitsort;
        const ConfigNode cls = classes.child(kVectorClassKeys[i], required);
        cls.allowOnly({"cycles_per_repeat", "fp32_cycles_per_repeat", "startup_cycles"});
        VectorClassTiming& timing = chip.vector.byClass[i];
        cls.readPositive("cycles_per_repeat", timing.cyclesPerRepeat, required);
        cls.readPositive("fp32_cycles_per_repeat", timing.fp32CyclesPerRepeat);
        cls.readNonNegative("startup_cycles", timing.startupCycles, required);
    }
    if (isRoot && !classes.has(kVectorClassKeys[transpose]))
        chip.vector.byClass[transpose] = chip.vector.byClass[static_cast<std::size_t>(VectorClass::Unary)];
    if (isRoot && !classes.has(kVectorClassKeys[bitsort]))
        chip.vector.byClass[bitsort] = chip.vector.byClass[static_cast<std::size_t>(VectorClass::Sort)];
}

void readICache(const ConfigNode& node, ChipConfig& chip) {
    node.allowOnly({"size_bytes", "fill_bytes", "miss_penalty_cycles", "fill_latency_cycles", "bytes_per_instruction",
                    "kernel_code_bytes"});
    node.readPositive("size_bytes", chip.icache.sizeBytes);
    node.readPositive("fill_bytes", chip.icache.fillBytes);
    node.readNonNegative("miss_penalty_cycles", chip.icache.missPenaltyCycles);
    node.readNonNegative("fill_latency_cycles", chip.icache.fillLatencyCycles);
    node.readPositive("bytes_per_instruction", chip.icache.bytesPerInstruction);
    node.readNonNegative("kernel_code_bytes", chip.icache.kernelCodeBytes);
}

void readPipes(const ConfigNode& node, bool isRoot, ChipConfig& chip) {
    node.allowOnly({"queue_depth", "scalar_issue_cycles", "flag_latency_cycles", "all_core_sync_cycles",
                    "task_launch_cycles", "block_start_cycles", "block_mte2_floor_cycles", "block_dispatch_cycles", "block_dispatch_interval_cycles",
                    "scalar_cycles_per_instruction",
                    "scalar_cycles_per_instruction_aic", "block_prologue_scalar_cycles", "block_argument_read_bytes",
                    "mte2_load_issue_cycles", "mte2_miss_wait_in_flight_cycles", "mte2_line_requests_in_flight",
                    "mte2_shared_line_read_bytes_per_cycle", "mte3_store_issue_cycles",
                    "mte3_store_ack_cycles", "mte1_load3d_start_cycles"});
    const ConfigNode depths = node.child("queue_depth", isRoot);
    depths.allowOnly({"PIPE_S", "PIPE_V", "PIPE_M", "PIPE_MTE1", "PIPE_MTE2", "PIPE_MTE3",
                      "PIPE_FIX"});
    for (std::size_t i = 0; i < kPipeCount; ++i) {
        depths.readPositive(std::string(pipeName(static_cast<Pipe>(i))), chip.queueDepth[i],
                            isRoot);
    }
    node.readPositive("scalar_issue_cycles", chip.scalarIssueCycles);
    node.readNonNegative("flag_latency_cycles", chip.flagLatencyCycles);
    node.readNonNegative("all_core_sync_cycles", chip.allCoreSyncCycles);
    node.readNonNegative("task_launch_cycles", chip.taskLaunchCycles);
    node.readNonNegative("block_start_cycles", chip.blockStartCycles);
    node.readNonNegative("block_mte2_floor_cycles", chip.blockMte2FloorCycles);
    node.readNonNegative("block_dispatch_cycles", chip.blockDispatchCycles);
    node.readNonNegative("block_dispatch_interval_cycles", chip.blockDispatchIntervalCycles);
    node.readNonNegative("scalar_cycles_per_instruction", chip.scalarCyclesPerInstruction);
    node.readNonNegative("scalar_cycles_per_instruction_aic", chip.scalarCyclesPerInstructionAic);
    node.readNonNegative("block_prologue_scalar_cycles", chip.blockPrologueScalarCycles);
    node.readNonNegative("block_argument_read_bytes", chip.blockArgumentReadBytes);
    node.readNonNegative("mte2_load_issue_cycles", chip.mte2LoadIssueCycles);
    node.readNonNegative("mte2_miss_wait_in_flight_cycles", chip.mte2MissWaitInFlightCycles);
    node.readNonNegative("mte2_line_requests_in_flight", chip.mte2LineRequestsInFlight);
    node.readNonNegative("mte2_shared_line_read_bytes_per_cycle", chip.mte2SharedLineReadBytesPerCycle);
    node.readNonNegative("mte3_store_issue_cycles", chip.mte3StoreIssueCycles);
    node.readNonNegative("mte3_store_ack_cycles", chip.mte3StoreAckCycles);
    node.readNonNegative("mte1_load3d_start_cycles", chip.mte1Load3dStartCycles);
}

TransferCurve readCurve(const ConfigNode& path, const std::string& key) {
    TransferCurve curve;
    const YAML::Node points = path.raw(key);
    if (!points.IsSequence() || points.size() == 0) {
        path.fail(key, "expected a non-empty list of [bytes, cycles] points");
    }
    for (std::size_t i = 0; i < points.size(); ++i) {
        const std::string item = key + "[" + std::to_string(i) + "]";
        const YAML::Node point = points[i];
        if (!point.IsSequence() || point.size() != 2) {
            path.fail(key, "point " + std::to_string(i) + ": expected [bytes, cycles]");
        }
        YAML::Node wrapper;
        wrapper["bytes"] = point[0];
        wrapper["cycles"] = point[1];
        const ConfigNode fields(wrapper, path.file(), path.pathOf(item));
        std::uint32_t bytes = 0;
        double cycles = 0.0;
        fields.readPositive("bytes", bytes, true);
        fields.readPositive("cycles", cycles, true);
        curve.bytes.push_back(bytes);
        curve.cycles.push_back(cycles);
    }
    return curve;
}

PathTiming readPath(const ConfigNode& node) {
    node.allowOnly({"from", "to", "peak_bytes_per_cycle", "curve", "converting_curve",
                    "conversion_slowdown", "dtype_conversion_bytes_per_cycle", "burst_cycles",
                    "padded_burst_cycles"});
    PathTiming path;
    std::string from;
    std::string to;
    node.readString("from", from, true);
    node.readString("to", to, true);
    if (!parseMemSpace(from, path.src)) {
        node.fail("from", "unknown memory '" + from + "' (expected one of: " + memSpaceList() + ")");
    }
    if (!parseMemSpace(to, path.dst)) {
        node.fail("to", "unknown memory '" + to + "' (expected one of: " + memSpaceList() + ")");
    }
    node.readPositive("peak_bytes_per_cycle", path.peakBytesPerCycle, true);
    path.curve = readCurve(node, "curve");
    if (node.has("converting_curve")) path.convertingCurve = readCurve(node, "converting_curve");
    node.readPositive("conversion_slowdown", path.conversionSlowdown);
    node.readPositive("dtype_conversion_bytes_per_cycle", path.dtypeConversionBytesPerCycle);
    node.readPositive("burst_cycles", path.burstCycles);
    node.readPositive("padded_burst_cycles", path.paddedBurstCycles);
    return path;
}

}  // namespace

void readChipSections(const ConfigNode& root, bool isRoot, ChipConfig& chip) {
    root.allowOnly({"schema_version", "name", "inherits", "organisation", "cores", "clocks",
                    "buffers", "ub_banking", "l2", "hbm", "ai_cpu", "hccl", "cube", "vector",
                    "icache", "pipes", "paths"});
    root.readString("name", chip.name, true);
    if (root.has("organisation") || isRoot) {
        std::string organisation;
        root.readString("organisation", organisation, true);
        if (organisation == "split") {
            chip.organisation = CoreOrganisation::Split;
        } else if (organisation == "coupled") {
            chip.organisation = CoreOrganisation::Coupled;
        } else {
            root.fail("organisation", "expected 'split' or 'coupled', got " + organisation);
        }
    }
    readCores(root.child("cores", isRoot), isRoot, chip);
    readClocks(root.child("clocks", isRoot), isRoot, chip);
    readBuffers(root.child("buffers", isRoot), chip);
    readUbBanking(root.child("ub_banking"), chip);
    readL2(root.child("l2", isRoot), isRoot, chip);
    readHbm(root.child("hbm", isRoot), isRoot, chip);
    readAiCpu(root.child("ai_cpu", isRoot), isRoot, chip);
    if (root.has("hccl")) readHccl(root.child("hccl"), isRoot, chip);
    readCube(root.child("cube"), chip);
    readVector(root.child("vector", isRoot), isRoot, chip);
    readICache(root.child("icache"), chip);
    readPipes(root.child("pipes", isRoot), isRoot, chip);
    if (root.has("paths") || isRoot) {
        chip.paths.clear();
        for (const ConfigNode& path : root.sequence("paths")) chip.paths.push_back(readPath(path));
    }
}

}  // namespace ascendsim

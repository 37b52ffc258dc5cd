#pragma once
// Hand-built runs for the device-side writer tests: a 910B-like split chip and a 910A-like coupled
// chip, kernels with known counters, and access to the real reference samples.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "models/chip/chip_config.h"
#include "profiler/record/run_record.h"

namespace ascendsim::testing_support {

inline ChipConfig splitChip() {
    ChipConfig chip;
    chip.name = "Ascend910B4";
    chip.organisation = CoreOrganisation::Split;
    chip.aiCoreCount = 20;
    chip.vectorCoreCount = 40;
    chip.aiCoreFreqMhz = 1650.0;
    chip.vectorCoreFreqMhz = 1650.0;
    chip.l2.lineBytes = 512;
    return chip;
}

inline ChipConfig coupledChip() {
    ChipConfig chip;
    chip.name = "Ascend910A";
    chip.organisation = CoreOrganisation::Coupled;
    chip.aiCoreCount = 32;
    chip.vectorCoreCount = 0;
    chip.aiCoreFreqMhz = 1000.0;
    chip.l2.lineBytes = 512;
    return chip;
}

// Adds `blocks` blocks of `kind` whose counters sum to `perBlock` × blocks.
inline void addBlocks(TaskResult& task, CoreKind kind, std::uint32_t blocks, const PmuCounters& perBlock) {
    for (std::uint32_t b = 0; b < blocks; ++b) {
        BlockResult block;
        block.blockIdx = b;
        block.coreKind = kind;
        block.counters = perBlock;
        task.blocks.push_back(block);
        if (kind == CoreKind::Vector) task.vectorSum += perBlock;
        else task.cubeSum += perBlock;
    }
}

inline KernelRecord matmulKernel(std::uint64_t startNs, std::uint64_t durationNs) {
    KernelRecord k;
    k.name = "aclnnMatmul_MatMulV3Common_MatMulV3";
    k.opType = "MatMulV3";
    k.taskId = 34493;
    k.device.streamId = 2;
    k.device.type = TaskType::AiCore;
    k.device.blockDim = 20;
    k.device.startNs = startNs;
    k.device.endNs = startNs + durationNs;
    PmuCounters c;
    c.totalCycles = 200000;
    c[PmuEvent::MacFp] = 150000;
    c[PmuEvent::MacInt] = 6000;
    c[PmuEvent::ScalarBusy] = 70000;
    c[PmuEvent::Mte1BusyExtra] = 130000;
    c[PmuEvent::Mte2Busy] = 160000;
    c[PmuEvent::FixpipeBusy] = 110000;
    c[PmuEvent::IcacheReq] = 1000;
    c[PmuEvent::IcacheMiss] = 4;
    addBlocks(k.device, CoreKind::Cube, 20, c);
    k.inputs = {{"4096,1024", "DT_BF16", "ND"}, {"4096,1024", "DT_BF16", "ND"}};
    k.outputs = {{"4096,4096", "DT_BF16", "ND"}};
    return k;
}

inline KernelRecord addKernel(std::uint64_t startNs, std::uint64_t durationNs) {
    KernelRecord k;
    k.name = "aclnnAdds_AddAiCore_Add";
    k.opType = "Add";
    k.taskId = 34489;
    k.device.streamId = 2;
    k.device.type = TaskType::AiVectorCore;
    k.device.blockDim = 4;
    k.device.startNs = startNs;
    k.device.endNs = startNs + durationNs;
    PmuCounters c;
    c.totalCycles = 2000;
    c[PmuEvent::VecBusy] = 60;
    c[PmuEvent::ScalarBusy] = 530;
    c[PmuEvent::Mte2Busy] = 380;
    c[PmuEvent::Mte3Busy] = 240;
    c[PmuEvent::IcacheReq] = 500;
    c[PmuEvent::IcacheMiss] = 100;
    c[PmuEvent::UbRead] = 64;
    c[PmuEvent::L2WriteHit] = 3;
    c[PmuEvent::L2R0ReadHit] = 5;
    c[PmuEvent::L2R0ReadMissAllocate] = 2;
    addBlocks(k.device, CoreKind::Vector, 4, c);
    k.inputs = {{"4096", "FLOAT", "ND"}, {"", "FLOAT", "ND"}};
    k.outputs = {{"4096", "FLOAT", "ND"}};
    return k;
}

inline KernelRecord mixAicKernel(std::uint64_t startNs, std::uint64_t durationNs) {
    KernelRecord k;
    k.name = "aclnnFlashAttentionScore_FlashAttentionScore_FlashAttentionScore";
    k.opType = "FlashAttentionScore";
    k.taskId = 34515;
    k.device.streamId = 2;
    k.device.type = TaskType::MixAic;
    k.device.blockDim = 20;
    k.device.mixBlockDim = 40;
    k.device.startNs = startNs;
    k.device.endNs = startNs + durationNs;
    PmuCounters cube;
    cube.totalCycles = 1360480;
    cube[PmuEvent::MacFp] = 473000;
    cube[PmuEvent::ScalarBusy] = 1242000;
    PmuCounters vec;
    vec.totalCycles = 1358776;
    vec[PmuEvent::VecBusy] = 709000;
    addBlocks(k.device, CoreKind::Cube, 20, cube);
    addBlocks(k.device, CoreKind::Vector, 40, vec);
    k.inputs = {{"4096,1,2048", "DT_BF16", "NCL"}};
    k.outputs = {{"1,16,4096,8", "FLOAT", "ND"}};
    return k;
}

// Three kernels on a split chip inside one step (ProfilerStep#13), epoch as in the 8.3 sample.
inline RunRecord threeKernelRun(const ChipConfig& chip) {
    RunRecord run;
    run.chip = &chip;
    run.deviceId = 0;
    run.epochNs = 1764246877000000000ULL;
    run.hostOps.push_back({"ProfilerStep#13", 1000, 9000000, 1, -1, 0, -1, "", "", "", "", -1});
    run.hostOps.push_back({"aten::add", 2000, 3000, 1, -1, 0, 0, "", "", "", "", -1});
    run.steps.push_back({13, 1000, 9000000});
    run.kernels.push_back(addKernel(5000000, 2060));
    run.kernels.push_back(matmulKernel(5010000, 170400));
    run.kernels.push_back(mixAicKernel(5300000, 881640));
    std::uint64_t correlationId = 1;
    for (KernelRecord& k : run.kernels) {
        k.hostOpIndex = 1;
        k.correlationId = correlationId++;
    }
    return run;
}

inline std::filesystem::path referenceRoot() {
    const char* source = std::getenv("ASCENDSIM_SOURCE_DIR");
    const std::filesystem::path base = source ? source : ".";
    return base / ".." / "shared" / "reference" / "real-profiles";
}

// First line of a reference file without its terminator; empty when the file is missing.
inline std::string referenceHeader(const std::string& relativePath) {
    std::ifstream in(referenceRoot() / relativePath, std::ios::binary);
    std::string line;
    if (!in || !std::getline(in, line)) return {};
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return line;
}

inline std::string joinHeader(const std::vector<std::string>& header) {
    std::string joined;
    for (std::size_t i = 0; i < header.size(); ++i) {
        if (i != 0) joined += ',';
        joined += header[i];
    }
    return joined;
}

inline std::string firstLine(const std::string& text) {
    const auto end = text.find_first_of("\r\n");
    return text.substr(0, end);
}

}  // namespace ascendsim::testing_support

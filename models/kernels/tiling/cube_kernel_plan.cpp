// The kernel-level side of cube lowering (cube_tiling.h, namespace cube): how many blocks a
// kernel runs and which tiles each takes, whether a buffer plan fits the chip, and the coupled
// chips' UB staging of output tiles. The block program itself is cube_tiling.cpp.
#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include "models/kernels/tiling/cube_tiling.h"

namespace ascendsim {

namespace {
constexpr std::uint32_t kMaxBlockDim = 65535;             // runtime launch limit on blockDim
constexpr std::uint64_t kCoupledOutputAlignBytes = 32;  // UB rows in 32 B blocks (hardware.md §2.3)
}  // namespace

namespace cube {
std::uint64_t roundUp(std::uint64_t value, std::uint64_t multiple) { return ceilDiv(value, multiple) * multiple; }


std::uint32_t chooseBlockDim(const OpInstance& op, const ChipConfig& chip, std::uint64_t tiles) {
    if (op.blockDim) {
        if (*op.blockDim == 0 || *op.blockDim > kMaxBlockDim)
            throwLoweringError(op, "block_dim " + std::to_string(*op.blockDim) + " outside 1.." +
                                       std::to_string(kMaxBlockDim));
        return *op.blockDim;
    }
    if (chip.aiCoreCount == 0) throwLoweringError(op, "chip " + chip.name + " has no AI cores");
    return static_cast<std::uint32_t>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(chip.aiCoreCount, tiles)));
}

bool blocksRunSeveralTiles(const OpInstance& op, const ChipConfig& chip, std::uint64_t tiles) {
    return tiles > chooseBlockDim(op, chip, tiles);
}

void blockTileRange(std::uint64_t tiles, std::uint32_t blockDim, std::uint32_t block,
                    std::uint64_t& first, std::uint64_t& count) {
    first = tiles * block / blockDim;
    count = tiles * (block + 1) / blockDim - first;
}

LoweredKernel makeCubeKernel(const OpInstance& op, const ChipConfig& chip,
                             std::shared_ptr<const CubeOperands> operands, const CubeBufferPlan& plan,
                             CubeStepSizes sizes) {
    const std::uint64_t tiles = operands->tileCount();
    LoweredKernel kernel;
    kernel.type = TaskType::AiCore;
    kernel.blockDim = chooseBlockDim(op, chip, tiles);
    const std::uint32_t blockDim = kernel.blockDim;
    kernel.program = [operands, plan, sizes, blockDim](const BlockProgramRequest& request) {
        std::uint64_t first = 0, count = 0;
        operands->blockTiles(blockDim, request.blockIdx, first, count);
        return makeCubeBlockStream(operands, plan, sizes, first, count);
    };
    return kernel;
}

namespace {
// The first buffer a plan overflows, or nullopt when it fits.
std::optional<std::pair<MemSpace, std::uint64_t>> firstOverflow(const ChipConfig& chip, const CubeBufferPlan& plan,
                                                                 std::uint64_t biasL1Bytes, std::uint64_t biasTableBytes) {
    const std::pair<MemSpace, std::uint64_t> needs[] = {
        {MemSpace::L1, plan.l1BiasAddr + (plan.outputThroughUb ? 0 : biasL1Bytes)},
        {MemSpace::L0A, 2 * plan.l0aSlotBytes},
        {MemSpace::L0B, 2 * plan.l0bSlotBytes},
        {MemSpace::L0C, std::uint64_t{plan.l0cSlots} * plan.l0cSlotBytes},
        plan.outputThroughUb ? std::pair{MemSpace::UB, plan.ubBytes} : std::pair{MemSpace::BiasTable, biasTableBytes}};
    for (const auto& need : needs)
        if (need.second > chip.bufferCapacity(need.first)) return need;
    return std::nullopt;
}
}  // namespace

bool planFits(const ChipConfig& chip, const CubeBufferPlan& plan, std::uint64_t biasL1Bytes,
              std::uint64_t biasTableBytes) {
    return !firstOverflow(chip, plan, biasL1Bytes, biasTableBytes);
}

void checkPlanFits(const OpInstance& op, const ChipConfig& chip, const CubeBufferPlan& plan,
                   std::uint64_t biasL1Bytes, std::uint64_t biasTableBytes) {
    const auto overflow = firstOverflow(chip, plan, biasL1Bytes, biasTableBytes);
    if (!overflow) return;
    const auto [space, bytes] = *overflow;
    throwLoweringError(op, "tiling needs " + std::to_string(bytes) + " bytes of " + std::string(memSpaceName(space)) +
                               " but " + chip.name + " has " + std::to_string(chip.bufferCapacity(space)));
}

void planCoupledOutput(const ChipConfig& chip, CubeBufferPlan& plan, std::uint32_t maxRows,
                       std::uint32_t maxColumns, DataType outputType, bool hasBias, DataType biasType) {
    if (chip.organisation != CoreOrganisation::Coupled) return;
    plan.outputThroughUb = true;
    plan.ubSlotBytes = std::uint64_t{maxRows} * roundUp(std::uint64_t{maxColumns} * bytesOf(outputType), kCoupledOutputAlignBytes);
    plan.ubSlotBytes = roundUp(plan.ubSlotBytes, kCoupledOutputAlignBytes);
    plan.ubBiasAddr = 2 * plan.ubSlotBytes;
    plan.ubBiasCastAddr = plan.ubBiasAddr;
    plan.ubBytes = plan.ubBiasAddr;
    if (!hasBias) return;
    plan.ubBiasSlotBytes = roundUp(std::uint64_t{maxColumns} * bytesOf(biasType), kCoupledOutputAlignBytes);
    plan.ubBiasCastAddr = plan.ubBiasAddr + 2 * plan.ubBiasSlotBytes;
    plan.ubBytes = plan.ubBiasCastAddr +
                   (biasType == outputType ? 0 : roundUp(std::uint64_t{maxColumns} * bytesOf(outputType), kCoupledOutputAlignBytes));
}

void planCoupledEpilogueOperand(CubeBufferPlan& plan, std::uint32_t maxRows, std::uint32_t maxColumns, DataType dtype) {
    if (!plan.outputThroughUb) return;
    plan.ubEpilogueSlotBytes = std::uint64_t{maxRows} * roundUp(std::uint64_t{maxColumns} * bytesOf(dtype), kCoupledOutputAlignBytes);
    plan.ubEpilogueAddr = roundUp(plan.ubBytes, kCoupledOutputAlignBytes);
    plan.ubBytes = plan.ubEpilogueAddr + 2 * plan.ubEpilogueSlotBytes;
}

}  // namespace cube
}  // namespace ascendsim

// The operand of an elementwise op TBE fuses after a MatMul / BatchMatMul (UB fusion), on coupled
// chips where C goes L0C → UB → GM. TBE's mmad schedule computes every fused elementwise tensor,
// the GM operand's UB copy included, at the output tile's (c_ub) loop (CANN tbe
// static_schedule/mmad_schedule.py, `_do_fusion_compute_at`: `compute_at(sch[res], c_ub_at_axis)`
// for each elementwise tensor, its header UB copies emitted as dma_copy). So every output tile
// loads its part of the operand GM → UB, and an operand broadcast over the batches is read again
// for every batch — by every core at once, which the L2 serves one read of a line after another
// (l2.same_line_read_cycles, docs/fidelity.md §39, §100). c1e639ee level1 rank0's
// AdaptiveAvgPool2d24RightBatchMatMulV2AdaptiveAvgPool2d24Mul (8192 batches of 16 × 16, the Mul's
// fp32 [16,16] operand shared by all) keeps MTE2 busy 0.994 of 356 µs where the unfused forward
// BatchMatMulV2 of the same batches takes 24.6 µs.
#include <string>

#include "models/kernels/cube/matmul/matmul_epilogue_operand.h"

namespace ascendsim {

bool hasFusedElementwiseInput(const OpInstance& op) {
    return op.inputs.size() >= 3 && op.boolAttr(kFusedElementwiseInputAttr, false);
}

void setEpilogueOperand(const OpInstance& op, const TensorInfo& operand, MatmulProblem& p) {
    const auto elements = static_cast<std::uint64_t>(operand.elementCount());
    if (operand.dtype != p.outputType)
        throwLoweringError(op, "fused elementwise operand dtype " + std::string(dataTypeName(operand.dtype)) +
                                   " is not the output's " + std::string(dataTypeName(p.outputType)));
    if (elements != p.m * p.n && elements != p.batchCount() * p.m * p.n)
        throwLoweringError(op, "fused elementwise operand of " + std::to_string(elements) +
                                   " elements is neither one output matrix nor one per batch");
    p.hasEpilogueOperand = true;
    p.epilogueBroadcast = elements == p.m * p.n && p.batchCount() > 1;
    p.epilogueFractal = operand.format == TensorFormat::FractalNz;
    p.epilogueAddr = operand.deviceAddr;
}

// The tile's rows of the operand, GM → UB, each row at the staged output's 32 B-aligned pitch.
DataMove MatmulOperands::epilogueOperandLoad(std::uint64_t tile, std::uint64_t ubAddr) const {
    const TileCoord c = coord(tile);
    const std::uint64_t eb = bytesOf(problem_.outputType);
    const std::uint64_t matrix = problem_.epilogueAddr + (problem_.epilogueBroadcast ? 0 : c.batch * problem_.m * problem_.n * eb);
    const std::uint64_t rowBytes = c.n * eb;
    DataMove m;
    m.src = MemSpace::GM;
    m.dst = MemSpace::UB;
    m.srcAddr = matrix + (c.m0 * problem_.n + c.n0) * eb;
    m.dstAddr = ubAddr;
    m.burstCount = c.m;
    m.burstBytes = static_cast<std::uint32_t>(rowBytes);
    m.srcGapBytes = static_cast<std::uint32_t>((problem_.n - c.n) * eb);
    m.dstGapBytes = static_cast<std::uint32_t>(roundUp(rowBytes, 32) - rowBytes);
    m.srcType = m.dstType = problem_.outputType;
    if (problem_.epilogueFractal) {  // its GM bursts are its FRACTAL_NZ layout's (gm_layout.h)
        m.gmNz.tensorAddr = matrix;
        m.gmNz.rows = static_cast<std::uint32_t>(problem_.m);
        m.gmNz.rowBytes = problem_.n * eb;
        m.gmNz.blockRowBytes = fractalNzBlockRowBytes(problem_.outputType);
    }
    return m;
}

}  // namespace ascendsim

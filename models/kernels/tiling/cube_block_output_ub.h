#pragma once
// The output path of the cube block program on coupled chips (cube_tiling.h "Coupled chips":
// 910, 310P have no L0C→GM path, CubeBufferPlan::outputThroughUb): the vector pipe converts each
// output tile L0C→UB, adds the bias (staged GM→UB by MTE2) and multiplies by a fused epilogue
// operand (also staged GM→UB), and MTE3 writes the rows to GM. It has UB buffers and flags of its
// own that split chips never use, so it stands apart from the block's L1 / L0 loops
// (cube_tiling.cpp), which own L0C and hand each finished tile to storeThroughUb.
#include <cstdint>
#include <memory>

#include "models/kernels/program_builder.h"
#include "models/kernels/tiling/cube_tiling.h"

namespace ascendsim {

class CubeBlockOutputUb {
public:
    // UB staging, bias and epilogue-operand slots as the plan lays them out (planCoupledOutput,
    // planCoupledEpilogueOperand); on a plan without outputThroughUb it emits nothing.
    CubeBlockOutputUb(std::shared_ptr<const CubeOperands> operands, const CubeBufferPlan& plan);

    // The flags of the UB buffers the plan uses: primed in the block's prologue, drained in its
    // epilogue.
    void prime(ProgramBuilder& b) const;
    void drain(ProgramBuilder& b) const;

    // MTE2: the tile's bias slice GM→UB (the slot is freed by the vector pipe after its add).
    void loadBiasToUb(std::uint64_t tile, ProgramBuilder& b);
    // True when each output tile is multiplied by a fused elementwise operand (coupled chips).
    bool epilogueOperand() const;
    // MTE2: the tile's part of the fused epilogue operand GM→UB.
    void loadEpilogueOperand(std::uint64_t tile, ProgramBuilder& b);
    // The tile's accumulator in `l0c` (already published and consumed) L0C→UB on V, the bias
    // added when `addBias`, the epilogue operand multiplied, then UB→GM on MTE3; releases `l0c`.
    void storeThroughUb(std::uint64_t tile, bool addBias, PingPongBuffer& l0c, ProgramBuilder& b);

private:
    void multiplyRows(std::uint64_t ubAddr, std::uint64_t operandAddr, std::uint32_t ubRowBytes, std::uint32_t rows,
                      std::uint32_t columns, DataType dtype, ProgramBuilder& b) const;
    static void rowBands(VectorOp op, std::uint64_t ubAddr, std::uint64_t src1Addr, std::uint32_t ubRowBytes,
                         std::uint32_t src1RowBytes, std::uint32_t rows, std::uint32_t columns, DataType dtype,
                         ProgramBuilder& b);
    void addBiasRows(std::uint64_t tile, std::uint64_t ubAddr, std::uint32_t ubRowBytes, std::uint32_t rows,
                     std::uint32_t columns, DataType dtype, ProgramBuilder& b) const;

    std::shared_ptr<const CubeOperands> ops_;
    CubeBufferPlan plan_;
    PingPongBuffer ubStaging_;
    PingPongBuffer ubBias_;
    PingPongBuffer ubEpilogue_;
};

}  // namespace ascendsim

// The coupled chips' output path of the cube block program (cube_block_output_ub.h), moved out of
// cube_tiling.cpp with its bodies unchanged.
#include "models/kernels/tiling/cube_block_output_ub.h"

#include <algorithm>
#include <utility>

#include "models/kernels/tiling/cube_block_event_ids.h"

namespace ascendsim {

namespace {
constexpr std::uint64_t kUbBlockBytes = 32;     // UB block: vector strides and UB rows (hardware.md §2.3)
constexpr std::uint64_t kVectorRepeatBytes = 256;  // one vector repeat (hardware.md §2.6)
constexpr std::uint32_t kMaxVectorRepeats = 255;   // repeat field limit of a vector instruction
}  // namespace

CubeBlockOutputUb::CubeBlockOutputUb(std::shared_ptr<const CubeOperands> operands, const CubeBufferPlan& plan)
    : ops_(std::move(operands)), plan_(plan),
      ubStaging_(0, plan.ubSlotBytes, Pipe::Vector, Pipe::Mte3, kSlotEvents),
      ubBias_(plan.ubBiasAddr, plan.ubBiasSlotBytes, Pipe::Mte2, Pipe::Vector, kBiasEvent),
      ubEpilogue_(plan.ubEpilogueAddr, plan.ubEpilogueSlotBytes, Pipe::Mte2, Pipe::Vector, kEpilogueEvents) {}

void CubeBlockOutputUb::prime(ProgramBuilder& b) const {
    if (plan_.outputThroughUb) ubStaging_.prime(b);
    if (ops_->hasBias() && plan_.outputThroughUb) ubBias_.prime(b);
    if (epilogueOperand()) ubEpilogue_.prime(b);
}

void CubeBlockOutputUb::drain(ProgramBuilder& b) const {
    if (plan_.outputThroughUb) ubStaging_.drain(b);
    if (ops_->hasBias() && plan_.outputThroughUb) ubBias_.drain(b);
    if (epilogueOperand()) ubEpilogue_.drain(b);
}

// MTE2: the tile's bias slice GM→UB (the slot is freed by the vector pipe after its add).
void CubeBlockOutputUb::loadBiasToUb(std::uint64_t tile, ProgramBuilder& b) {
    const CubeBiasSlice slice = ops_->biasSlice(tile);
    ubBias_.acquire(b);
    b.copy(MemSpace::GM, slice.gmAddr, MemSpace::UB, ubBias_.address(),
           static_cast<std::uint32_t>(slice.elements * bytesOf(slice.dtype)));
    ubBias_.publish(b);
}

// Coupled output path: V converts L0C→UB (rows padded to 32 B) and adds the bias, MTE3 writes
// the rows to the GM places the FixPipe move would have written.
void CubeBlockOutputUb::storeThroughUb(std::uint64_t tile, bool addBias, PingPongBuffer& l0c, ProgramBuilder& b) {
    const DataMove out = ops_->storeMove(tile, l0c.address());
    const std::uint32_t columns = out.burstBytes / static_cast<std::uint32_t>(bytesOf(out.srcType));
    const std::uint32_t outRowBytes = columns * static_cast<std::uint32_t>(bytesOf(out.dstType));
    const std::uint32_t ubRowBytes = static_cast<std::uint32_t>(roundUp(outRowBytes, kUbBlockBytes));
    ubStaging_.acquire(b);
    DataMove toUb = out;
    toUb.dst = MemSpace::UB;
    toUb.dstAddr = ubStaging_.address();
    toUb.dstGapBytes = ubRowBytes - outRowBytes;
    toUb.atomicAdd = false;
    toUb.gmNz = {};  // L0C→UB has no GM side
    toUb.gm5hd = {};
    b.move(toUb);
    l0c.release(b);
    if (addBias) {
        ubBias_.consume(b);
        addBiasRows(tile, ubStaging_.address(), ubRowBytes, out.burstCount, columns, out.dstType, b);
        ubBias_.release(b);
    }
    if (epilogueOperand()) {
        ubEpilogue_.consume(b);
        multiplyRows(ubStaging_.address(), ubEpilogue_.address(), ubRowBytes, out.burstCount, columns, out.dstType, b);
        ubEpilogue_.release(b);
    }
    ubStaging_.publish(b);
    ubStaging_.consume(b);
    DataMove toGm;
    toGm.src = MemSpace::UB;
    toGm.dst = MemSpace::GM;
    toGm.srcAddr = ubStaging_.address();
    toGm.dstAddr = out.dstAddr;
    toGm.burstCount = out.burstCount;
    toGm.burstBytes = outRowBytes;
    toGm.srcGapBytes = ubRowBytes - outRowBytes;
    toGm.dstGapBytes = out.dstGapBytes;
    toGm.srcType = toGm.dstType = out.dstType;
    toGm.atomicAdd = out.atomicAdd;
    toGm.gmNz = out.gmNz;
    toGm.gm5hd = out.gm5hd;
    b.move(toGm);
    ubStaging_.release(b);
}

// TBE's UB fusion of an elementwise op after the matmul computes the op's GM operand at the
// output tile's loop (mmad_schedule.py: every fused elementwise tensor compute_at the c_ub
// axis), so each output tile loads its part of the operand GM→UB on MTE2 — a broadcast operand
// again for every tile — into one of two UB slots, laid out as the staged output's rows.
bool CubeBlockOutputUb::epilogueOperand() const { return plan_.outputThroughUb && ops_->hasEpilogueOperand(); }

void CubeBlockOutputUb::loadEpilogueOperand(std::uint64_t tile, ProgramBuilder& b) {
    ubEpilogue_.acquire(b);
    b.move(ops_->epilogueOperandLoad(tile, ubEpilogue_.address()));
    ubEpilogue_.publish(b);
}

// rows[r][c] *= operand[r][c] on the vector pipe: one vmul per 256 B column band, both
// operands row-strided alike; rows without padding are one contiguous run, multiplied in
// whole 256 B repeats (TBE's vector emit over the flattened tile).
void CubeBlockOutputUb::multiplyRows(std::uint64_t ubAddr, std::uint64_t operandAddr, std::uint32_t ubRowBytes,
                                     std::uint32_t rows, std::uint32_t columns, DataType dtype,
                                     ProgramBuilder& b) const {
    const std::uint32_t perRepeat = static_cast<std::uint32_t>(kVectorRepeatBytes / bytesOf(dtype));
    if (ubRowBytes == columns * bytesOf(dtype) && columns < perRepeat && rows * columns % perRepeat == 0) {
        multiplyRows(ubAddr, operandAddr, static_cast<std::uint32_t>(kVectorRepeatBytes), rows * columns / perRepeat,
                     perRepeat, dtype, b);
        return;
    }
    rowBands(VectorOp::Mul, ubAddr, operandAddr, ubRowBytes, ubRowBytes, rows, columns, dtype, b);
}

// dst rows[r][c] = rows[r][c] `op` src1[r][c] on the vector pipe, one instruction per 256 B
// column band and up to 255 rows: the rows `ubRowBytes` apart, src1's rows `src1RowBytes`
// apart (0: every row reads the same src1 row).
void CubeBlockOutputUb::rowBands(VectorOp op, std::uint64_t ubAddr, std::uint64_t src1Addr, std::uint32_t ubRowBytes,
                                 std::uint32_t src1RowBytes, std::uint32_t rows, std::uint32_t columns,
                                 DataType dtype, ProgramBuilder& b) {
    const std::uint32_t perRepeat = static_cast<std::uint32_t>(kVectorRepeatBytes / bytesOf(dtype));
    for (std::uint32_t c0 = 0; c0 < columns; c0 += perRepeat) {
        for (std::uint32_t r0 = 0; r0 < rows; r0 += kMaxVectorRepeats) {
            VectorInstr v;
            v.op = op;
            v.dtype = v.srcType = dtype;
            v.dst = v.src0 = ubAddr + std::uint64_t{r0} * ubRowBytes + c0 * bytesOf(dtype);
            v.src1 = src1Addr + std::uint64_t{r0} * src1RowBytes + c0 * bytesOf(dtype);
            v.repeats = static_cast<std::uint16_t>(std::min(kMaxVectorRepeats, rows - r0));
            v.mask = static_cast<std::uint16_t>(std::min(perRepeat, columns - c0));
            v.dstRepeatStride = v.src0RepeatStride = static_cast<std::uint16_t>(ubRowBytes / kUbBlockBytes);
            v.src1RepeatStride = static_cast<std::uint16_t>(src1RowBytes / kUbBlockBytes);
            b.vector(v);
        }
    }
}

// rows[r][c] += bias[c] on the vector pipe: one vadd per 256 B column band with the bias
// operand's repeat stride 0 (every row reads the same bias), after casting the bias to the
// output dtype when they differ.
void CubeBlockOutputUb::addBiasRows(std::uint64_t tile, std::uint64_t ubAddr, std::uint32_t ubRowBytes,
                                    std::uint32_t rows, std::uint32_t columns, DataType dtype,
                                    ProgramBuilder& b) const {
    const CubeBiasSlice slice = ops_->biasSlice(tile);
    std::uint64_t biasAddr = ubBias_.address();
    if (slice.dtype != dtype) {
        const std::uint64_t widest = std::max(bytesOf(slice.dtype), bytesOf(dtype));
        const std::uint32_t perRepeat = static_cast<std::uint32_t>(kVectorRepeatBytes / widest);
        for (std::uint32_t c0 = 0; c0 < columns; c0 += perRepeat) {
            VectorInstr cast;
            cast.op = VectorOp::Cast;
            cast.dtype = dtype;
            cast.srcType = slice.dtype;
            cast.dst = plan_.ubBiasCastAddr + c0 * bytesOf(dtype);
            cast.src0 = ubBias_.address() + c0 * bytesOf(slice.dtype);
            cast.mask = static_cast<std::uint16_t>(std::min(perRepeat, columns - c0));
            b.vector(cast);
        }
        biasAddr = plan_.ubBiasCastAddr;
    }
    rowBands(VectorOp::Add, ubAddr, biasAddr, ubRowBytes, 0, rows, columns, dtype, b);
}

}  // namespace ascendsim

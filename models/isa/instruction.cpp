#include "models/isa/instruction.h"

#include <array>
#include <stdexcept>

namespace ascendsim {

VectorClass vectorClassOf(VectorOp op) {
    using O = VectorOp;
    using C = VectorClass;
    switch (op) {
        case O::Add: case O::Sub: case O::Mul: case O::Max: case O::Min: case O::And: case O::Or:
        case O::CompareGt: case O::Select:
            return C::Binary;
        case O::Div: case O::Exp: case O::Ln: case O::Sqrt:
            return C::Transcendental;
        case O::Adds: case O::Muls: case O::Maxs: case O::Mins: case O::LeakyRelu: case O::Relu:
        case O::Abs: case O::Rsqrt: case O::Reciprocal: case O::Copy: case O::Duplicate:
        case O::BlockReduceSum: case O::BlockReduceMax: case O::BlockBroadcast:  // hardware.md §2.6 unary row
            return C::Unary;
        case O::Cast:
            return C::Conversion;
        case O::MulAdd:
            return C::FusedMultiplyAdd;
        case O::ReduceSum: case O::ReduceMax: case O::ReduceMin:
            return C::Reduction;
        case O::Gather:
            return C::Gather;
        case O::Sort:
            return C::Sort;
        case O::NchwConv:
            return C::Transpose;
        case O::BitSort:
            return C::BitSort;
    }
    throw std::logic_error("unknown vector op");
}

const char* vectorOpName(VectorOp op) {
    static constexpr std::array<const char*, 36> kNames = {
        "vadd", "vsub", "vmul", "vdiv", "vmax", "vmin", "vand", "vor", "vadds", "vmuls", "vmaxs",
        "vmins", "vlrelu", "vrelu", "vabs", "vexp", "vln", "vsqrt", "vrsqrt", "vrec", "vcopy",
        "vdup", "vconv", "vmla", "vcadd", "vcmax", "vcmin", "vgather", "vmrgsort", "vcmp", "vsel",
        "vcgadd", "vcgmax", "vbrcb", "vnchwconv", "vbitsort"};
    return kNames[static_cast<std::size_t>(op)];
}

bool isBlockReduction(VectorOp op) { return op == VectorOp::BlockReduceSum || op == VectorOp::BlockReduceMax; }

VectorClass vectorCostClassOf(const VectorInstr& v) {
    if (isBlockReduction(v.op) && bytesOf(v.dtype) == 2) return VectorClass::Reduction;
    return vectorClassOf(v.op);
}

Instruction Instruction::move(const DataMove& m) {
    return {Opcode::DataMove, pipeForPath(m.src, m.dst), m};
}
Instruction Instruction::img2col(const Img2ColLoad& l) { return {Opcode::Img2Col, Pipe::Mte1, l}; }
Instruction Instruction::mmad(const Mmad& m) { return {Opcode::Mmad, Pipe::Cube, m}; }
Instruction Instruction::vector(const VectorInstr& v) { return {Opcode::Vector, Pipe::Vector, v}; }
Instruction Instruction::scalar(std::uint32_t cycles, std::uint16_t loads, std::uint16_t stores) {
    return scalar(ScalarWork{.cycles = cycles, .loads = loads, .stores = stores});
}
Instruction Instruction::scalar(const ScalarWork& work) {
    return {Opcode::Scalar, Pipe::Scalar, work};
}
Instruction Instruction::setFlag(Pipe src, Pipe dst, std::uint8_t eventId) {
    return {Opcode::SetFlag, src, Flag{src, dst, eventId}};
}
Instruction Instruction::waitFlag(Pipe src, Pipe dst, std::uint8_t eventId) {
    return {Opcode::WaitFlag, dst, Flag{src, dst, eventId}};
}
Instruction Instruction::barrier(Pipe pipe) {
    return {Opcode::Barrier, pipe == Pipe::All ? Pipe::Scalar : pipe, Barrier{pipe}};
}
Instruction Instruction::crossCoreSet(std::uint8_t flagId, std::uint8_t mode, Pipe executingPipe) {
    return {Opcode::CrossCoreSet, executingPipe, CrossCoreFlag{flagId, mode, false}};
}
Instruction Instruction::crossCoreWait(std::uint8_t flagId, std::uint8_t mode, bool polled) {
    return {Opcode::CrossCoreWait, Pipe::Scalar, CrossCoreFlag{flagId, mode, polled}};
}

std::uint64_t nchwConvBlockOffset(const VectorInstr& v, bool destination, std::uint32_t block, std::uint32_t repeat) {
    const std::uint64_t blockStride = destination ? v.dstBlockStride : v.src0BlockStride;
    const std::uint64_t repeatStride = destination ? v.dstRepeatStride : v.src0RepeatStride;
    const std::uint64_t halfSet = destination ? v.dstHalfStride : v.src0HalfStride;
    const std::uint64_t half = halfSet != 0 ? halfSet : 8 * blockStride;
    // 32-bit destinations are listed in pairs (block 2·j + h), everything else in halves (8·h + i).
    const bool pairs = destination && bytesOf(v.dtype) == 4;
    const std::uint64_t i = pairs ? block / 2 : block % 8, h = pairs ? block % 2 : block / 8;
    return repeat * repeatStride + i * blockStride + h * half;
}

}  // namespace ascendsim

#include "models/kernels/program_builder.h"

#include <stdexcept>

namespace ascendsim {

ProgramBuilder& ProgramBuilder::copy2d(MemSpace src, std::uint64_t srcAddr, MemSpace dst,
                                       std::uint64_t dstAddr, std::uint32_t rows,
                                       std::uint32_t rowBytes, std::uint64_t srcStrideBytes,
                                       std::uint64_t dstStrideBytes, LayoutConversion conversion,
                                       const GmFractalNz& gmNz) {
    if (srcStrideBytes < rowBytes || dstStrideBytes < rowBytes)
        throw std::logic_error("copy2d: a row stride is shorter than the row");
    DataMove m;
    m.src = src;
    m.dst = dst;
    m.srcAddr = srcAddr;
    m.dstAddr = dstAddr;
    m.burstCount = rows;
    m.burstBytes = rowBytes;
    m.srcGapBytes = static_cast<std::uint32_t>(srcStrideBytes - rowBytes);
    m.dstGapBytes = static_cast<std::uint32_t>(dstStrideBytes - rowBytes);
    m.conversion = conversion;
    m.gmNz = gmNz;
    // A 2-D copy whose rows are back to back on both sides is one long burst.
    if (rows > 1 && m.srcGapBytes == 0 && m.dstGapBytes == 0 &&
        std::uint64_t{rows} * rowBytes <= UINT32_MAX) {
        m.burstCount = 1;
        m.burstBytes = rows * rowBytes;
    }
    return move(m);
}

DataMove& ProgramBuilder::lastDataMove() {
    if (out_.empty() || out_.back().opcode != Opcode::DataMove)
        throw std::logic_error("lastDataMove: the last instruction is not a data move");
    return std::get<DataMove>(out_.back().operands);
}

Flag& ProgramBuilder::lastFlag() {
    if (out_.empty() || (out_.back().opcode != Opcode::WaitFlag && out_.back().opcode != Opcode::SetFlag))
        throw std::logic_error("lastFlag: the last instruction is not a flag wait or set");
    return std::get<Flag>(out_.back().operands);
}

bool TiledInstructionStream::next(std::vector<Instruction>& out) {
    if (finished_) return false;
    const std::size_t before = out.size();
    ProgramBuilder b(out);
    if (!started_) {
        started_ = true;
        emitPrologue(b);
    }
    const std::uint64_t tiles = tileCount();
    // At least one tile per call (the prologue rides with the first), and keep going past tiles
    // that emit nothing: next() must not return true without appending.
    do {
        if (nextTile_ < tiles) emitTile(nextTile_++, b);
        if (nextTile_ >= tiles) {
            emitEpilogue(b);
            finished_ = true;
        }
    } while (!finished_ && out.size() == before);
    return out.size() > before;
}

}  // namespace ascendsim

#include "models/core/buffer_checks.h"

#include <bit>
#include <sstream>
#include <stdexcept>

#include "models/core/ub_bank_model.h"

namespace ascendsim {

namespace {

constexpr std::uint64_t kAccumulatorBytes = 4;  // L0C holds fp32/int32 accumulators

std::uint64_t burstSpan(std::uint32_t count, std::uint64_t burstBytes, std::uint32_t gapBytes) {
    if (count == 0) return 0;
    return std::uint64_t{count} * burstBytes + std::uint64_t{count - 1} * gapBytes;
}

bool coreHasMemory(CoreKind kind, MemSpace space) {
    if (space == MemSpace::GM || kind == CoreKind::Coupled) return true;
    if (kind == CoreKind::Vector) return space == MemSpace::UB;
    return space != MemSpace::UB;  // AIC of the split organisation has no UB
}

std::string opcodeText(const Instruction& instr) {
    switch (instr.opcode) {
        case Opcode::DataMove: {
            const auto& m = std::get<DataMove>(instr.operands);
            return "data_move " + pathName(m.src, m.dst);
        }
        case Opcode::Img2Col: return "img2col";
        case Opcode::Mmad: return "mmad";
        case Opcode::Vector: return vectorOpName(std::get<VectorInstr>(instr.operands).op);
        default: return "instruction";
    }
}

}  // namespace

std::string InstructionSite::describe() const {
    std::ostringstream out;
    out << "task " << taskId << " block " << blockIdx;
    if (coreKind != CoreKind::Cube || subBlockIdx != 0) out << "." << subBlockIdx;
    out << (coreKind == CoreKind::Vector ? " (AIV " : coreKind == CoreKind::Cube ? " (AIC " : " (core ")
        << coreId << ") instruction #" << programIndex;
    return out.str();
}

BufferChecks::BufferChecks(const ChipConfig& chip, CoreKind kind) : chip_(chip), kind_(kind) {
    for (std::size_t s = 0; s < kMemSpaceCount; ++s) {
        const auto space = static_cast<MemSpace>(s);
        rangeLimit_[s] = coreHasMemory(kind_, space) ? chip_.bufferCapacity(space) : 0;
        const std::uint32_t alignment = chip_.alignment(space);
        alignmentMask_[s] = alignment <= 1 ? 0 : std::has_single_bit(alignment) ? alignment - 1 : ~std::uint64_t{0};
    }
}

void BufferChecks::reportRange(MemSpace space, std::uint64_t address, std::uint64_t bytes,
                              const Instruction& instr, const InstructionSite& site) const {
    if (space == MemSpace::GM) return;
    const std::uint64_t capacity = chip_.bufferCapacity(space);
    const std::uint32_t alignment = chip_.alignment(space);
    const char* problem = nullptr;
    if (!coreHasMemory(kind_, space) || capacity == 0)
        problem = "uses a memory this core does not have";
    else if (address + bytes > capacity || address + bytes < address)
        problem = "overflows the buffer";
    else if (alignment > 1 && ((alignment & (alignment - 1)) == 0 ? address & (alignment - 1) : address % alignment) != 0)
        problem = "is misaligned";
    if (problem == nullptr) return;
    std::ostringstream message;
    message << opcodeText(instr) << " at " << site.describe() << " " << problem << ": "
            << memSpaceName(space) << " address 0x" << std::hex << address << std::dec << " + " << bytes
            << " bytes (capacity " << capacity << ", alignment " << alignment << ")";
    throw std::runtime_error(message.str());
}

void BufferChecks::check(const Instruction& instr, const InstructionSite& site) const {
    switch (instr.opcode) {
        case Opcode::DataMove: {
            const auto& m = std::get<DataMove>(instr.operands);
            const std::uint64_t dstBurst =
                m.srcType == m.dstType ? m.burstBytes
                                       : std::uint64_t{m.burstBytes} / bytesOf(m.srcType) * bytesOf(m.dstType);
            checkRange(m.src, m.srcAddr, burstSpan(m.burstCount, m.burstBytes, m.srcGapBytes), instr, site);
            checkRange(m.dst, m.dstAddr, burstSpan(m.burstCount, dstBurst, m.dstGapBytes), instr, site);
            break;
        }
        case Opcode::Img2Col: {
            const auto& l = std::get<Img2ColLoad>(instr.operands);
            const std::uint64_t slabBytes = std::uint64_t{l.channels} * l.inH * l.inW * bytesOf(l.dtype);
            checkRange(MemSpace::L1, l.srcAddr, slabBytes, instr, site);
            checkRange(l.dst, l.dstAddr, l.totalBytes(), instr, site);
            break;
        }
        case Opcode::Mmad: {
            const auto& mm = std::get<Mmad>(instr.operands);
            const std::uint64_t elem = bytesOf(mm.dtype);
            checkRange(MemSpace::L0A, mm.l0aAddr, std::uint64_t{mm.m} * mm.k * elem, instr, site);
            checkRange(MemSpace::L0B, mm.l0bAddr, std::uint64_t{mm.k} * mm.n * elem, instr, site);
            checkRange(MemSpace::L0C, mm.l0cAddr, std::uint64_t{mm.m} * mm.n * kAccumulatorBytes, instr, site);
            break;
        }
        case Opcode::Vector:
            checkVector(ubAccessPatternOf(std::get<VectorInstr>(instr.operands)), instr, site);
            break;
        default:
            break;
    }
}

void BufferChecks::checkVector(const UbAccessPattern& p, const Instruction& instr, const InstructionSite& site) const {
    for (std::size_t i = 0; i < p.operandCount; ++i) {
        const UbOperandPattern& o = p.operands[i];
        if (o.blocksPerBeat == 0 || p.beats == 0) continue;
        const std::uint64_t span = std::uint64_t{p.beats - 1u} * o.beatStrideBytes +
                                   std::uint64_t{o.blocksPerBeat - 1u} * o.blockStrideBytes + chip_.ub.rowBytes;
        checkRange(MemSpace::UB, o.baseBytes,
                   o.packsElements() ? std::uint64_t{p.beats} * o.beatStrideBytes : span, instr,
                   site);
    }
}

}  // namespace ascendsim

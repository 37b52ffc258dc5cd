#include "models/functional/hazard_tracker.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ascendsim {

namespace {
constexpr std::uint64_t kGranuleBytes = 32;
constexpr std::size_t kEvents = 16;
constexpr std::size_t kScalar = static_cast<std::size_t>(Pipe::Scalar);

void join(std::array<std::uint64_t, kPipeCount>& into, const std::array<std::uint64_t, kPipeCount>& from) {
    for (std::size_t i = 0; i < kPipeCount; ++i) into[i] = std::max(into[i], from[i]);
}

std::string describe(const Instruction& instruction) {
    std::string text(pipeName(instruction.pipe));
    switch (instruction.opcode) {
        case Opcode::DataMove: {
            const auto& m = std::get<DataMove>(instruction.operands);
            return text + " DataMove " + pathName(m.src, m.dst);
        }
        case Opcode::Img2Col: return text + " Img2ColLoad";
        case Opcode::Mmad: return text + " Mmad";
        case Opcode::Vector: return text + " " + vectorOpName(std::get<VectorInstr>(instruction.operands).op);
        default: return text;
    }
}
}  // namespace

HazardTracker::HazardTracker() : flagClocks_(kPipeCount * kPipeCount * kEvents, Clock{}) {}

void HazardTracker::access(MemSpace space, std::uint64_t addr, std::uint64_t bytes, bool write, std::size_t pipe,
                           const Instruction& instruction) {
    if (space == MemSpace::GM || bytes == 0) return;  // GM ordering across cores is not tracked
    auto& shadow = shadow_[static_cast<std::size_t>(space)];
    const std::uint64_t first = addr / kGranuleBytes, last = (addr + bytes - 1) / kGranuleBytes;
    if (shadow.size() <= last) shadow.resize(last + 1);
    const Clock& now = clocks_[pipe];
    auto fail = [&](const char* kind, std::size_t other) {
        throw std::runtime_error(std::string(kind) + " hazard on " + std::string(memSpaceName(space)) + " byte " +
                                 std::to_string(addr) + ": " + describe(instruction) + " is not ordered after an access by " +
                                 std::string(pipeName(static_cast<Pipe>(other))) + " (missing SetFlag/WaitFlag)");
    };
    for (std::uint64_t g = first; g <= last; ++g) {
        Granule& granule = shadow[g];
        if (granule.writer != 0xFF && granule.writer != pipe && now[granule.writer] < granule.writeTime)
            fail(write ? "write-after-write" : "read-after-write", granule.writer);
        if (write) {
            for (std::size_t q = 0; q < kPipeCount; ++q)
                if (q != pipe && granule.readTime[q] != 0 && now[q] < granule.readTime[q]) fail("write-after-read", q);
            granule.writer = static_cast<std::uint8_t>(pipe);
            granule.writeTime = now[pipe];
            granule.readTime.fill(0);
        } else {
            granule.readTime[pipe] = std::max(granule.readTime[pipe], now[pipe]);
        }
    }
}

void HazardTracker::accessVector(const VectorInstr& v, std::size_t pipe, const Instruction& instruction) {
    const bool cast = v.op == VectorOp::Cast;
    const std::uint64_t dstBytes = bytesOf(v.dtype), srcBytes = cast ? bytesOf(v.srcType) : dstBytes;
    auto extent = [&](std::uint64_t elementBytes, std::uint64_t blockStride, std::uint64_t repeatStride) {
        const std::uint64_t blocks = (std::uint64_t{v.mask} * elementBytes + kGranuleBytes - 1) / kGranuleBytes;
        const std::uint64_t span = (std::uint64_t{v.repeats} - 1) * repeatStride + (blocks - 1) * blockStride + 1;
        return span * kGranuleBytes;
    };
    if (v.repeats == 0 || v.mask == 0) return;
    const VectorClass cls = vectorClassOf(v.op);
    if (v.op == VectorOp::BlockBroadcast) {  // 8 contiguous sources per repeat, 8 whole blocks written
        access(MemSpace::UB, v.src0, std::uint64_t{v.repeats} * kVectorBlocksPerRepeat * srcBytes, false, pipe, instruction);
        const std::uint64_t span = (std::uint64_t{v.repeats} - 1) * v.dstRepeatStride + (kVectorBlocksPerRepeat - 1) * v.dstBlockStride + 1;
        access(MemSpace::UB, v.dst, span * kGranuleBytes, true, pipe, instruction);
        return;
    }
    if (v.op == VectorOp::NchwConv) {  // 16 blocks read and 16 written per repeat (two groups of 8 each)
        auto span = [&](bool destination) {  // from the base to the far end of the last repeat's farthest block
            std::uint64_t last = 0;
            for (std::uint32_t b = 0; b < kNchwConvBlocks; ++b)
                last = std::max(last, nchwConvBlockOffset(v, destination, b, std::uint32_t{v.repeats} - 1));
            return (last + 1) * kGranuleBytes;
        };
        access(MemSpace::UB, v.src0, span(false), false, pipe, instruction);
        access(MemSpace::UB, v.dst, span(true), true, pipe, instruction);
        return;
    }
    if (v.op != VectorOp::Duplicate && v.op != VectorOp::Gather)
        access(MemSpace::UB, v.src0, extent(srcBytes, v.src0BlockStride, v.src0RepeatStride), false, pipe, instruction);
    const bool binary = cls == VectorClass::Binary || v.op == VectorOp::MulAdd || v.op == VectorOp::Gather;
    if (binary) access(MemSpace::UB, v.src1, extent(v.op == VectorOp::Gather ? 4 : srcBytes, v.src1BlockStride, v.src1RepeatStride),
                       false, pipe, instruction);
    if (cls == VectorClass::Reduction)
        access(MemSpace::UB, v.dst, std::uint64_t{v.repeats} * dstBytes, true, pipe, instruction);
    else if (isBlockReduction(v.op))
        access(MemSpace::UB, v.dst, std::uint64_t{v.repeats} * kVectorBlocksPerRepeat * dstBytes, true, pipe, instruction);
    else
        access(MemSpace::UB, v.dst, extent(dstBytes, v.dstBlockStride, v.dstRepeatStride), true, pipe, instruction);
}

void HazardTracker::execute(const Instruction& instruction) {
    const std::size_t pipe = pipeIndex(instruction.pipe);
    Clock& clock = clocks_[pipe];
    // The scalar unit issues in program order: nothing starts before earlier scalar work ends.
    if (pipe != kScalar) join(clock, clocks_[kScalar]);
    switch (instruction.opcode) {
        case Opcode::WaitFlag: {
            const auto& f = std::get<Flag>(instruction.operands);
            join(clock, flagClocks_[(pipeIndex(f.src) * kPipeCount + pipeIndex(f.dst)) * kEvents + f.eventId % kEvents]);
            break;
        }
        case Opcode::Barrier:
            if (std::get<Barrier>(instruction.operands).pipe == Pipe::All)
                for (const Clock& other : clocks_) join(clock, other);
            break;
        default:
            break;
    }
    ++clock[pipe];
    switch (instruction.opcode) {
        case Opcode::SetFlag: {
            const auto& f = std::get<Flag>(instruction.operands);
            flagClocks_[(pipeIndex(f.src) * kPipeCount + pipeIndex(f.dst)) * kEvents + f.eventId % kEvents] = clock;
            break;
        }
        case Opcode::DataMove: {
            const auto& m = std::get<DataMove>(instruction.operands);
            const std::uint64_t count = m.burstCount;
            const std::uint64_t dstBurst = m.srcType != m.dstType
                                               ? m.burstBytes / bytesOf(m.srcType) * bytesOf(m.dstType)
                                               : m.burstBytes;
            if (count == 0) break;
            access(m.src, m.srcAddr, (count - 1) * (m.burstBytes + m.srcGapBytes) + m.burstBytes, false, pipe, instruction);
            access(m.dst, m.dstAddr, (count - 1) * (dstBurst + m.dstGapBytes) + dstBurst, true, pipe, instruction);
            break;
        }
        case Opcode::Img2Col: {
            const auto& l = std::get<Img2ColLoad>(instruction.operands);
            const std::uint64_t c0 = l.channelGroup ? l.channelGroup : l.channels;
            const std::uint64_t slab = (l.channels + c0 - 1) / c0 * c0 * l.inH * l.inW * bytesOf(l.dtype);
            access(MemSpace::L1, l.srcAddr, slab, false, pipe, instruction);
            access(l.dst, l.dstAddr, l.totalBytes(), true, pipe, instruction);
            break;
        }
        case Opcode::Mmad: {
            const auto& mm = std::get<Mmad>(instruction.operands);
            const std::uint64_t eb = bytesOf(mm.dtype);
            access(MemSpace::L0A, mm.l0aAddr, std::uint64_t{mm.m} * mm.k * eb, false, pipe, instruction);
            access(MemSpace::L0B, mm.l0bAddr, std::uint64_t{mm.k} * mm.n * eb, false, pipe, instruction);
            if (mm.initialize && mm.addBiasFromTable)
                access(MemSpace::BiasTable, mm.biasAddr, std::uint64_t{mm.n} * 4, false, pipe, instruction);
            if (!mm.initialize) access(MemSpace::L0C, mm.l0cAddr, std::uint64_t{mm.m} * mm.n * 4, false, pipe, instruction);
            access(MemSpace::L0C, mm.l0cAddr, std::uint64_t{mm.m} * mm.n * 4, true, pipe, instruction);
            break;
        }
        case Opcode::Vector:
            accessVector(std::get<VectorInstr>(instruction.operands), pipe, instruction);
            break;
        default:
            break;
    }
}

}  // namespace ascendsim

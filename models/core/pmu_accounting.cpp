#include "models/core/pmu_accounting.h"

#include <array>

#include "models/core/ub_bank_model.h"

namespace ascendsim {

namespace {

constexpr std::uint64_t kAccumulatorBytes = 4;
constexpr std::uint64_t kUbBlockBytes = 32;

// Bytes per count of each event, from the event list itself: addBytes runs for every data move's
// two sides, and the out-of-line pmuEventInfo() lookup cost the main job 0.6 % of its host
// instructions (docs/performance.md "Session 33").
constexpr std::array<std::uint32_t, kPmuEventCount> kBytesPerCount = {{
#define ASCENDSIM_PMU_BYTES(e, id, name, bytes, desc) bytes,
    ASCENDSIM_PMU_EVENTS(ASCENDSIM_PMU_BYTES)
#undef ASCENDSIM_PMU_BYTES
}};

bool isIntegerCube(DataType t) { return t == DataType::Int8 || t == DataType::Uint8; }

void countSide(MemSpace space, bool isWrite, bool vectorPipe, std::uint64_t bytes, PmuCounters& c) {
    switch (space) {
        case MemSpace::GM:
            c[isWrite ? PmuEvent::BytesMainMemWrite : PmuEvent::BytesMainMemRead] += bytes;
            break;
        case MemSpace::L1:
            addBytes(c, isWrite ? PmuEvent::L1Write : PmuEvent::L1Read, bytes);
            break;
        case MemSpace::L0A:
            addBytes(c, isWrite ? PmuEvent::L0aWrite : PmuEvent::L0aRead, bytes);
            break;
        case MemSpace::L0B:
            addBytes(c, isWrite ? PmuEvent::L0bWrite : PmuEvent::L0bRead, bytes);
            break;
        case MemSpace::L0C:
            addBytes(c, isWrite ? PmuEvent::L0cWrite : PmuEvent::L0cRead, bytes);
            break;
        case MemSpace::UB:
            addBytes(c, isWrite ? PmuEvent::UbWrite : PmuEvent::UbRead, bytes);
            if (vectorPipe)
                addBytes(c, isWrite ? PmuEvent::UbWriteVector : PmuEvent::UbReadVector, bytes);
            else
                addBytes(c, isWrite ? PmuEvent::UbWriteMte : PmuEvent::UbReadMte, bytes);
            break;
        default:
            break;
    }
}

}  // namespace

void addBytes(PmuCounters& counters, PmuEvent event, std::uint64_t bytes) {
    const std::uint64_t unit = kBytesPerCount[static_cast<std::size_t>(event)];
    counters[event] += unit <= 1 ? bytes : (bytes + unit - 1) / unit;
}

void countDataMove(const DataMove& m, bool vectorPipe, PmuCounters& c) {
    const std::uint64_t srcBytes = m.totalBytes();
    const std::uint64_t dstBytes =
        m.srcType == m.dstType ? srcBytes : srcBytes / bytesOf(m.srcType) * bytesOf(m.dstType);
    countSide(m.src, false, vectorPipe, srcBytes, c);
    countSide(m.dst, true, vectorPipe, dstBytes, c);
    using M = MemSpace;
    if (m.src == M::GM && m.dst == M::L1) c[PmuEvent::BytesGmToL1] += srcBytes;
    if (m.src == M::GM && (m.dst == M::L0A || m.dst == M::L0B)) c[PmuEvent::BytesGmToL0] += srcBytes;
    if (m.src == M::L1 && (m.dst == M::L0A || m.dst == M::L0B)) c[PmuEvent::BytesL1ToL0] += srcBytes;
    if (m.src == M::L0C && m.dst == M::L1) c[PmuEvent::BytesL0cToL1] += dstBytes;
    if (m.src == M::L0C && m.dst == M::GM) c[PmuEvent::BytesL0cToGm] += dstBytes;
    if (m.src == M::GM && m.dst == M::UB) c[PmuEvent::BytesGmToUb] += srcBytes;
    if (m.src == M::UB && m.dst == M::GM) c[PmuEvent::BytesUbToGm] += srcBytes;
}

void countScalarMemory(const ScalarWork& w, PmuCounters& c) {
    if (w.memory != MemSpace::UB) return;  // GM goes through the DCache, which is not modelled
    if (w.bytesRead != 0) {
        addBytes(c, PmuEvent::UbReadScalar, w.bytesRead);
        addBytes(c, PmuEvent::UbRead, w.bytesRead);
    }
    if (w.bytesWritten != 0) {
        addBytes(c, PmuEvent::UbWriteScalar, w.bytesWritten);
        addBytes(c, PmuEvent::UbWrite, w.bytesWritten);
    }
}

void countImg2Col(const Img2ColLoad& load, PmuCounters& c) {
    const std::uint64_t bytes = load.totalBytes();
    addBytes(c, PmuEvent::L1Read, bytes);
    addBytes(c, load.dst == MemSpace::L0B ? PmuEvent::L0bWrite : PmuEvent::L0aWrite, bytes);
    c[PmuEvent::BytesL1ToL0] += bytes;
}

void countMmad(const Mmad& mm, std::uint64_t cycles, std::uint64_t fractals, PmuCounters& c) {
    const std::uint64_t elem = bytesOf(mm.dtype);
    addBytes(c, PmuEvent::L0aRead, std::uint64_t{mm.m} * mm.k * elem);
    addBytes(c, PmuEvent::L0bRead, std::uint64_t{mm.k} * mm.n * elem);
    const std::uint64_t accumulatorBytes = std::uint64_t{mm.m} * mm.n * kAccumulatorBytes;
    if (!mm.initialize) addBytes(c, PmuEvent::L0cReadCube, accumulatorBytes);
    addBytes(c, PmuEvent::L0cWriteCube, accumulatorBytes);
    if (isIntegerCube(mm.dtype)) {
        c[PmuEvent::MacInt] += cycles;
        c[PmuEvent::MacInt8] += fractals;
    } else {
        c[PmuEvent::MacFp] += cycles;
        c[PmuEvent::MacFp16] += fractals;
    }
    c[PmuEvent::CubeFlops] += 2 * std::uint64_t{mm.m} * mm.k * mm.n;
}

void countVector(const VectorInstr& v, const UbAccessPattern& p, std::uint64_t computeCycles, PmuCounters& c) {
    for (std::size_t i = 0; i < p.operandCount; ++i) {
        const UbOperandPattern& o = p.operands[i];
        const std::uint64_t bytes = o.packsElements()
                                        ? std::uint64_t{p.beats} * o.beatStrideBytes
                                        : std::uint64_t{p.beats} * o.blocksPerBeat * kUbBlockBytes;
        addBytes(c, o.isWrite ? PmuEvent::UbWriteVector : PmuEvent::UbReadVector, bytes);
        addBytes(c, o.isWrite ? PmuEvent::UbWrite : PmuEvent::UbRead, bytes);
    }
    // Lane classes (hardware.md §2.6 [I]): fp16 classes that sustain one repeat per cycle run
    // at 128 lanes, slower fp16 classes at 64.
    const VectorClass cls = vectorClassOf(v.op);
    switch (v.dtype) {
        case DataType::Fp32:
        case DataType::Hf32:
            c[PmuEvent::VecFp32] += computeCycles;
            break;
        case DataType::Fp16:
        case DataType::Bf16:
            c[(cls == VectorClass::Unary || cls == VectorClass::Conversion) ? PmuEvent::VecFp16_128Lane
                                                                             : PmuEvent::VecFp16_64Lane] +=
                computeCycles;
            break;
        case DataType::Int32:
            c[PmuEvent::VecInt32] += computeCycles;
            break;
        default:
            c[PmuEvent::VecMisc] += computeCycles;
            break;
    }
    c[PmuEvent::VecExe] += 1;
    c[PmuEvent::VectorOps] += std::uint64_t{v.repeats} * v.mask;
}

}  // namespace ascendsim

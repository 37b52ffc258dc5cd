#include "models/functional/data_move_semantics.h"

#include <cstring>
#include <stdexcept>
#include <string>

#include "models/functional/float_conversion.h"

namespace ascendsim {

namespace {
constexpr const char* kWhat = "DataMove";

std::string pathName(const DataMove& move) {
    return ascendsim::pathName(move.src, move.dst);
}

// Byte extent touched by `count` bursts of `burstBytes` separated by `gapBytes`.
std::uint64_t extentBytes(std::uint32_t count, std::uint64_t burstBytes, std::uint64_t gapBytes) {
    if (count == 0) return 0;
    return (std::uint64_t{count} - 1) * (burstBytes + gapBytes) + burstBytes;
}
}  // namespace

namespace {
// The source (or, with indexDestination, destination) address of an indexed move (instruction.h):
// base + k × indexedRowBytes with k the int32/int64 read from UB at indexAddr.
DataMove resolveIndexedSource(const DataMove& move, CoreMemory& memory) {
    if (move.indexBytes != 4 && move.indexBytes != 8)
        throw std::runtime_error(std::string(kWhat) + ": index of " + std::to_string(move.indexBytes) +
                                 " bytes (need 4 or 8)");
    const std::uint8_t* raw = memory.span(MemSpace::UB, move.indexAddr, move.indexBytes, kWhat);
    std::int64_t index = 0;
    if (move.indexBytes == 4) {
        std::int32_t narrow = 0;
        std::memcpy(&narrow, raw, sizeof narrow);
        index = narrow;
    } else {
        std::memcpy(&index, raw, sizeof index);
    }
    if (index < 0 || (move.indexedRows != 0 && static_cast<std::uint64_t>(index) >= move.indexedRows))
        throw std::runtime_error(std::string(kWhat) + ": index " + std::to_string(index) + " outside [0, " +
                                 std::to_string(move.indexedRows) + ")");
    DataMove resolved = move;
    resolved.indexBytes = 0;
    std::uint64_t& base = move.indexDestination ? resolved.dstAddr : resolved.srcAddr;
    base += static_cast<std::uint64_t>(index) * move.indexedRowBytes;
    return resolved;
}
}  // namespace

void executeDataMove(const DataMove& move, CoreMemory& memory) {
    if (move.indexed()) {
        executeDataMove(resolveIndexedSource(move, memory), memory);
        return;
    }
    if (pipeForPath(move.src, move.dst) == Pipe::All)
        throw std::runtime_error(std::string(kWhat) + ": path " + pathName(move) +
                                 " does not exist");
    if (move.atomicAdd && move.dst != MemSpace::GM)
        throw std::runtime_error(std::string(kWhat) + " " + pathName(move) +
                                 ": atomicAdd needs a GM destination");
    memory.checkAligned(move.src, move.srcAddr, kWhat);
    memory.checkAligned(move.dst, move.dstAddr, kWhat);

    const bool converts = move.srcType != move.dstType;
    const std::size_t srcElementBytes = bytesOf(move.srcType);
    const std::size_t dstElementBytes = bytesOf(move.dstType);
    if (converts && move.burstBytes % srcElementBytes != 0)
        throw std::runtime_error(std::string(kWhat) + " " + pathName(move) + ": burst of " +
                                 std::to_string(move.burstBytes) + " bytes is not whole " +
                                 std::string(dataTypeName(move.srcType)) + " elements");
    const std::uint64_t elements = move.burstBytes / srcElementBytes;
    const std::uint64_t dstBurstBytes = converts ? elements * dstElementBytes : move.burstBytes;

    std::uint8_t* src = memory.span(move.src, move.srcAddr,
                                    extentBytes(move.burstCount, move.burstBytes, move.srcGapBytes), kWhat);
    std::uint8_t* dst = memory.span(move.dst, move.dstAddr,
                                    extentBytes(move.burstCount, dstBurstBytes, move.dstGapBytes), kWhat);
    const bool elementwise = converts || move.reluOnTheFly || move.atomicAdd;

    for (std::uint32_t burst = 0; burst < move.burstCount; ++burst) {
        const std::uint8_t* from = src + std::uint64_t{burst} * (move.burstBytes + move.srcGapBytes);
        std::uint8_t* to = dst + std::uint64_t{burst} * (dstBurstBytes + move.dstGapBytes);
        if (!elementwise) {
            std::memmove(to, from, move.burstBytes);
            continue;
        }
        for (std::uint64_t e = 0; e < elements; ++e) {
            double value = loadElement(from + e * srcElementBytes, move.srcType);
            if (move.reluOnTheFly && value < 0.0) value = 0.0;
            std::uint8_t* target = to + e * dstElementBytes;
            if (move.atomicAdd) value += loadElement(target, move.dstType);
            storeElement(target, move.dstType, value);
        }
    }
}

}  // namespace ascendsim

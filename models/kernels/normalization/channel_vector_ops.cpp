#include "models/kernels/normalization/channel_vector_ops.h"

#include <algorithm>

#include "models/kernels/tiling/vector_tiling.h"

namespace ascendsim {

namespace {
constexpr DataType kF32 = DataType::Fp32;
constexpr std::uint64_t kF32PerRepeat = kVectorRepeatBytes / 4;
constexpr std::uint16_t kRepeatBlocks = kVectorRepeatBytes / kUbBlockBytes;
}  // namespace

BankSlotAllocator::BankSlotAllocator(const ChipConfig& chip)
    : slices_(ubBankSlices(chip.ub)), sliceNext_(slices_.slices, 0) {
    slices_.halfGroupBytes = std::max<std::uint64_t>(slices_.halfGroupBytes, kUbBlockBytes);
}

std::uint64_t BankSlotAllocator::allocate(std::uint64_t bytes, std::uint32_t slot) {
    const std::uint32_t slice = slot / 2 % slices_.slices;
    const std::uint64_t target = slot % 2 * slices_.halfGroupBytes % slices_.groupRowBytes;
    std::uint64_t& next = sliceNext_[slice];
    const std::uint64_t offset = next + (target + slices_.groupRowBytes - next % slices_.groupRowBytes) % slices_.groupRowBytes;
    next = offset + alignUp(std::max<std::uint64_t>(bytes, 1), kUbBlockBytes);
    if (next > slices_.sliceBytes) overflowed_ = true;
    highestEnd_ = std::max(highestEnd_, slice * slices_.sliceBytes + next);
    return slice * slices_.sliceBytes + offset;
}

std::uint64_t BankSlotAllocator::slotStride(std::uint64_t bytes) const { return alignUp(bytes, slices_.groupRowBytes); }

void emitBroadcastOp(std::vector<Instruction>& out, VectorOp op, std::uint64_t dst, std::uint64_t src,
                     std::uint64_t broadcast, std::uint64_t count, std::uint64_t halfGroupBytes, bool valueFirst) {
    const std::uint64_t full = count / kF32PerRepeat, tail = count % kF32PerRepeat;
    // Half of `broadcast` whose bank groups differ from those of the repeat at `addr`.
    auto otherHalf = [&](std::uint64_t addr) {
        const bool sameHalf = (addr / halfGroupBytes) % 2 == (broadcast / halfGroupBytes) % 2;
        return broadcast + (sameHalf ? kVectorRepeatBytes : 0);
    };
    auto emit = [&](std::uint64_t first, std::uint64_t repeats, std::uint16_t repeatStride, std::uint16_t mask) {
        VectorInstr v{.op = op, .dtype = kF32, .srcType = kF32};
        v.repeats = static_cast<std::uint16_t>(repeats);
        v.mask = mask;
        v.dst = dst + first * kVectorRepeatBytes;
        const std::uint64_t streamed = src + first * kVectorRepeatBytes, value = otherHalf(streamed);
        v.src0 = valueFirst ? value : streamed;
        v.src1 = valueFirst ? streamed : value;
        v.dstRepeatStride = repeatStride;
        (valueFirst ? v.src1RepeatStride : v.src0RepeatStride) = repeatStride;
        (valueFirst ? v.src0RepeatStride : v.src1RepeatStride) = 0;
        out.push_back(Instruction::vector(v));
    };
    const std::uint64_t parities = full > 1 ? 2 : 1;
    for (std::uint64_t parity = 0; parity < parities; ++parity) {
        const std::uint64_t repeats = (full - parity + parities - 1) / parities;
        for (std::uint64_t done = 0; done < repeats; done += kMaxVectorRepeats)
            emit(parity + done * parities, std::min<std::uint64_t>(kMaxVectorRepeats, repeats - done),
                 static_cast<std::uint16_t>(kRepeatBlocks * parities), kF32PerRepeat);
    }
    if (tail) emit(full, 1, kRepeatBlocks, static_cast<std::uint16_t>(tail));
}

namespace {
constexpr std::uint64_t kWordsPerBlock = kUbBlockBytes / 4;
constexpr std::uint64_t kBroadcastEntries = kChannelBroadcastBytes / 4;
}  // namespace

std::uint64_t channelBroadcastTableBytes(std::uint64_t values) {
    return kWordsPerBlock * values * kChannelBroadcastBytes;
}

void emitChannelBroadcastTables(std::vector<Instruction>& out, std::uint64_t tables, std::uint64_t values,
                                std::uint64_t strideBytes) {
    // Table 0 by one Duplicate per value, tables 1..7 as table 0 plus the word's byte offset.
    for (std::uint64_t k = 0; k < values; ++k)
        emitVectorRange(out, VectorOp::Duplicate, DataType::Int32, {.dst = tables + k * kChannelBroadcastBytes},
                        kBroadcastEntries, static_cast<float>(k * strideBytes));
    for (std::uint64_t word = 1; word < kWordsPerBlock; ++word)
        emitVectorRange(out, VectorOp::Adds, DataType::Int32,
                        {.dst = tables + word * values * kChannelBroadcastBytes, .src0 = tables},
                        values * kBroadcastEntries, static_cast<float>(word * 4));
}

void emitChannelBroadcast(std::vector<Instruction>& out, std::uint64_t dst, std::uint64_t base, std::uint64_t channel,
                          std::uint64_t tables, std::uint64_t values) {
    const std::uint64_t word = channel % kWordsPerBlock;
    emitVectorRange(out, VectorOp::Gather, kF32,
                    {.dst = dst, .src0 = base + channel / kWordsPerBlock * kUbBlockBytes,
                     .src1 = tables + word * values * kChannelBroadcastBytes},
                    values * kBroadcastEntries);
}

void emitChannelOffsetTable(std::vector<Instruction>& out, std::uint64_t table, std::uint64_t ramp,
                            std::uint64_t scratch, std::uint64_t quotient, std::uint64_t count,
                            std::uint64_t planeElements) {
    // ramp = 0, 1, ..., count−1: the first block by shrinking masks, then by doubling.
    for (std::uint64_t j = kWordsPerBlock; j-- > 0;)
        emitVectorRange(out, VectorOp::Duplicate, kF32, {.dst = ramp}, j + 1, static_cast<float>(j));
    for (std::uint64_t filled = kWordsPerBlock; filled < count; filled *= 2)
        emitVectorRange(out, VectorOp::Adds, kF32, {.dst = ramp + filled * 4, .src0 = ramp},
                        std::min(filled, count - filled), static_cast<float>(filled));
    // floor(m / planeElements) as (m + 0.5) / planeElements truncated by a cast to int32.
    const auto plane = static_cast<float>(planeElements);
    emitVectorRange(out, VectorOp::Muls, kF32, {.dst = scratch, .src0 = ramp}, count, 1.0f / plane);
    emitVectorRange(out, VectorOp::Adds, kF32, {.dst = quotient, .src0 = scratch}, count, 0.5f / plane);
    emitVectorRange(out, VectorOp::Cast, DataType::Int32, {.dst = table, .src0 = quotient}, count, 0.0f, kF32);
    emitVectorRange(out, VectorOp::Cast, kF32, {.dst = scratch, .src0 = table}, count, 0.0f, DataType::Int32);
    emitVectorRange(out, VectorOp::Muls, kF32, {.dst = quotient, .src0 = scratch}, count, 4.0f);
    emitVectorRange(out, VectorOp::Cast, DataType::Int32, {.dst = table, .src0 = quotient}, count, 0.0f, kF32);
}

std::uint64_t sumFoldScratchBytes(std::uint64_t count) {
    return (ceilDiv(count / kF32PerRepeat, 2) + 2) * kVectorRepeatBytes;
}

std::uint64_t emitSumFold(std::vector<Instruction>& out, std::uint64_t src, std::uint64_t count, std::uint64_t a,
                          std::uint64_t b) {
    const std::uint64_t full = count / kF32PerRepeat, tail = count % kF32PerRepeat;
    if (full == 0) {
        emitVectorRange(out, VectorOp::Duplicate, kF32, {.dst = a}, kF32PerRepeat, 0.0f);
        emitVectorRange(out, VectorOp::Add, kF32, {.dst = a, .src0 = a, .src1 = src}, tail);
        return a;
    }
    // Each level adds neighbouring repeats (2r, 2r + 1), which sit in opposite bank-group halves,
    // into repeat r of the other scratch buffer; an odd last repeat is added into repeat 0.
    std::uint64_t n = full, from = src;
    while (n > 1) {
        const std::uint64_t to = from == a ? b : a, pairs = n / 2;
        for (std::uint64_t done = 0; done < pairs; done += kMaxVectorRepeats) {
            VectorInstr v{.op = VectorOp::Add, .dtype = kF32, .srcType = kF32};
            v.repeats = static_cast<std::uint16_t>(std::min<std::uint64_t>(kMaxVectorRepeats, pairs - done));
            v.mask = kF32PerRepeat;
            v.dst = to + done * kVectorRepeatBytes;
            v.src0 = from + 2 * done * kVectorRepeatBytes;
            v.src1 = v.src0 + kVectorRepeatBytes;
            v.src0RepeatStride = v.src1RepeatStride = 2 * kRepeatBlocks;
            out.push_back(Instruction::vector(v));
        }
        if (n % 2)
            emitVectorRange(out, VectorOp::Add, kF32, {.dst = to, .src0 = to, .src1 = from + (n - 1) * kVectorRepeatBytes},
                            kF32PerRepeat);
        n = pairs;
        from = to;
    }
    if (tail) {  // the partial last repeat folds into the first, never into `src` (its padding stays zero)
        if (from == src) {
            emitVectorRange(out, VectorOp::Copy, kF32, {.dst = a, .src0 = src}, kF32PerRepeat);
            from = a;
        }
        emitVectorRange(out, VectorOp::Add, kF32, {.dst = from, .src0 = from, .src1 = src + full * kVectorRepeatBytes},
                        tail);
    }
    return from;
}

}  // namespace ascendsim

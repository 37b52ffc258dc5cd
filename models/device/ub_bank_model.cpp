#include "models/device/ub_bank_model.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace ascendsim {

namespace {

constexpr std::uint32_t kBlockBytes = 32;       // one UB data block (hardware.md §2.6)
constexpr std::uint32_t kMaxBlocksPerRepeat = 8;  // 256 B per repeat
constexpr unsigned kCacheIndexBits = 6;  // 64 entries: kernels reuse a handful of patterns
constexpr std::size_t kCacheEntries = std::size_t{1} << kCacheIndexBits;
constexpr std::size_t kMaxGroups = 64;
constexpr std::size_t kMaxBanks = 256;

std::uint8_t activeBlocks(std::uint32_t mask, DataType type) {
    const std::uint64_t bytes = std::uint64_t{mask} * bytesOf(type);
    return static_cast<std::uint8_t>(
        std::min<std::uint64_t>(kMaxBlocksPerRepeat, (bytes + kBlockBytes - 1) / kBlockBytes));
}

UbOperandPattern blockOperand(std::uint64_t base, std::uint32_t repeatStride, std::uint32_t blockStride,
                              std::uint8_t blocks, bool isWrite) {
    return {base, repeatStride * kBlockBytes, blockStride * kBlockBytes, blocks, isWrite};
}

bool samePattern(const UbAccessPattern& a, const UbAccessPattern& b) {
    if (a.operandCount != b.operandCount || a.beats != b.beats) return false;
    for (std::size_t i = 0; i < a.operandCount; ++i) {
        const auto& x = a.operands[i];
        const auto& y = b.operands[i];
        if (x.baseBytes != y.baseBytes || x.beatStrideBytes != y.beatStrideBytes ||
            x.blockStrideBytes != y.blockStrideBytes || x.blocksPerBeat != y.blocksPerBeat ||
            x.isWrite != y.isWrite)
            return false;
    }
    return true;
}

std::size_t hashPattern(const UbAccessPattern& p) {
    std::uint64_t h = p.beats * 0x9E3779B97F4A7C15ull;
    for (std::size_t i = 0; i < p.operandCount; ++i) {
        const auto& o = p.operands[i];
        h ^= o.baseBytes + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
        h ^= (std::uint64_t{o.beatStrideBytes} << 20 | std::uint64_t{o.blockStrideBytes} << 4 |
              o.blocksPerBeat) + (h << 6) + (h >> 2);
    }
    return static_cast<std::size_t>((h * 0x9E3779B97F4A7C15ull) >> (64 - kCacheIndexBits));
}

}  // namespace

UbAccessPattern ubAccessPatternOf(const VectorInstr& v) {
    UbAccessPattern p;
    p.beats = v.repeats;
    const std::uint8_t dstBlocks = activeBlocks(v.mask, v.dtype);
    auto add = [&p](const UbOperandPattern& o) { p.operands[p.operandCount++] = o; };
    auto src0 = [&](DataType t) {
        add(blockOperand(v.src0, v.src0RepeatStride, v.src0BlockStride, activeBlocks(v.mask, t), false));
    };
    auto src1 = [&](DataType t) {
        add(blockOperand(v.src1, v.src1RepeatStride, v.src1BlockStride, activeBlocks(v.mask, t), false));
    };
    auto dst = [&](bool isWrite) {
        add(blockOperand(v.dst, v.dstRepeatStride, v.dstBlockStride, dstBlocks, isWrite));
    };
    switch (vectorClassOf(v.op)) {
        case VectorClass::Binary:
            src0(v.dtype);
            src1(v.dtype);
            dst(true);
            break;
        case VectorClass::FusedMultiplyAdd:  // dst = src0 * src1 + dst reads dst too
            src0(v.dtype);
            src1(v.dtype);
            dst(false);
            dst(true);
            break;
        case VectorClass::Reduction:  // one element per repeat, written contiguously
            src0(v.dtype);
            add({v.dst, static_cast<std::uint32_t>(bytesOf(v.dtype)), kBlockBytes, 1, true});
            break;
        case VectorClass::Gather:  // src1 holds 32-bit offsets; gathered reads are data-dependent
            src1(DataType::Int32);
            dst(true);
            break;
        case VectorClass::Conversion:
            src0(v.srcType);
            dst(true);
            break;
        default:
            if (v.op != VectorOp::Duplicate) src0(v.dtype);
            dst(true);
            break;
    }
    return p;
}

UbBankModel::UbBankModel(const UbBanking& banking)
    : groups_(banking.bankGroups),
      banksPerGroup_(banking.banksPerGroup),
      rowBytes_(banking.rowBytes),
      mappingPeriodBytes_(std::uint64_t{banking.bankGroups} * banking.banksPerGroup * banking.rowBytes),
      mappingPeriodRows_(banking.bankGroups * banking.banksPerGroup),
      cache_(kCacheEntries) {
    if (groups_ == 0 || banksPerGroup_ == 0 || rowBytes_ == 0 || groups_ > kMaxGroups ||
        std::uint64_t{groups_} * banksPerGroup_ > kMaxBanks)
        throw std::invalid_argument("UB banking must have 1..64 groups and at most 256 banks");
    bankOfRow_.resize(mappingPeriodRows_);
    groupOfRow_.resize(mappingPeriodRows_);
    for (std::uint32_t row = 0; row < mappingPeriodRows_; ++row) groupOfRow_[row] = static_cast<std::uint8_t>(row % groups_);
    for (std::uint32_t row = 0; row < mappingPeriodRows_; ++row)
        bankOfRow_[row] = static_cast<std::uint16_t>((row % groups_) * banksPerGroup_ + (row / groups_) % banksPerGroup_);
}

UbBankConflicts UbBankModel::beatConflicts(const UbAccessPattern& p, std::uint64_t beat) const {
    std::array<std::uint8_t, kMaxGroups> reads{};
    std::array<std::uint8_t, kMaxGroups> writes{};
    std::array<std::uint8_t, kMaxBanks> bankAccess{};  // bit 0: read, bit 1: written
    for (std::size_t i = 0; i < p.operandCount; ++i) {
        const UbOperandPattern& o = p.operands[i];
        // Walk the operand's blocks as rows modulo the mapping period (no division per block).
        std::uint32_t row = static_cast<std::uint32_t>(((o.baseBytes + beat * o.beatStrideBytes) / rowBytes_) %
                                                       mappingPeriodRows_);
        const std::uint32_t rowStep = static_cast<std::uint32_t>((o.blockStrideBytes / rowBytes_) % mappingPeriodRows_);
        const std::uint8_t accessBit = o.isWrite ? 2 : 1;
        for (std::uint32_t b = 0; b < o.blocksPerBeat; ++b) {
            const std::uint32_t bank = bankOfRow_[row];
            const std::uint32_t group = groupOfRow_[row];
            ++(o.isWrite ? writes : reads)[group];
            bankAccess[bank] |= accessBit;
            row += rowStep;
            if (row >= mappingPeriodRows_) row -= mappingPeriodRows_;
        }
    }
    std::uint32_t cyclesNeeded = 1;
    for (std::uint32_t g = 0; g < groups_; ++g)
        cyclesNeeded = std::max<std::uint32_t>(cyclesNeeded, std::max(reads[g], writes[g]));
    UbBankConflicts c;
    c.bankGroupStallCycles = cyclesNeeded - 1;
    for (std::uint32_t b = 0; b < mappingPeriodRows_; ++b) {
        if (bankAccess[b] == 3) {
            c.bankStallCycles = 1;
            break;
        }
    }
    return c;
}

// The bank of every access repeats when each operand's beat offset has advanced by a multiple of
// the mapping period, so only the first `period` beats need evaluating.
UbBankConflicts UbBankModel::conflicts(const UbAccessPattern& p) const {
    std::uint64_t period = 1;
    for (std::size_t i = 0; i < p.operandCount; ++i) {
        const std::uint64_t step = p.operands[i].beatStrideBytes % mappingPeriodBytes_;
        const std::uint64_t operandPeriod =
            step == 0 ? 1 : mappingPeriodBytes_ / std::gcd(step, mappingPeriodBytes_);
        period = std::lcm(period, operandPeriod);
        if (period >= p.beats) break;
    }
    const std::uint64_t evaluated = std::min<std::uint64_t>(period, p.beats);
    UbBankConflicts perPeriod;
    UbBankConflicts remainder;
    const std::uint64_t fullPeriods = p.beats / evaluated;
    const std::uint64_t leftover = p.beats % evaluated;
    for (std::uint64_t beat = 0; beat < evaluated; ++beat) {
        const UbBankConflicts c = beatConflicts(p, beat);
        perPeriod.bankGroupStallCycles += c.bankGroupStallCycles;
        perPeriod.bankStallCycles += c.bankStallCycles;
        if (beat < leftover) {
            remainder.bankGroupStallCycles += c.bankGroupStallCycles;
            remainder.bankStallCycles += c.bankStallCycles;
        }
    }
    return {perPeriod.bankGroupStallCycles * fullPeriods + remainder.bankGroupStallCycles,
            perPeriod.bankStallCycles * fullPeriods + remainder.bankStallCycles};
}

// Keyed on the exact addresses (kernels reuse their buffers), which avoids reducing them modulo
// the mapping period on every lookup.
UbBankConflicts UbBankModel::cachedConflicts(const UbAccessPattern& p) {
    CacheEntry& entry = cache_[hashPattern(p)];
    if (entry.valid && samePattern(entry.key, p)) return entry.value;
    entry.key = p;
    entry.value = conflicts(p);
    entry.valid = true;
    return entry.value;
}

}  // namespace ascendsim

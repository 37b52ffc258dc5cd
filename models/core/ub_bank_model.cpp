#include "models/core/ub_bank_model.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "models/core/ub_bank_slices.h"

namespace ascendsim {

namespace {

constexpr std::uint32_t kBlockBytes = 32;       // one UB data block (hardware.md §2.6)
constexpr std::uint32_t kMaxBlocksPerRepeat = 8;  // 256 B per repeat
constexpr std::size_t kMaxGroups = 64;
constexpr std::size_t kMaxBanks = 256;

std::uint8_t activeBlocks(std::uint32_t mask, DataType type) {
    const std::uint64_t bytes = std::uint64_t{mask} * bytesOf(type);
    return static_cast<std::uint8_t>(
        std::min<std::uint64_t>(kMaxBlocksPerRepeat, (bytes + kBlockBytes - 1) / kBlockBytes));
}

// A source read with block stride 0 (a broadcast operand: every block of the repeat uses the same
// 32 B block) is one block read per beat: the hardware reads it once and broadcasts it, so it
// neither occupies a bank group once per block nor counts as 8 blocks of UB traffic.
UbOperandPattern blockOperand(std::uint64_t base, std::uint32_t repeatStride, std::uint32_t blockStride,
                              std::uint8_t blocks, bool isWrite) {
    const bool broadcast = !isWrite && blockStride == 0;
    return {base, repeatStride * kBlockBytes, blockStride * kBlockBytes,
            broadcast ? std::min<std::uint8_t>(blocks, 1) : blocks, isWrite};
}

// The memo (see UbBankModel::cachedConflicts): a direct-mapped table of residue keys. Residues
// of up to 21 bits cover mapping periods below 2 MiB (910B: 192 KiB); larger geometries are not
// memoised.
constexpr unsigned kResidueBits = 21;
constexpr std::uint64_t kMaxMemoPeriodBytes = std::uint64_t{1} << kResidueBits;
constexpr std::uint8_t kMaxKeyBlocks = 127;  // 7 bits per operand in the shape word
constexpr unsigned kMemoIndexBits = 13;  // 8192 entries × 64 B: all patterns of a ResNet-50 step
constexpr std::size_t kMemoEntries = std::size_t{1} << kMemoIndexBits;

bool sameKey(const UbBankModel::MemoKey& a, const UbBankModel::MemoKey& b) {  // branch-free: keys mostly match
    std::uint64_t differ = 0;
    for (std::size_t i = 0; i < a.size(); ++i) differ |= a[i] ^ b[i];
    return differ == 0;
}

struct MemoEntry {
    UbBankModel::MemoKey key{};  // all zero = empty (a real key has a non-zero geometry word)
    UbBankConflicts value;
};

std::vector<MemoEntry>& sharedMemo() {
    // Pure function of its key, so sharing it between cores (and simulations) cannot change a
    // result; thread_local keeps concurrent simulations in different threads independent.
    thread_local std::vector<MemoEntry> memo(kMemoEntries);
    return memo;
}

std::uint64_t memoHash(const UbBankModel::MemoKey& k) {
    std::uint64_t h = 0;
    for (const std::uint64_t w : k) h = (h ^ w) * 0x9E3779B97F4A7C15ull + (h >> 29);
    return h * 0x9E3779B97F4A7C15ull;
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
    const auto packed = static_cast<std::uint32_t>(kMaxBlocksPerRepeat * bytesOf(v.dtype));  // 8 elements per beat
    if (isBlockReduction(v.op)) {  // 8 results per repeat, contiguous
        src0(v.dtype);
        add({v.dst, packed, kBlockBytes, 1, true});
        return p;
    }
    if (v.op == VectorOp::BlockBroadcast) {  // 8 contiguous sources in, 8 whole blocks out
        add({v.src0, packed, kBlockBytes, 1, false});
        add(blockOperand(v.dst, v.dstRepeatStride, v.dstBlockStride, kMaxBlocksPerRepeat, true));
        return p;
    }
    if (v.op == VectorOp::NchwConv) {  // 16 source and 16 destination blocks per repeat, two groups of 8 each
        const bool evenSource = v.src0HalfStride == 0 || v.src0HalfStride == 8u * v.src0BlockStride;
        const bool evenDestination = bytesOf(v.dtype) != 4 && (v.dstHalfStride == 0 || v.dstHalfStride == 8u * v.dstBlockStride);
        auto operand = [&](std::uint64_t base, bool destination, bool even) {
            const std::uint32_t stride = destination ? v.dstBlockStride : v.src0BlockStride;
            const std::uint32_t repeatStride = destination ? v.dstRepeatStride : v.src0RepeatStride;
            if (even) {
                add(blockOperand(base, repeatStride, stride, kNchwConvBlocks, destination));
                return;
            }
            const std::uint64_t second = destination ? nchwConvBlockOffset(v, true, 1, 0) : nchwConvBlockOffset(v, false, 8, 0);
            add(blockOperand(base, repeatStride, stride, kNchwConvBlocks / 2, destination));
            add(blockOperand(base + second * kBlockBytes, repeatStride, stride, kNchwConvBlocks / 2, destination));
        };
        operand(v.src0, false, evenSource);
        operand(v.dst, true, evenDestination);
        return p;
    }
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
      mappingPeriodBytes_(std::uint64_t{banking.bankGroups} * banking.banksPerGroup * banking.bankBytes),
      mappingPeriodRows_(static_cast<std::uint32_t>(mappingPeriodBytes_ / std::max<std::uint32_t>(banking.rowBytes, 1))),
      geometryKey_(std::uint64_t{banking.bankGroups} | std::uint64_t{banking.banksPerGroup} << 8 |
                   std::uint64_t{banking.rowBytes} << 24 | std::uint64_t{banking.bankBytes} << 40) {
    if (groups_ == 0 || banksPerGroup_ == 0 || rowBytes_ == 0 || groups_ > kMaxGroups ||
        std::uint64_t{groups_} * banksPerGroup_ > kMaxBanks)
        throw std::invalid_argument("UB banking must have 1..64 groups and at most 256 banks");
    if (banking.bankBytes < rowBytes_ || banking.bankBytes % rowBytes_ != 0)
        throw std::invalid_argument("UB bank size must be a whole number of rows");
    // Rows run across the groups first, then down each bank, then on to the group's next bank:
    // bank k of every group holds the k-th slice of UB (ub_bank_slices.h).
    const auto rowsPerSlice = static_cast<std::uint32_t>(ubBankSlices(banking).sliceBytes / rowBytes_);
    bankOfRow_.resize(mappingPeriodRows_);
    groupOfRow_.resize(mappingPeriodRows_);
    for (std::uint32_t row = 0; row < mappingPeriodRows_; ++row) {
        groupOfRow_[row] = static_cast<std::uint8_t>(row % groups_);
        bankOfRow_[row] = static_cast<std::uint16_t>((row / rowsPerSlice) * groups_ + row % groups_);
    }
}

UbBankConflicts UbBankModel::beatConflicts(const UbAccessPattern& p, std::uint64_t beat) const {
    constexpr std::size_t kBankWords = kMaxBanks / 64;
    std::array<std::uint8_t, kMaxGroups> reads;
    std::array<std::uint8_t, kMaxGroups> writes;
    std::fill_n(reads.begin(), groups_, std::uint8_t{0});
    std::fill_n(writes.begin(), groups_, std::uint8_t{0});
    std::array<std::uint64_t, kBankWords> banksRead{};
    std::array<std::uint64_t, kBankWords> banksWritten{};
    for (std::size_t i = 0; i < p.operandCount; ++i) {
        const UbOperandPattern& o = p.operands[i];
        // Walk the operand's blocks as rows modulo the mapping period (no division per block).
        std::uint32_t row = static_cast<std::uint32_t>(((o.baseBytes + beat * o.beatStrideBytes) / rowBytes_) %
                                                       mappingPeriodRows_);
        const std::uint32_t rowStep = static_cast<std::uint32_t>((o.blockStrideBytes / rowBytes_) % mappingPeriodRows_);
        std::uint8_t* perGroup = o.isWrite ? writes.data() : reads.data();
        std::uint64_t* banks = o.isWrite ? banksWritten.data() : banksRead.data();
        for (std::uint32_t b = 0; b < o.blocksPerBeat; ++b) {
            const std::uint32_t bank = bankOfRow_[row];
            ++perGroup[groupOfRow_[row]];
            banks[bank / 64] |= std::uint64_t{1} << (bank % 64);
            row += rowStep;
            if (row >= mappingPeriodRows_) row -= mappingPeriodRows_;
        }
    }
    std::uint32_t cyclesNeeded = 1;
    for (std::uint32_t g = 0; g < groups_; ++g)
        cyclesNeeded = std::max<std::uint32_t>(cyclesNeeded, std::max(reads[g], writes[g]));
    UbBankConflicts c;
    c.bankGroupStallCycles = cyclesNeeded - 1;
    for (std::size_t w = 0; w < kBankWords; ++w) {
        if ((banksRead[w] & banksWritten[w]) != 0) {
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

// x mod the mapping period, avoiding a 64-bit division for the common small values.
std::uint64_t UbBankModel::residue(std::uint64_t x) const {
    if (x < mappingPeriodBytes_) return x;
    if (x <= UINT32_MAX) return static_cast<std::uint32_t>(x) % static_cast<std::uint32_t>(mappingPeriodBytes_);
    return x % mappingPeriodBytes_;
}

UbBankConflicts UbBankModel::cachedConflicts(const UbAccessPattern& p) {
    if (mappingPeriodBytes_ >= kMaxMemoPeriodBytes) return conflicts(p);
    MemoKey key{};
    std::uint64_t shape = std::uint64_t{p.beats} | std::uint64_t{p.operandCount} << 16;
    for (std::size_t i = 0; i < p.operandCount; ++i) {
        const UbOperandPattern& o = p.operands[i];
        if (o.blocksPerBeat > kMaxKeyBlocks) return conflicts(p);  // not from ubAccessPatternOf
        key[i] = residue(o.baseBytes) | residue(o.beatStrideBytes) << kResidueBits |
                 residue(o.blockStrideBytes) << (2 * kResidueBits);
        shape |= std::uint64_t{o.blocksPerBeat} << (24 + 8 * i) | std::uint64_t{o.isWrite} << (31 + 8 * i);
    }
    key[4] = shape;
    key[5] = geometryKey_;
    const std::uint64_t hash = memoHash(key);
    RecentEntry& recent = recent_[(hash >> 32) % kRecentEntries];
    if (sameKey(recent.key, key)) return recent.value;
    MemoEntry& entry = sharedMemo()[static_cast<std::size_t>(hash >> (64 - kMemoIndexBits))];
    if (!sameKey(entry.key, key)) {
        entry.key = key;
        entry.value = conflicts(p);
    }
    recent.key = key;
    recent.value = entry.value;
    return entry.value;
}

}  // namespace ascendsim

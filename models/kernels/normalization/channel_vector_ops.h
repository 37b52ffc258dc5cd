#pragma once
// Vector idioms of per-channel kernels (batch norm) whose tiles hold one channel's data:
// - UB placement by bank slot, so that the operands of one instruction fall in different bank
//   groups or banks (ub_bank_model.h: consecutive 32 B blocks interleave over the bank groups
//   first; a group serves one read and one write per cycle, a bank is not read and written in
//   one beat);
// - a tile op with one channel value broadcast over it, read as a whole 256 B repeat (block
//   stride 1) rather than one 32 B block eight times;
// - a sum fold of a tile down to one repeat with binary adds (2 cycles per repeat) instead of
//   per-repeat reductions (7 cycles per repeat).
#include <cstdint>
#include <string>
#include <vector>

#include "models/chip/chip_config.h"
#include "models/isa/instruction.h"

namespace ascendsim {

// Bump allocator whose buffers start at a chosen bank slot: slot s means an address ≡ s·H modulo
// the bank mapping period, H = half the bank groups' width (256 B on 220x and 310P). Even and
// odd slots are in opposite halves of the bank groups; slots of equal parity are in the same
// groups but different banks.
class BankSlotAllocator {
public:
    BankSlotAllocator(const ChipConfig& chip, std::uint64_t capacityBytes, std::string opName);
    std::uint64_t allocate(std::uint64_t bytes, std::uint32_t slot, const char* purpose);
    std::uint64_t usedBytes() const { return next_; }
    // Bytes that keep a buffer's repeated halves on the same slot (a multiple of the period).
    std::uint64_t slotStride(std::uint64_t bytes) const;
    std::uint64_t periodBytes() const { return period_; }
    std::uint64_t halfGroupBytes() const { return halfGroups_; }

private:
    std::uint64_t capacity_, period_, halfGroups_;
    std::string opName_;
    std::uint64_t next_ = 0;
};

// Bytes of a channel-value broadcast buffer: the value in two whole fp32 repeats.
inline constexpr std::uint64_t kChannelBroadcastBytes = 512;

// dst = op(src, value) over `count` fp32 elements, where `broadcast` holds one value in
// kChannelBroadcastBytes (repeat stride 0, block stride 1). Even and odd repeats are separate
// instructions (repeat stride two repeats) that read the broadcast half lying in the other bank
// groups than `src`, so the broadcast never competes with the streamed operand for a group.
// `valueFirst` puts the broadcast in src0 (for Sub: value − src).
void emitBroadcastOp(std::vector<Instruction>& out, VectorOp op, std::uint64_t dst, std::uint64_t src,
                     std::uint64_t broadcast, std::uint64_t count, std::uint64_t halfGroupBytes,
                     bool valueFirst = false);

// Gather offset tables that copy channel j's `values` per-channel values (value k of channel j at
// base + k·strideBytes + 4·j, base 32 B aligned) into `values` consecutive broadcast buffers.
// Gather reads from a block-aligned base, so there is one table per word of a block.
std::uint64_t channelBroadcastTableBytes(std::uint64_t values);
void emitChannelBroadcastTables(std::vector<Instruction>& out, std::uint64_t tables, std::uint64_t values,
                                std::uint64_t strideBytes);
void emitChannelBroadcast(std::vector<Instruction>& out, std::uint64_t dst, std::uint64_t base, std::uint64_t channel,
                          std::uint64_t tables, std::uint64_t values);

// Writes `count` int32 entries at `table`: entry m is 4·floor(m / planeElements), the byte offset
// of the fp32 value of the channel whose plane holds element m, so that a Gather through it
// expands per-channel values to [channels × H·W]. `ramp`, `scratch` and `quotient` are fp32
// buffers of `count` elements (clobbered); every step reads one buffer and writes another, so on
// four different bank slots no step reads and writes one bank. Exact while count < 2^24.
void emitChannelOffsetTable(std::vector<Instruction>& out, std::uint64_t table, std::uint64_t ramp,
                            std::uint64_t scratch, std::uint64_t quotient, std::uint64_t count,
                            std::uint64_t planeElements);

// Sums `count` fp32 elements at `src` (left unchanged) into one repeat of 64 partial sums, adding
// neighbouring repeats (opposite bank-group halves) level by level between the scratch buffers `a`
// and `b` (sumFoldScratchBytes each). Returns the address of the 64 partials (`src` itself when
// count is one full repeat).
std::uint64_t emitSumFold(std::vector<Instruction>& out, std::uint64_t src, std::uint64_t count, std::uint64_t a,
                          std::uint64_t b);
std::uint64_t sumFoldScratchBytes(std::uint64_t count);

}  // namespace ascendsim

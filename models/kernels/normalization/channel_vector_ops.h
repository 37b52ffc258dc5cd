#pragma once
// Vector idioms of per-channel kernels (batch norm) whose tiles hold one channel's data:
// - UB placement by bank slot, so that the operands of one instruction fall in different bank
//   groups or banks (ub_bank_slices.h: consecutive 32 B blocks run across the bank groups first,
//   bank k of every group is the k-th 64 KiB slice; a group serves one read and one write per
//   cycle, a bank is not read and written in one beat);
// - a tile op with one channel value broadcast over it, read as a whole 256 B repeat (block
//   stride 1) rather than one 32 B block eight times;
// - a sum fold of a tile down to one repeat with binary adds (2 cycles per repeat) instead of
//   per-repeat reductions (7 cycles per repeat).
#include <cstdint>
#include <string>
#include <vector>

#include "models/chip/chip_config.h"
#include "models/core/ub_bank_slices.h"
#include "models/isa/instruction.h"

namespace ascendsim {

// Allocator whose buffers start at a chosen bank slot: slot s is bank (s / 2) % banks — the
// buffer lies inside that bank's UB slice — and group half s % 2 — it starts s % 2 · H into a row
// of the groups, H = half the groups' width (256 B on 220x and 310P). Even and odd slots are in
// opposite halves of the bank groups; slots of equal parity are in the same groups but different
// banks (different slices) unless they are 2 · banks apart. Each slice fills from its start.
class BankSlotAllocator {
public:
    explicit BankSlotAllocator(const ChipConfig& chip);
    // The buffer's address; a buffer that leaves its slice makes the layout not fit.
    std::uint64_t allocate(std::uint64_t bytes, std::uint32_t slot);
    // Whether every buffer stayed inside its bank's slice and below `ubBytes`.
    bool fits(std::uint64_t ubBytes) const { return !overflowed_ && highestEnd_ <= ubBytes; }
    // Bytes that keep a buffer's repeated halves on the same slot (whole rows of the groups).
    std::uint64_t slotStride(std::uint64_t bytes) const;
    std::uint64_t halfGroupBytes() const { return slices_.halfGroupBytes; }

private:
    UbBankSlices slices_;
    std::vector<std::uint64_t> sliceNext_;  // next free offset inside each slice
    std::uint64_t highestEnd_ = 0;
    bool overflowed_ = false;
};

// The slot of a load stage whose tile is cast to fp32 on `f32Slot`: the next bank, same group
// half, so the cast never reads and writes one bank in a beat (its source advances half as fast
// as its destination). An fp32 tile is used where it was loaded: its stage is `f32Slot` itself.
inline std::uint32_t castStageSlot(std::uint32_t f32Slot, bool castToF32) { return castToF32 ? f32Slot + 2 : f32Slot; }

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

#pragma once
// Elementwise ops on int64 (and casts to/from it), as CANN runs them on a vector unit that has no
// 64-bit lanes (hardware.md §2.6: vadd/vcmp/vsel take b16/b32 operands). An int64 element is two
// int32 words in UB; the kernel works on those words:
// - Add / Sub: one vadd/vsub over both words, a compare of the low word against its operand for
//   the carry (borrow), a select, and one more vadd/vsub to carry into the high word;
// - compares: the high words compared both ways, the low words compared, selects combining them,
//   a vreduce (Gather) picking one lane per pair and the vconv chain int32 → fp16 → uint8 to bool;
// - Cast int64 → int32: the vreduce of the low words; int32/bool → int64: the vconvs to int32, a
//   compare for the sign word and a gather interleaving the two words;
// - Mul: no vector form — the scalar unit multiplies each element from UB (12 scalar cycles per
//   element: 4 word loads, 3 multiplies, 2 adds, 2 stores and the loop, assumed at 1 cycle each).
// Each step reads the previous one's words, so a PipeBarrier<PIPE_V> separates them: every step
// pays the vector pipe's result latency (VectorTiming::resultLatencyCycles, docs/fidelity.md §40).
// Inputs are dense or one value for the whole op (a host scalar, broadcast from one 32 B block).
#include <cstdint>
#include <vector>

#include "models/kernels/kernel_registry.h"

namespace ascendsim {

// Bytes of code a block of CANN's int64 broadcast-pattern binaries runs through on split chips
// (dynamicBinaryCodeBytes, KernelTask::codeBytes, models/core/icache_model.h; docs/fidelity.md §176). The dynamic op impls
// (CANN 8.1 opp/.../impl/dynamic/add.py, sub.py, mul.py, equal.py, broadcast_to.py) classify their
// inputs with OpPatternMode.ELEWISE_WITH_BROADCAST and build one schedule per classified case
// into the one binary (`tbe.build(schedules, …)`), and an int64 case lowers b64 work (equal.py's
// `tbe.vcmp` on int64, the word-level steps above) into several dependent vector steps where an
// fp32 one has one: a block runs through more fill units than the elementwise binaries' 10 KiB
// image (icache.kernel_code_bytes). Cast's binaries (one per dtype pair, OpPatternMode.ELEWISE: one
// case) keep the chip's image. [D] Qwen3 rank 0 (fitted; ef63bc64 st/level2 rank_0, 1650 MHz): the
// one-block int64 Sub [] launches ICache-cold (miss rate 0.21, n 34) against warm (0.000, n 23),
// 3.00 against 1.70 µs: 2145 cycles of code fetch, where the fp32 one-block binaries' cold launches
// cost 213-844 (§84a) and the model's 10 KiB image 5 fills × 70 (icache.fill_latency_cycles) = 350.
// The warm launches alternate with one-block ApplyAdamWV2 launches (kernel_details rows 2250-2267)
// and still miss nothing, so the image leaves that binary's 10 KiB of the 32 KiB ICache
// (icache.size_bytes): at most 22 KiB, 11 fills, 770 cycles cold (the chip's 1023-2145 are more).
// Held out: Qwen3 rank 2 (2.58 against 1.96 µs), the AlexNet exports' BroadcastTo / Equal int64 rows.
inline constexpr std::uint32_t kInt64BroadcastBinaryCodeBytes = 22528;

// True when `op` is one of the above with an int64 operand, i.e. lowerInt64Elementwise applies.
bool isInt64Elementwise(const OpInstance& op);

std::vector<LoweredKernel> lowerInt64Elementwise(const OpInstance& op, const ChipConfig& chip);

}  // namespace ascendsim

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
#include <vector>

#include "models/kernels/kernel_registry.h"

namespace ascendsim {

// True when `op` is one of the above with an int64 operand, i.e. lowerInt64Elementwise applies.
bool isInt64Elementwise(const OpInstance& op);

std::vector<LoweredKernel> lowerInt64Elementwise(const OpInstance& op, const ChipConfig& chip);

}  // namespace ascendsim

#pragma once
// The arithmetic of one vector instruction on a UB byte array (hardware.md §2.6 semantics:
// repeats × up to 256 bytes, block and repeat strides in 32 B blocks, contiguous mask).
//
// Contract details (the functional model's reading of VectorInstr):
// - Element i of repeat r of an operand with element size s lives at
//   base + r·repeatStride·32 + (i / (32/s))·blockStride·32 + (i % (32/s))·s.
// - Elements per repeat = 256 / s of the widest operand (Cast: max of dtype and srcType;
//   Gather's offsets are uint32 but its repeat size follows dtype). `mask` ≤ that, else
//   std::invalid_argument; elements at or beyond `mask` are untouched.
// - Arithmetic is done in double and rounded once to `dtype` (round to nearest even for floats,
//   truncation toward zero with saturation for integer types). And/Or work on the raw bits.
// - *s ops use `scalar` as the second operand; Duplicate writes `scalar`; LeakyRelu multiplies
//   negative inputs by `scalar`. MulAdd: dst = src0·src1 + dst.
// - ReduceSum/Max/Min write one element per repeat, contiguously from dst (dst strides unused).
// - Gather: dst[i] = element of `dtype` at byte address src0 + offset[i], offsets read as
//   uint32 from src1 with src1's strides.
// - Sort: each repeat's `mask` elements are sorted in descending order (NaN first) and written
//   back with dst's layout (a value-only model of vmrgsort/Sort32).
// - CompareGt: dst = (src0 > src1) ? 1 : 0. Select: dst = (dst != 0) ? src0 : src1, i.e. the
//   selector is the destination's previous content (as written by CompareGt).
// - Transcendentals (Div, Exp, Ln, Sqrt, Rsqrt, Reciprocal) need a float dtype, else
//   std::invalid_argument.
#include <cstdint>
#include <vector>

#include "models/isa/instruction.h"

namespace ascendsim {

// Executes `instr` on `ub`. Throws std::out_of_range if any access leaves `ub`.
void executeVectorInstruction(const VectorInstr& instr, std::vector<std::uint8_t>& ub);

}  // namespace ascendsim

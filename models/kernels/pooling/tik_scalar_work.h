#pragma once
// The scalar work of CANN's dynamic TIK pooling kernels (max_pool_with_argmaxv2.py,
// max_pool_grad_with_argmaxv2.py, CANN 8.1): every instruction's offsets, repeat and tail counts are
// computed from run-time Scalars (and tested in if_scopes) on the scalar unit before it issues.
#include <cstdint>
#include <vector>

#include "models/isa/instruction.h"

namespace ascendsim {

// Scalar cycles per vector-pipe instruction [D]: the 910A rows' scalar busy over the instructions the
// kernels issue — MaxPoolWithArgmaxV1 55×55 / 27×27 / 13×13 (c1e639ee level1 rank0) 2.8 / 3.5 / 3.1
// cycles (docs/fidelity.md §96a); rank 1 and the DB export held out.
inline constexpr std::uint32_t kTikScalarCyclesPerInstruction = 3;

// Puts kTikScalarCyclesPerInstruction of scalar work in front of every vector-pipe instruction of
// `code` (vector ops and UB → UB moves), after any barrier that precedes it.
void addTikScalarWork(std::vector<Instruction>& code);

}  // namespace ascendsim

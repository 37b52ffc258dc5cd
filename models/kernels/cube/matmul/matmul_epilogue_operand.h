#pragma once
// The operand of an elementwise op TBE fuses after a MatMul / BatchMatMul (matmul_epilogue_operand.cpp).
#include "models/kernels/cube/matmul/matmul_operands.h"

namespace ascendsim {

// The op attribute the replay sets when a MatMul's third input is the operand of an elementwise
// op fused after it (not a bias).
inline constexpr const char* kFusedElementwiseInputAttr = "fused_elementwise_input";
bool hasFusedElementwiseInput(const OpInstance& op);
// Reads that input (op.inputs[2]) into `p`; throws LoweringError unless it is one [M, N] matrix
// or one per batch, of C's dtype.
void setEpilogueOperand(const OpInstance& op, const TensorInfo& operand, MatmulProblem& p);

}  // namespace ascendsim

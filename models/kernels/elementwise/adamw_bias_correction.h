#pragma once
// What every block of CANN's ApplyAdamWV2 kernel does before its tiles (Ascend C, ops-nn
// optim/apply_adam_w_v2, apply_adam_w_v2_fp.h Init; docs/fidelity.md §121): the attributes (lr,
// betas, epsilon, weight decay) arrive in the tiling data, `step` is read from GM by the scalar
// unit (GlobalTensor::GetValue), and the two bias corrections 1 − β1^step, 1 − β2^step are
// computed on the vector unit, one ScalarPow each: Duplicate the base into 8 floats, Ascend C's
// float Power over them (CommonPowerF: 40 one-repeat steps, nearly all fenced by
// PipeBarrier<PIPE_V>), a V → S flag, the scalar unit's read of the result and a PIPE_ALL barrier.
// Then the scalar unit derives the step size and the other per-launch factors.
#include <vector>

#include "models/chip/chip_config.h"
#include "models/isa/instruction.h"

namespace ascendsim {

// The prologue above as one block's instructions, in UB from byte 0 (done before the block's tiles
// use UB: its PIPE_ALL barriers drain every pipe).
std::vector<Instruction> adamWBiasCorrectionPrologue(const ChipConfig& chip);

}  // namespace ascendsim

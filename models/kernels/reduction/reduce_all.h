#pragma once
// A reduction of every element of a tensor to one value, as CANN's MIX_AIV kernels on the 220x
// run it (reduce_all.cpp): blocks reduce contiguous chunks to partials in the launch workspace,
// meet at an all-AIV barrier (SyncAll), and block 0 combines the partials.
#include "models/kernels/kernel_registry.h"

namespace ascendsim {

struct WholeReduction {
    bool squares = false;     // add x·x (the 2-norm) instead of x
    bool squareRoot = false;  // y = sqrt(Σ)
    float scale = 1.0f;       // y = scale · Σ (a mean: 1/N)
};

// op.inputs[0] (float, any shape) to op.outputs[0] (one element).
LoweredKernel lowerWholeReduction(const OpInstance& op, const ChipConfig& chip, const WholeReduction& what);

}  // namespace ascendsim

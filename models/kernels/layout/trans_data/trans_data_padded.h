#pragma once
// TransData into and out of the cube's fractal layouts when the logical tensor does not fill
// whole fractals (trans_data_padded.cpp):
// - FRACTAL_Z of a convolution weight [Co, C, kh, kw] with C not a multiple of C0 (the stem's
//   C = 3) or Co not a multiple of 16;
// - FRACTAL_NZ of an ND [.., M, N] with N not a multiple of 16 (a fully connected layer of 1000
//   classes, the 6×6 planes of a flattened feature map).
#include "models/kernels/kernel_registry.h"

namespace ascendsim {

// op.inputs[0] → op.outputs[0] as recorded (FRACTAL_Z ↔ NCHW, or FRACTAL_NZ ↔ ND); LoweringError
// when the shapes are not such a pair.
std::vector<LoweredKernel> lowerPaddedFractalZ(const OpInstance& op, const ChipConfig& chip);
std::vector<LoweredKernel> lowerPaddedFractalNz(const OpInstance& op, const ChipConfig& chip);

}  // namespace ascendsim

#pragma once
// TransData between a convolution weight's NCHW [Co, C, kh, kw] and FRACTAL_Z
// [C1·kh·kw, Co/16, 16, C0] (the cube's weight layout: element (co, c, h, w) at
// [c1·kh·kw + h·kw + w][co / 16][co % 16][c % C0]), both ways (trans_data_fractal_z.cpp).
#include "models/kernels/kernel_registry.h"

namespace ascendsim {

// The two sides of a FRACTAL_Z conversion: which way it runs, the plain (NCHW) tensor and the
// FRACTAL_Z one (both lowerings, this file's and trans_data_fractal_z_loop.h's, read them so).
struct FractalZSides {
    bool toFractalZ;
    const TensorInfo& plain;
    const TensorInfo& fz;
};
inline FractalZSides fractalZSides(const OpInstance& op) {
    const TensorInfo& x = op.inputs[0];
    const TensorInfo& y = op.outputs[0];
    const bool toFractalZ = x.format != TensorFormat::FractalZ;
    return {toFractalZ, toFractalZ ? x : y, toFractalZ ? y : x};
}

// Lowers op (x → y, one of them FRACTAL_Z as recorded, the other NCHW); a C that is not a
// multiple of C0 or a Co not of 16 runs as the padded conversion (trans_data_padded.h).
std::vector<LoweredKernel> lowerFractalZTransData(const OpInstance& op, const ChipConfig& chip);

}  // namespace ascendsim

// NCHW ↔ FRACTAL_Z of a convolution weight as one permutation of a reshaped view, run by the
// Transpose kernel (transpose.h), as TransData's other conversions are: with K = kh·kw,
//   NCHW [Co, C, K] viewed as [Co/16, 16, C1, C0, K] → FRACTAL_Z [C1, K, Co/16, 16, C0]: perm {2, 4, 0, 1, 3};
//   and back: FRACTAL_Z viewed as [C1, K, Co/16, 16, C0] → [Co/16, 16, C1, C0, K]: perm {2, 3, 0, 4, 1}.
// C0 is the FRACTAL_Z tensor's last dim as recorded (8 fp32 on the 910B2, 16 on the 910A).
#include "models/kernels/layout/trans_data/trans_data_fractal_z.h"

#include "models/kernels/layout/trans_data/trans_data_fractal_z_loop.h"
#include "models/kernels/layout/trans_data/trans_data_padded.h"
#include "models/kernels/layout/transpose/transpose.h"
#include "models/kernels/tiling/vector_tiling.h"

namespace ascendsim {

namespace {

constexpr std::int64_t kFractalEdge = 16;  // hardware.md §2.3: 16×16 fractals

}  // namespace

std::vector<LoweredKernel> lowerFractalZTransData(const OpInstance& op, const ChipConfig& chip) {
    const FractalZSides sides = fractalZSides(op);
    const bool toFractalZ = sides.toFractalZ;
    const TensorInfo& nchw = sides.plain;
    const TensorInfo& fz = sides.fz;
    if (nchw.shape.size() != 4 || fz.shape.size() != 4)
        throwLoweringError(op, "FRACTAL_Z conversion needs a [Co, C, kh, kw] weight and a 4-D FRACTAL_Z tensor");
    const std::int64_t co = nchw.shape[0], c = nchw.shape[1], k = nchw.shape[2] * nchw.shape[3];
    const std::int64_t c0 = fz.shape[3];
    if (c0 <= 0 || fz.shape[2] != kFractalEdge || fz.shape[0] % k != 0)
        throwLoweringError(op, "FRACTAL_Z shape does not match the [Co, C, kh, kw] weight");
    // 32-bit weights with a 32 B C0 (the 910B) or 64 B (the 910A): CANN's vnchwconv loop
    // (trans_data_fractal_z_loop.h).
    if (fractalZLoopApplies(op, co, c0)) return lowerFractalZLoop(op, chip);
    // A C or Co that does not fill its fractals: the padded conversion (trans_data_padded.h).
    if (c % c0 != 0 || co % kFractalEdge != 0) return lowerPaddedFractalZ(op, chip);
    if (fz.shape[0] != c / c0 * k || fz.shape[1] != co / kFractalEdge)
        throwLoweringError(op, "FRACTAL_Z shape does not hold the weight's C1·kh·kw × Co/16 fractals");
    const std::int64_t c1 = c / c0, co1 = co / kFractalEdge;
    if (toFractalZ) return lowerPermutation(op, chip, {co1, kFractalEdge, c1, c0, k}, {2, 4, 0, 1, 3});
    return lowerPermutation(op, chip, {c1, k, co1, kFractalEdge, c0}, {2, 3, 0, 4, 1});
}

}  // namespace ascendsim

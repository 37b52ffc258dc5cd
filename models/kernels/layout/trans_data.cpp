// TransData (docs/op-catalog.md): a layout change that is a permutation of a reshaped view, run by
// the Transpose kernel. Modelled conversions (C0 = 32 B of elements, the fractal edge 16):
//   NCHW → NC1HWC0: [N, C1, C0, H·W] → [N, C1, H·W, C0]; NC1HWC0 → NCHW the inverse;
//   ND [.., M, N] → FRACTAL_NZ [.., N/16, M, 16]: [.., M, N1, 16] → [.., N1, M, 16]; and back.
// NCHW → NC1HWC0 pads C to C1·C0 with zero channels; other shapes that would need padding
// (NC1HWC0 → NCHW of a padded C, M % 16 or N % 16 not 0) are a LoweringError.
#include "models/kernels/layout/trans_data_fractal_z.h"
#include "models/kernels/layout/transpose.h"
#include "models/kernels/tiling/vector_tiling.h"

namespace ascendsim {

namespace {

constexpr std::int64_t kFractalEdge = 16;  // hardware.md §2.3: 16×16 fractals

std::vector<LoweredKernel> lowerTransData(const OpInstance& op, const ChipConfig& chip) {
    if (op.inputs.empty() || op.outputs.empty()) throwLoweringError(op, "needs x and y");
    const TensorInfo& x = op.inputs[0];
    const std::string target = op.stringAttr("dst_format", "");
    TensorFormat dst{};
    if (!parseTensorFormat(target, dst)) throwLoweringError(op, "dst_format '" + target + "' is not a format");
    const std::int64_t c0 = static_cast<std::int64_t>(kUbBlockBytes / bytesOf(x.dtype));
    const auto& s = x.shape;
    auto require = [&](bool ok, const std::string& what) {
        if (!ok) throwLoweringError(op, what);
    };
    if (dst == TensorFormat::NC1HWC0 || (dst == TensorFormat::NCHW && x.format == TensorFormat::NC1HWC0)) {
        // Logical shape is NCHW in both directions (docs/op-catalog.md).
        require(s.size() == 4, "x must be [N, C, H, W]");
        const std::int64_t hw = s[2] * s[3];
        // Into NC1HWC0 a C that is not a multiple of C0 is padded with zero channels (C = 3 of an
        // image stem: C1 = 1, C0 = 16 fp16 / 8 fp32), so y holds N·C1·H·W·C0 elements.
        if (dst == TensorFormat::NC1HWC0) return lowerChannelBlocking(op, chip, s[1], hw, c0);
        require(s[1] % c0 == 0, "C = " + std::to_string(s[1]) + " back from C1·C0 padding (not modelled)");
        return lowerPermutation(op, chip, {s[0], s[1] / c0, hw, c0}, {0, 1, 3, 2});
    }
    if (dst == TensorFormat::FractalNz || (dst == TensorFormat::ND && x.format == TensorFormat::FractalNz)) {
        require(s.size() >= 2, "x must have rank ≥ 2");
        const std::int64_t m = s[s.size() - 2], n = s.back();
        require(m % kFractalEdge == 0 && n % kFractalEdge == 0, "M and N must be multiples of 16 (padding not modelled)");
        std::int64_t batch = 1;
        for (std::size_t d = 0; d + 2 < s.size(); ++d) batch *= s[d];
        if (dst == TensorFormat::FractalNz)
            return lowerPermutation(op, chip, {batch, m, n / kFractalEdge, kFractalEdge}, {0, 2, 1, 3});
        return lowerPermutation(op, chip, {batch, n / kFractalEdge, m, kFractalEdge}, {0, 2, 1, 3});
    }
    if (dst == TensorFormat::FractalZ || x.format == TensorFormat::FractalZ) return lowerFractalZTransData(op, chip);
    if (dst == x.format || (dst == TensorFormat::ND && x.format == TensorFormat::NCHW) ||
        (dst == TensorFormat::NCHW && x.format == TensorFormat::ND))
        return lowerPermutation(op, chip, {x.elementCount()}, {0});  // same bytes: a copy
    throwLoweringError(op, "conversion " + std::string(tensorFormatName(x.format)) + " → " + target + " is not modelled");
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("TransData", lowerTransData);

}  // namespace ascendsim

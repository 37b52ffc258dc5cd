// TransData (docs/op-catalog.md): a layout change that is a permutation of a reshaped view, run by
// the Transpose kernel. Modelled conversions (C0 = 32 B of elements, the fractal edge 16):
//   NCHW → NC1HWC0: [N, C1, C0, H·W] → [N, C1, H·W, C0]; NC1HWC0 → NCHW the inverse;
//   ND [.., M, N] → FRACTAL_NZ [.., N/16, M, 16]: [.., M, N1, 16] → [.., N1, M, 16]; and back.
// NCHW → NC1HWC0 pads C to C1·C0 with zero channels and ND → FRACTAL_NZ M to M1·16 with zero
// rows (and back, dropping them); 16-bit NCHW ↔ NC1HWC0 runs on vnchwconv (trans_data_nchwconv.cpp),
// and so does 32-bit NCHW ↔ NC1HWC0 on the 220x parts.
// ND ↔ FRACTAL_NZ with N % 16 ≠ 0 and FRACTAL_Z of a C or Co that does not fill its fractals run
// as padded conversions (trans_data_padded.h); NC1HWC0 → NCHW of a padded C is a LoweringError.
#include "models/kernels/layout/trans_data/trans_data_dsl_buffers.h"
#include "models/kernels/layout/trans_data/trans_data_fractal_z.h"
#include "models/kernels/layout/trans_data/trans_data_nchwconv.h"
#include "models/kernels/layout/trans_data/trans_data_padded.h"
#include "models/kernels/layout/transpose/transpose.h"
#include "models/kernels/layout/transpose/transpose_row_blocks.h"
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
        // The cell's channels: the NC1HWC0 side's C0 when the op says (the MaxPool kernels'
        // NC1HWC0:1 holds 16 fp32 channels), else 32 B of elements.
        const std::int64_t cellChannels = op.intAttr("c0", 0) > 0 ? op.intAttr("c0", 0) : c0;
        // 16-bit data: the vnchwconv transpose (trans_data_nchwconv.cpp). 32-bit data where
        // vnchwconv takes it: CANN's DSL TransData (docs/fidelity.md §65, §112), one vnchwconv pass
        // in serial single-buffered tiles; a plane row that is not whole 32 B blocks is a padded
        // burst of its move, whose per-burst cost the GM paths charge (§74).
        if (bytesOf(x.dtype) == 2 || (bytesOf(x.dtype) == 4 && vnchwconvTakes32BitElements(chip)))
            return lowerNchwConvTransData(op, chip, s[1], hw, dst == TensorFormat::NC1HWC0, cellChannels);
        // Elsewhere (the 910A's 32-bit data) the Gather permutation. Into NC1HWC0 a C that is not a
        // multiple of C0 is padded with zero channels (C = 3 of an image stem: C1 = 1, C0 = 16 fp16 /
        // 8 fp32), so y holds N·C1·H·W·C0 elements. It keeps 32 B cells whatever the op's C0.
        if (dst == TensorFormat::NC1HWC0) return lowerChannelBlocking(op, chip, s[1], hw, c0);
        require(s[1] % c0 == 0, "C = " + std::to_string(s[1]) + " back from C1·C0 padding (not modelled)");
        return lowerPermutation(op, chip, {s[0], s[1] / c0, hw, c0}, {0, 1, 3, 2}, PermutationTarget::Output,
                                dslTransDataIsSingleBuffered(chip) ? PermutationTiles::SingleBuffer : PermutationTiles::Pipelined);
    }
    if (dst == TensorFormat::FractalNz || (dst == TensorFormat::ND && x.format == TensorFormat::FractalNz)) {
        // The ND side holds M rows; FRACTAL_NZ holds them rounded up to 16 (its logical shape
        // carries the padded M1·16), the padding written as zero rows (transpose_row_blocks.h).
        const bool toNz = dst == TensorFormat::FractalNz;
        const auto& nd = toNz ? s : op.outputs[0].shape;
        const auto& nz = toNz ? op.outputs[0].shape : s;
        require(nd.size() >= 2 && nz.size() == nd.size(), "x and y must have the same rank ≥ 2");
        const std::int64_t m = nd[nd.size() - 2], n = nd.back(), mPadded = nz[nz.size() - 2];
        if (n % kFractalEdge != 0) return lowerPaddedFractalNz(op, chip);  // N padded to N1·16
        require(nz.back() == n, "FRACTAL_NZ must hold N = " + std::to_string(n) + " columns");
        require(mPadded == (m + kFractalEdge - 1) / kFractalEdge * kFractalEdge,
                "FRACTAL_NZ must hold M = " + std::to_string(m) + " rounded up to 16, not " + std::to_string(mPadded));
        std::int64_t batch = 1;
        for (std::size_t d = 0; d + 2 < nd.size(); ++d) batch *= nd[d];
        const bool rearranges = fractalNzKernelRearrangesInUb(chip);
        if (mPadded == m && !rearranges) {
            if (toNz) return lowerPermutation(op, chip, {batch, m, n / kFractalEdge, kFractalEdge}, {0, 2, 1, 3});
            return lowerPermutation(op, chip, {batch, n / kFractalEdge, m, kFractalEdge}, {0, 2, 1, 3});
        }
        const auto u = [](std::int64_t v) { return static_cast<std::uint64_t>(v); };
        RowBlockSwap swap{.batch = u(batch), .rowBytes = u(kFractalEdge) * bytesOf(x.dtype),
                          .x = x.deviceAddr, .y = op.outputs[0].deviceAddr, .rearrangeInUb = rearranges};
        if (toNz)
            swap.a = u(m), swap.c = u(n / kFractalEdge), swap.aOut = u(mPadded);
        else
            swap.a = u(n / kFractalEdge), swap.c = u(m), swap.cIn = u(mPadded);
        auto kernel = lowerRowBlockSwap(op, chip, swap, 0);
        require(kernel.has_value(), "a padded FRACTAL_NZ row must be whole 32 B blocks shorter than an L2 line");
        return {*kernel};
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

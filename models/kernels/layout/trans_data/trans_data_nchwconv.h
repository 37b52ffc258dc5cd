#pragma once
// TransData NCHW ↔ NC1HWC0 with the vnchwconv transpose: 16-bit data everywhere, 32-bit data on
// the parts whose vnchwconv takes 32-bit elements (see the .cpp).
#include <cstdint>

#include "models/kernels/kernel_registry.h"

namespace ascendsim {

// The scalar work a block of CANN's dynamic DSL TransData binary does before its first move: as the
// DSL's reduce binaries (models/kernels/reduction/dsl_reduce_dispatch.h), it reads the launch's
// tiling, picks its tiling case (the forward / backward schedules' COMMON_ALIGN and STORAGE_ALIGN
// cases, borrow-N and borrow-H variants) and computes its offsets from the shape variables.
// [D] AlexNet 910B2 text export (e5a31957 text/level2 rank0, 1800 MHz): real scalar cycles a block
// (aiv_scalar_ratio × real µs × 1800) less the model's without it, over the 39 fp32 NCHW ↔ NC1HWC0
// rows of 13 × 13 to 224 × 224 planes: median 3892 (quartiles ≈ 3300 / 5100); the DB export, held
// out: 3953 (docs/fidelity.md §112). The 6 × 6 NC1HWC0:1 pair (11–14 k) is left out: the
// COMMON_ALIGN case, whose re-pitching has its own scalar work (below, §127).
inline constexpr std::uint32_t kDslTransDataDispatchScalarCycles = 3900;

// The DSL TransData tiling's choice of its COMMON_ALIGN case (CANN's op tiling
// transdata_dsl_general.cc, TransdataGeneral::ChooseType / CommonAlignLimit; docs/fidelity.md §127,
// §133): a planar row (H·W elements) that is not whole 32 B blocks, at most PACKET_SENDING_RATE
// (256 B) long, and at most 168 (32-bit) / 160 (16-bit) elements once block-aligned. Else
// STORAGE_ALIGN (each row its own burst, padded in UB by the DMA).
inline constexpr std::uint64_t kDslTransDataPacketBytes = 256;
inline constexpr std::uint64_t kDslTransDataCommonAlignMaxFp32Row = 168;
inline constexpr std::uint64_t kDslTransDataCommonAlignMaxFp16Row = 160;
// Scalar cycles a planar row costs COMMON_ALIGN's re-pitching (align_pad / remove_pad, lowered by
// the closed compiler) in the 220x's 32-bit form [F]: the AlexNet 910B2 text export's two
// COMMON_ALIGN rows (e5a31957 text/level2 rank0: NCHW [32,256,6,6] → NC1HWC0:1 and back, 256 rows a
// block) spend 15.0 k / 12.2 k scalar cycles a block where the model's other scalar work is 5.8 k /
// 6.8 k: 36 / 21 cycles a row, 28 their mean; the DB export held out (docs/fidelity.md §127). The
// 910A's 16-bit COMMON_ALIGN rows show none (§133: NCHW [32,256,6,6] fp16 → NC1HWC0 and back spend
// 470 / 406 scalar cycles a block of 256 rows in all, c1e639ee level1 rank0): no per-row work there.
inline constexpr std::uint64_t kDslTransDataRepitchScalarCyclesPerRow = 28;
bool dslTransDataTakesCommonAlign(std::uint64_t planeElements, std::uint64_t elementBytes);

// Whether the chip's vnchwconv transposes 32-bit elements (the 220x parts: platform_config
// Ascend910B*.ini list float32 for Intrinsic_vnchwconv, Ascend910A.ini does not).
bool vnchwconvTakes32BitElements(const ChipConfig& chip);

// op.inputs[0] → op.outputs[0] over N images of `channels` channels × `planeElements` (H·W) in
// cells of c0 channels (32 B of elements, or 16 fp32 channels: NC1HWC0:1); toBlocked: NCHW →
// NC1HWC0 (a C that is not a multiple of C0 padded with zero channels), else back.
std::vector<LoweredKernel> lowerNchwConvTransData(const OpInstance& op, const ChipConfig& chip, std::int64_t channels,
                                                  std::int64_t planeElements, bool toBlocked, std::int64_t c0);

}  // namespace ascendsim

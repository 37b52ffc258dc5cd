#pragma once
// CANN's MatMulV3 kernel for a GEMM whose K is huge, on a split chip (docs/fidelity.md §82, §80d):
// the "single-core split-K" tiling (hicann/ops-nn matmul/mat_mul_v3/op_host/op_tiling/
// matmul_v3_base_tiling.cpp DoSingleCoreSplitKTiling, SetBasicBlockOf24; matmul_v3_common.h
// SPLIT_K_THRES, ND2NZ_ON_THE_FLY_LIMIT; op_kernel mat_mul_sc_splitk_kernel.h; facts read, no code
// taken) run as one MIX launch. With an operand to convert (CANN's "unaligned" kernel,
// mat_mul_unaligned_sc_splitk_kernel_base.h; docs/fidelity.md §88):
//   AIV  converts every operand whose ND inner axis exceeds the ND2NZ DMA's 16-bit row stride
//        (nd2nzA / nd2nzB) into FRACTAL_NZ in the GM workspace, CANN's base blocks of the whole
//        matrix over all the kernel's AIVs (matmul_vector_nd2nz.h), then an all-AIV barrier
//        (SyncAll) and a flag to its AIC;
//   AIC  owns a region of C's rows (M over the cores, 16-aligned), takes its row blocks of
//        stepM × 128 rows one after another and, for each, walks K in 512-deep slices and, per
//        slice, its 128-column n tiles: one IterateAll each, which loads A's slice of the row
//        block again (one L1 buffer) and B's slice (two), and adds its partial C into an fp32
//        workspace by FixPipe (atomic add from the second slice on); after its last row block it
//        tells its AIVs;
//   AIV  waits for that flag and an all-AIV barrier, then casts 1/(AIVs) of the fp32 sums to
//        the output dtype.
// Without a conversion (mat_mul_sc_splitk_kernel.h ProcessBlockMKN) the AIC tells its AIVs after
// each row block and they cast that block's rows, half each.
#include <cstdint>
#include <optional>

#include "models/kernels/cube/matmul/matmul_operands.h"

namespace ascendsim {

// matmul_v3_common.h: the ND2NZ DMA moves rows whose source stride fits 16 bits (elements); an
// operand whose stored inner axis is longer is converted ND → NZ by the vector cores first.
inline constexpr std::uint64_t kNd2NzOnTheFlyLimit = 65535;
// matmul_v3_common.h SPLIT_K_THRES: from this K on, IsSupportSingleCoreSplitK takes the split-K tiling.
inline constexpr std::uint64_t kSingleCoreSplitKThreshold = 27392;

struct SingleCoreSplitKTiling {
    std::uint64_t regionRows = 0;  // C rows a core owns (⌈M ÷ cores⌉ aligned to 16)
    std::uint64_t regions = 0;     // cores with a region (the block dim)
    std::uint32_t base = 128;      // base block m = n (SetBasicBlockOf24)
    // innerBlockM (mat_mul_sc_splitk_block.h): stepM × base, the rows one IterateAll computes and
    // the AIC's row block; stepM from SetBasicBlockOfMK33 / SetBasicBlockOf24 (docs/fidelity.md §88).
    std::uint64_t rowBlockRows = 128;
    // The model's L0 step: as many bytes of A as CANN's base × base step, so a row block of two
    // base blocks steps half as deep (two L0A slots fit as CANN's do).
    std::uint32_t baseK = 128;
    std::uint64_t sliceK = 512;    // singleCoreK: baseK × stepKa (stepKa = stepKb = 4)
    bool convertA = false;         // nd2nzA: A's stored inner axis > kNd2NzOnTheFlyLimit
    bool convertB = false;         // nd2nzB
};

// The split-K tiling when CANN takes it for `p` on `chip`: a split chip, one plain 16-bit ND GEMM
// (no batch, no bias, A not transposed) with K ≥ kSingleCoreSplitKThreshold whose N is one of
// CANN's 3072-wide L2 n tiles (the case read; wider N is not modelled); nullopt otherwise.
std::optional<SingleCoreSplitKTiling> singleCoreSplitKTiling(const ChipConfig& chip, const MatmulProblem& p);

// The MIX kernel above for `p` with `tiling`.
LoweredKernel singleCoreSplitKKernel(const OpInstance& op, const ChipConfig& chip, const MatmulProblem& p,
                                     const SingleCoreSplitKTiling& tiling);

}  // namespace ascendsim

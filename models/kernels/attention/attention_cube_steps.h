#pragma once
// The cube step both FlashAttention AIC programs (forward and gradient) are built from: every
// GEMM of a 128-row attention block is one L0 step (operands ≤ 128 × 128), so a GEMM is
// L1 → L0A/L0B, one fresh mmad into an L0C slot, and a FixPipe store of the fp32 tile to GM
// (dense ND rows; the gradient's dQ/dK/dV stores add atomically). L0 and L0C are double-buffered
// as in the cube pipeline (cube_tiling.h).
#include <cstdint>

#include "models/kernels/program_builder.h"

namespace ascendsim {

// GM → L1 of the attention operands Q, K, V, dO (ND in GM) and of the AIVs' P (and the gradient's
// dS) rows in the workspace: CANN's FlashAttention kernels declare them MatmulType<GM,
// CubeFormat::ND> (the gradient's P/dS in MM_OUT_FORMAT, ND by default), so the matmul's copy-in
// converts them to the cube's fractal layout on the way (Nd2Nz DataCopy, the converting GM→L1
// curve of hardware.md §1.3; docs/fidelity.md §27).
inline constexpr LayoutConversion kAttentionOperandLoad = LayoutConversion::Nd2Nz;

// An mmad of m × k by k × n in `dtype` (its L0 addresses are set by AttentionCubeSteps::gemm).
inline Mmad attentionMmad(std::uint32_t m, std::uint32_t n, std::uint32_t k, DataType dtype, bool transposeB = false) {
    Mmad mmad;
    mmad.m = static_cast<std::uint16_t>(m);
    mmad.n = static_cast<std::uint16_t>(n);
    mmad.k = static_cast<std::uint16_t>(k);
    mmad.dtype = dtype;
    mmad.transposeB = transposeB;
    return mmad;
}

class AttentionCubeSteps {
public:
    AttentionCubeSteps();

    void prime(ProgramBuilder& b) const;
    void drain(ProgramBuilder& b) const;
    // L1 → L0 of both operands (`aBytes`, `bBytes`), then the mmad (its L0 addresses are set here).
    void gemm(ProgramBuilder& b, Mmad mmad, std::uint64_t aL1, std::uint64_t aBytes, std::uint64_t bL1,
              std::uint64_t bBytes);
    // FixPipe: the fp32 [rows × cols] tile of the last gemm to `gmAddr`; frees its L0C slot.
    void store(ProgramBuilder& b, std::uint64_t gmAddr, std::uint32_t rows, std::uint32_t cols, bool atomicAdd = false);

private:
    PingPongBuffer l0_, l0c_;
};

}  // namespace ascendsim

#pragma once
// Where a move's GM bytes lie when its GM tensor is stored FRACTAL_NZ (timing only).
//
// instruction.h's functional convention addresses every GM tensor as its logical row-major (ND)
// matrix. A tensor CANN stores FRACTAL_NZ (the 910A's TBE MatMuls take both operands and write C
// so; TransData'd weights on the 910B) lies in GM as [columns/16][rows/16][16][C0]: column block j
// (C0 logical columns) holds every row of those columns contiguously, `blockRowBytes` (C0 ×
// element bytes: 32 B for fp16 and int8, 64 B for the fp32 C the 910A's rows show as [n1, m1, 16,
// 16]) per row, its rows padded to a multiple of 16 (the fractal's height). A move over logical
// rows [r0, r0 + n) and byte columns [c0, c0 + w) then touches one contiguous run of n ×
// blockRowBytes in each column block it covers, the runs ceil16(rows) × blockRowBytes apart: a
// K × 128 fp16 tile of a K-major operand is 8 runs of K × 32 B where its ND rows are K bursts of
// 256 B (docs/fidelity.md §50).
#include <cstdint>

#include "models/isa/data_type.h"

namespace ascendsim {

struct GmFractalNz {
    std::uint64_t tensorAddr = 0;     // GM byte address of the logical matrix's element (0, 0)
    std::uint64_t rowBytes = 0;       // bytes of one logical row (columns × GM element bytes)
    std::uint32_t rows = 0;           // logical rows; 0 = the tensor is row-major in GM
    std::uint32_t blockRowBytes = 0;  // bytes of one row of a fractal column block (C0 × element)

    bool present() const { return rows != 0; }
};

// Bytes of one row of a FRACTAL_NZ column block of `type`: C0 = 16 elements (CANN's [n1, m1, 16,
// 16] for fp16, bf16 and the fp32 the 910A's MatMul rows show), 32 for 1-byte types ([.., 16, 32]).
std::uint32_t fractalNzBlockRowBytes(DataType type);

// A GM access as bursts: `count` runs of `burstBytes`, run i at address + i × strideBytes.
struct GmBursts {
    std::uint64_t address = 0;
    std::uint32_t count = 1;
    std::uint64_t burstBytes = 0;
    std::uint64_t strideBytes = 0;
};

// The bursts in GM of a move's GM side, `burstCount` bursts of `burstBytes` starting
// `strideBytes` apart at logical byte address `logicalAddr`, over a tensor laid out as `layout`
// says. The bursts must be consecutive logical rows (or row parts): a stride of one row, or one
// burst of whole rows (a 2-D copy whose rows are back to back). Throws std::invalid_argument
// otherwise or when they leave the tensor's logical matrix.
GmBursts fractalNzBursts(const GmFractalNz& layout, std::uint64_t logicalAddr, std::uint32_t burstCount,
                         std::uint64_t burstBytes, std::uint64_t strideBytes);

}  // namespace ascendsim

#pragma once
// CANN's vector ND → FRACTAL_NZ conversion of a MatMulV3 operand whose ND inner axis the cube's
// ND2NZ DMA cannot stride over (docs/fidelity.md §88; hicann/ops-nn matmul/mat_mul_v3:
// op_host/op_tiling/matmul_v3_base_tiling.cpp CalcNd2NzTiling, op_kernel/mat_mul_nd2nz.h
// MatrixtoNZ / CopyPadNd2Nz; facts read, no code taken). The stored matrix is cut into base
// blocks of `rows` × `columns`, numbered row-block-major (columns fastest) and handed to all the
// kernel's AIVs as contiguous ranges, the first ones one longer. An AIV takes its blocks one
// after another, each in turn: GM → UB as ND rows (one DataCopyPad), a UB → UB vector copy into
// the NZ order, UB → GM as one burst of the block's rows × 32 B per 16-column block (one DataCopy
// whose destination stride is the whole matrix's rows), and the next block's load waits for that
// store (MTE3 → MTE2): no double buffering.
#include <cstdint>
#include <memory>

#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

// The base block CANN's tiling gives an operand of `storedRows` × `storedColumns` elements of
// `elementBytes` converted by `vectorCores` AIVs with `ubBytes` of UB each.
struct VectorNd2NzBlock {
    std::uint64_t rows = 0;
    std::uint64_t columns = 0;
};
VectorNd2NzBlock cannVectorNd2NzBlock(std::uint64_t storedRows, std::uint64_t storedColumns, std::uint64_t elementBytes,
                                      std::uint64_t vectorCores, std::uint64_t ubBytes);

// One operand to convert: the ND matrix at `src` (row pitch = columns) into the NZ workspace at
// `dst`, addressed as its logical ND matrix (the functional model's view; the NZ layout decides
// the store's bursts).
struct VectorNd2NzOperand {
    std::uint64_t src = 0, dst = 0;
    std::uint64_t rows = 0, columns = 0;
    DataType type = DataType::Bf16;
    VectorNd2NzBlock block;
};

// The blocks AIV `vectorIndex` of `vectorCores` converts, as a one-buffer, moves-only tile source
// (DoubleBufferedStream: each load waits for the previous store).
std::unique_ptr<TileSource> vectorNd2NzTiles(const VectorNd2NzOperand& operand, std::uint32_t vectorCores,
                                             std::uint32_t vectorIndex);

}  // namespace ascendsim

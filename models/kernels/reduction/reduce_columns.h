#pragma once
// Reduction over the middle dim of an [A, R, B] view with B > 1 (e.g. a bias gradient summed over
// the batch): a tile loads up to T rows of a B-chunk, folds them with a halving tree of vector
// ops and MTE3 writes the chunk (first tile of a chunk) or adds it atomically (later tiles;
// ReduceMax needs the whole R in one tile).
#include "models/kernels/kernel_registry.h"

namespace ascendsim {

LoweredKernel lowerColumnReduction(const OpInstance& op, const ChipConfig& chip, VectorOp reduceOp, bool mean,
                                   std::uint64_t outer, std::uint64_t reduced, std::uint64_t inner);

}  // namespace ascendsim

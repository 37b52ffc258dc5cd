#pragma once
// The 910A's MatMuls whose output tiles are fewer than their blocks split K over the blocks as
// well: each block multiplies one K slice of its output tile and adds its partial C into the
// output with fp32 atomics, after an atomic clean zeroed it (docs/fidelity.md "Mechanisms" §46).
#include <cstdint>

namespace ascendsim {

// Op attribute the replay sets when an atomic clean (the 910A's "atomic_memset" row) zeroed the
// kernel's output before it: the kernel accumulates into its output across blocks.
inline constexpr const char* kAccumulatesAtomicallyAttr = "accumulates_atomically";

struct KSlices {
    std::uint64_t splits = 1;  // K slices per output tile (1: the whole K in one block)
    std::uint64_t sliceK = 0;  // K extent of a slice, a multiple of stepK (the last may be shorter)
};

// The K slices, whole L0 steps of `stepK` each, that leave the busiest of `blocks` blocks the fewest
// steps when `outputTiles` tiles × slices are spread over them in contiguous ranges; of equal
// slices, the fewest (each split re-reads A's rows and adds one more partial C).
KSlices leastWorkKSlices(std::uint64_t outputTiles, std::uint64_t blocks, std::uint64_t k, std::uint64_t stepK);

}  // namespace ascendsim

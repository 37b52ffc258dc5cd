#pragma once
// Which q-block tiles of a FlashAttention kernel each core group runs.
//
// CANN's FlashAttentionScore tiling (ops-transformer flash_attention_score_tiling: SetSparseParams,
// SetSparseStartIdx, PartitionSparseData) splits the B·N2·G·S1-outer units over the cores in
// contiguous runs, and under a sparse mode (causal among them) it weighs each unit by the S2
// blocks it really visits: it searches the smallest per-core load for which a greedy run-by-run
// packing needs no more than the cores it has, and gives each core one such run (cores left over
// get none). Without a sparse mode every unit visits the same blocks and the split is the even one.
// docs/fidelity.md §52.
#include <cstdint>
#include <functional>
#include <vector>

namespace ascendsim {

// Start of each part's run of units, parts + 1 entries (the last is loads.size()): the contiguous
// split of `loads` into at most `parts` runs whose largest run load is the smallest possible, each
// run packed greedily up to that load (so trailing parts may be empty).
std::vector<std::uint64_t> balancedRunStarts(const std::vector<std::uint64_t>& loads, std::uint32_t parts);

// First tile of each of `groups` core groups (groups + 1 entries): under a causal mask CANN's
// sparse split of the tiles weighed by `kvBlocksOfTile`, otherwise the even split
// (blockTileRange). FlashAttentionScore splits its S1-outer units so (flash_attention_score
// tiling); FlashAttentionScoreGrad splits its valid (S1, S2) basic blocks evenly over the cores
// (flash_attention_score_grad_tiling_s1s2_bn2gs1s2 GetSparseBlockInfo), which whole q-block tiles
// weighed by their KV blocks approach.
std::vector<std::uint64_t> attentionGroupTileStarts(std::uint64_t tiles, std::uint32_t groups, bool causal,
                                                    const std::function<std::uint64_t(std::uint64_t)>& kvBlocksOfTile);

}  // namespace ascendsim

#pragma once
// HCCL Broadcast from rank 0 inside one server (HCCL's mesh broadcast: a scatter from the root,
// then an all-gather). The root copies the buffer into the exchange buffer; every other rank
// reads its own slice from the root (Memcpy over the root's link); then every rank reads every
// peer's slice (Memcpy), the root too; finally every other rank copies the whole buffer to its
// output.
// [D] e5a31957 server test_data communication_matrix.json, hcom_broadcast__483_1 (131088 B over
// 8 ranks): rank 0 shows LOCAL 131088 B and one HCCS transfer of slice k to each rank k
// (16512 B, 15504 B to rank 7); rank 1 shows LOCAL 131088 B, 2 x 16512 B with rank 0 (its own
// slice in the scatter, slice 0 in the all-gather) and slice k with every other rank k.
// Assumptions: the root's copy runs first and the others' copies last (the sample has no trace of
// the op to show the order); the root handshakes with every peer in the scatter phase. The
// sample's 40-byte broadcast moves the whole buffer from the root instead (a small-message
// algorithm this model does not have).
#include <cstdint>

#include "models/chip/chip_config.h"
#include "models/collective/hccl_task.h"

namespace ascendsim {

// The broadcast cuts its buffer into slices rounded up to 128 B, not the AllReduce's 16 KiB
// ([D] the sample above: 131088 B / 8 = 16386 B, sliced as 16512 B = 129 x 128 B).
inline constexpr std::uint64_t kHcclBroadcastSliceAlignBytes = 128;

// The rank every broadcast of a workload sends from (dist.broadcast's src; a workload has no
// other root yet).
inline constexpr std::uint32_t kBroadcastRootRank = 0;

// Bytes of rank `owner`'s slice of a broadcast of `totalBytes` over `ranks`.
std::uint64_t broadcastSliceBytes(std::uint64_t totalBytes, std::uint32_t ranks,
                                  std::uint32_t owner);

// The tasks `rank` runs for a broadcast of `totalBytes` from rank 0 over `ranks` ranks.
// Throws std::invalid_argument when the chip has no link model or `ranks` is out of range.
CollectiveSchedule planMeshBroadcast(std::uint64_t totalBytes, std::uint32_t ranks,
                                     std::uint32_t rank, const HcclLinkConfig& link);

}  // namespace ascendsim

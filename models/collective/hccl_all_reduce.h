#pragma once
// HCCL AllReduce inside one server (HCCL's level-0 "mesh" algorithm, the sample's alg_type
// "MESH-RING"): every rank owns one slice of the buffer; a reduce-scatter pulls the slice each
// peer holds of it over the peer's link (Reduce_Inline), a local copy moves the reduced slice
// to the output, and an all-gather writes it to every peer (Memcpy). Each phase is guarded by
// Notify_Record / Notify_Wait handshakes with every peer, so a phase ends on all ranks when the
// slowest link of any rank is done.
#include <cstdint>

#include "models/chip/chip_config.h"
#include "models/collective/hccl_task.h"

namespace ascendsim {

// HCCL cuts the buffer into per-rank slices rounded up to this size ([D] the e5a31957 Level1
// sample: 16388000 B over 8 ranks gives 7 x 2064384 B + 1937312 B, 67125248 B gives 8404992 B).
inline constexpr std::uint64_t kHcclSliceAlignBytes = 16384;

// Bytes of rank `owner`'s slice of a `totalBytes` buffer split over `ranks`.
std::uint64_t allReduceSliceBytes(std::uint64_t totalBytes, std::uint32_t ranks,
                                  std::uint32_t owner);

// The tasks `rank` runs for an AllReduce of `totalBytes` over `ranks` ranks (2..link.npusPerServer).
// Throws std::invalid_argument when the chip has no link model or `ranks` is out of range.
CollectiveSchedule planMeshAllReduce(std::uint64_t totalBytes, std::uint32_t ranks,
                                     std::uint32_t rank, const HcclLinkConfig& link);

}  // namespace ascendsim

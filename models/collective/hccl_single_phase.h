#pragma once
// HCCL AllGather and ReduceScatter inside one server (HCCL's level-0 mesh algorithm): the half
// of the mesh AllReduce (hccl_all_reduce.h) each of them is. Every rank owns one chunk (AllGather:
// its input; ReduceScatter: its output): a local copy moves the rank's chunk into the exchange
// buffer, one phase exchanges chunks with every peer over the peer's link, and a second local
// copy moves the rank's chunk to the output.
//   AllGather:     the phase writes every peer's chunk into the output (Memcpy).
//   ReduceScatter: the phase pulls this rank's chunk of every peer's input and reduces it
//                  (Reduce_Inline).
// [D] e5a31957 server test_data rank 0/1 communication_matrix.json: hcom_allGather__483_3 and
// hcom_reduceScatter__483_4 each show a LOCAL transfer of two chunks (41.94304 MB for a
// 20.97152 MB chunk) and the allGather one HCCS transfer of one chunk per peer.
// Assumption: the two copies run before and after the phase, as in the AllReduce; the sample has
// no trace of these ops to show their order.
#include <cstdint>

#include "models/chip/chip_config.h"
#include "models/collective/hccl_task.h"

namespace ascendsim {

// The tasks `rank` runs for an AllGather of `chunkBytes` per rank (the output is ranks chunks).
// Throws std::invalid_argument when the chip has no link model or `ranks` is out of range.
CollectiveSchedule planMeshAllGather(std::uint64_t chunkBytes, std::uint32_t ranks,
                                     std::uint32_t rank, const HcclLinkConfig& link);

// The tasks `rank` runs for a ReduceScatter whose output is `chunkBytes` per rank (the input is
// ranks chunks). Throws like planMeshAllGather.
CollectiveSchedule planMeshReduceScatter(std::uint64_t chunkBytes, std::uint32_t ranks,
                                         std::uint32_t rank, const HcclLinkConfig& link);

}  // namespace ascendsim

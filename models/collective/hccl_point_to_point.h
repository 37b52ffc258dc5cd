#pragma once
// HCCL Send, Recv and BatchSendRecv (pipeline parallel). The sender copies its message into the
// exchange buffer, both sides handshake on the plane of their peer, the sender writes the message
// over the link between the two (HCCS, SIO or RDMA), and the receiver copies it to its output.
// [D] e5a31957 test_rank_0/1 communication_matrix.json, hcom_send__822_0 (rank 0 -> 8,
// 20.97152 MB): LOCAL 20.97152 MB on the sender, one RDMA transfer 0-8; hcom_receive__822_0 on
// ranks 8, 9: LOCAL 20.97152 MB only. [D] ef63bc64 level2 batchsendrecv rows: LOCAL plus one
// HCCS transfer per message.
// A batch runs all its messages at once, each on its own plane; the transfer step lasts as long
// as the slowest message.
#include <cstdint>

#include "models/collective/collective_builder.h"

namespace ascendsim {

struct PointToPointEnds {
    std::uint64_t opEndNs = 0;      // the last receiver's end
    std::uint64_t memberEndNs = 0;  // the builder's member's end (0: it takes no part)
};

PointToPointEnds planPointToPointPhases(CollectiveBuilder& b, const CollectiveRequest& request,
                                        const ClusterTopology& topology);

// Whether group rank `member` sends or receives a message of the op.
bool takesPartInPointToPoint(const CollectiveRequest& request, std::uint32_t member);

}  // namespace ascendsim

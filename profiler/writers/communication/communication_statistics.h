#pragma once
// What CANN's communication analyzer measures of one collective on one rank (formats.md §3.10,
// §3.11; msprof communication_analyzer / communication_matrix_analyzer), from the op's HCCL
// tasks. Values keep Python's number kinds (PythonNumber): a transport without traffic prints the
// int 0, as the real files show.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "profiler/record/run_record.h"
#include "profiler/writers/json/json_python_number.h"
#include "profiler/writers/json/json_text.h"

namespace ascendsim {

// Transport order of communication.json's bandwidth info.
inline constexpr const char* kCommunicationTransports[] = {"RDMA", "HCCS", "PCIE", "SDMA", "SIO"};

struct TransportStatistics {
    PythonNumber transitSizeMb;  // Σ task bytes / 1e6
    PythonNumber transitTimeMs;  // Σ task durations
    // Per task size (MB, its Python text) in first-seen order: (count, Σ ms).
    std::vector<std::pair<std::string, std::pair<std::int64_t, PythonNumber>>> sizeDistribution;
};

struct CommunicationOpStatistics {
    double startTimestampUs = 0.0;
    double elapseMs = 0.0;
    double transitMs = 0.0;             // transfers of the op's first peer plane
    double waitMs = 0.0;                // Notify_Wait tasks of that plane
    double synchronizationMs = 0.0;     // its Notify_Waits before its first transfer
    TransportStatistics transports[5];  // kCommunicationTransports order; SDMA = HCCS + PCIE + SIO
};

// One link of communication_matrix.json: "src-dst" and its totals over the op's tasks.
struct CommunicationLink {
    std::string key;        // "0-1"
    std::string transport;  // "LOCAL", "HCCS", "RDMA", "PCIE", "SIO"
    double sizeMb = 0.0;
    double timeMs = 0.0;
};

// The collectives of each step as torch_npu's communication parser groups them: "step<N>" by the
// step range holding the op's start (all into the only step when there is one; ops in no step are
// dropped), or one "step" group when the run has no step ranges. Steps in order, empty ones left
// out.
std::vector<std::pair<std::string, std::vector<const CommunicationOpRecord*>>>
communicationOpsByStep(const RunRecord& run);

// "<op name>@<group>", the key of an op in both communication files.
std::string communicationOpKey(const CommunicationOpRecord& op);

// A PythonNumber as a JSON value (int stays int, float stays float).
OrderedJson pythonNumberJson(const PythonNumber& n);

CommunicationOpStatistics communicationOpStatistics(const RunRecord& run,
                                                    const CommunicationOpRecord& op);

// communication_matrix.json's "Transport Type" of a link: LOCAL, HCCS, RDMA, PCIE, SIO ([D]
// e5a31957 test_rank_0: LOCAL, HCCS, RDMA rows).
const char* communicationLinkTransportName(HcclLinkType link);

// Whether communication.json and the matrix file the op under "p2p" (hcom_send_,
// hcom_receive_, hcom_batchSendRecv_) rather than "collective".
bool isPointToPointCommunication(const CommunicationOpRecord& op);

// Links in the order the op's tasks first use them (the local copy first).
std::vector<CommunicationLink> communicationLinks(const CommunicationOpRecord& op);

// CANN: round(x, 4) of (MB / 1000) / (ms / 1000), 0 without time.
double bandwidthGBps(double sizeMb, double timeMs);
double pythonRound(double value, int digits);

}  // namespace ascendsim

#include "profiler/writers/communication/communication_statistics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "profiler/writers/summary/step_trace_time.h"

namespace ascendsim {

namespace {

constexpr std::size_t kRdma = 0;
constexpr std::size_t kHccs = 1;
constexpr std::size_t kPcie = 2;
constexpr std::size_t kSdma = 3;
constexpr std::size_t kSio = 4;

// The kCommunicationTransports entry a peer transfer counts under; nullopt for a local copy.
std::optional<std::size_t> transportIndexOf(HcclLinkType link) {
    switch (link) {
        case HcclLinkType::Rdma:
            return kRdma;
        case HcclLinkType::Hccs:
            return kHccs;
        case HcclLinkType::Pcie:
            return kPcie;
        case HcclLinkType::Sio:
            return kSio;
        case HcclLinkType::OnChip:
        case HcclLinkType::None:
            break;
    }
    return std::nullopt;
}

bool isTransfer(const HcclTask& t) {
    return t.kind == HcclTaskKind::Memcpy || t.kind == HcclTaskKind::ReduceInline;
}
double taskMs(const HcclTask& t) {
    return static_cast<double>(t.durationNs) / 1000.0 / 1000.0;
}
double taskMb(const HcclTask& t) {
    return static_cast<double>(t.sizeBytes) / 1e6;
}

void addTask(TransportStatistics& s, const HcclTask& t) {
    const PythonNumber ms = PythonNumber::ofFloat(taskMs(t));
    s.transitSizeMb += PythonNumber::ofFloat(taskMb(t));
    s.transitTimeMs += ms;
    const std::string size = PythonNumber::ofFloat(taskMb(t)).text();
    auto it = std::find_if(s.sizeDistribution.begin(), s.sizeDistribution.end(),
                           [&size](const auto& entry) { return entry.first == size; });
    if (it == s.sizeDistribution.end()) {
        s.sizeDistribution.push_back({size, {1, ms}});
    } else {
        ++it->second.first;
        it->second.second += ms;
    }
}

// The peer plane CANN reads the op's time split from: the lowest plane that moves data over a link.
std::uint32_t firstPeerPlane(const CommunicationOpRecord& op) {
    std::uint32_t plane = std::numeric_limits<std::uint32_t>::max();
    for (const auto& t : op.tasks)
        if (isTransfer(t) && t.link != HcclLinkType::OnChip) plane = std::min(plane, t.plane);
    return plane;
}

}  // namespace

double pythonRound(double value, int digits) {
    const double scale = std::pow(10.0, digits);
    return std::nearbyint(value * scale) / scale;
}

double bandwidthGBps(double sizeMb, double timeMs) {
    if (timeMs < 1e-15) return 0.0;
    return pythonRound((sizeMb / 1000.0) / (timeMs / 1000.0), 4);
}

std::vector<std::pair<std::string, std::vector<const CommunicationOpRecord*>>>
communicationOpsByStep(const RunRecord& run) {
    std::vector<std::pair<std::string, std::vector<const CommunicationOpRecord*>>> groups;
    const std::vector<StepRange> ranges = computeStepRanges(run);
    if (ranges.empty()) {
        groups.emplace_back("step", std::vector<const CommunicationOpRecord*>{});
        for (const auto& op : run.communicationOps) groups.back().second.push_back(&op);
    } else {
        for (const StepRange& range : ranges) {
            groups.emplace_back("step" + range.stepId, std::vector<const CommunicationOpRecord*>{});
            for (const auto& op : run.communicationOps) {
                const std::uint64_t start = run.epochNs + op.startNs;
                if (ranges.size() == 1 || (start >= range.startNs && start <= range.endNs))
                    groups.back().second.push_back(&op);
            }
        }
    }
    std::erase_if(groups, [](const auto& g) { return g.second.empty(); });
    return groups;
}

bool isPointToPointCommunication(const CommunicationOpRecord& op) {
    return op.opType == "hcom_send_" || op.opType == "hcom_receive_" ||
           op.opType == "hcom_batchSendRecv_";
}

std::string communicationOpKey(const CommunicationOpRecord& op) {
    return op.name + "@" + op.groupName;
}

OrderedJson pythonNumberJson(const PythonNumber& n) {
    if (n.isFloat()) return OrderedJson(n.asDouble());
    return OrderedJson(static_cast<std::int64_t>(n.asDouble()));
}

CommunicationOpStatistics communicationOpStatistics(const RunRecord& run,
                                                    const CommunicationOpRecord& op) {
    CommunicationOpStatistics s;
    s.startTimestampUs = static_cast<double>(run.epochNs + op.startNs) / 1000.0;
    s.elapseMs = static_cast<double>(op.endNs - op.startNs) / 1e6;
    const std::uint32_t plane = firstPeerPlane(op);
    bool transferSeen = false;
    for (const auto& t : op.tasks) {
        if (t.plane != plane) continue;
        if (isTransfer(t)) {
            s.transitMs += taskMs(t);
            transferSeen = true;
        } else if (t.kind == HcclTaskKind::NotifyWait) {
            s.waitMs += taskMs(t);
            if (!transferSeen) s.synchronizationMs += taskMs(t);
        }
    }
    for (const auto& t : op.tasks) {
        if (!isTransfer(t)) continue;
        if (const std::optional<std::size_t> index = transportIndexOf(t.link))
            addTask(s.transports[*index], t);
    }
    // SDMA sums the SDMA-carried transports (HCCS, PCIE, SIO); no size distribution of its own.
    for (const std::size_t carried : {kHccs, kPcie, kSio}) {
        s.transports[kSdma].transitSizeMb += s.transports[carried].transitSizeMb;
        s.transports[kSdma].transitTimeMs += s.transports[carried].transitTimeMs;
    }
    return s;
}

const char* communicationLinkTransportName(HcclLinkType link) {
    switch (link) {
        case HcclLinkType::OnChip:
            return "LOCAL";
        case HcclLinkType::Rdma:
            return "RDMA";
        case HcclLinkType::Pcie:
            return "PCIE";
        case HcclLinkType::Sio:
            return "SIO";
        case HcclLinkType::Hccs:
        case HcclLinkType::None:
            break;
    }
    return "HCCS";
}

std::vector<CommunicationLink> communicationLinks(const CommunicationOpRecord& op) {
    std::vector<CommunicationLink> links;
    for (const auto& t : op.tasks) {
        if (!isTransfer(t)) continue;
        const std::string key = std::to_string(t.srcRank) + "-" + std::to_string(t.dstRank);
        auto it = std::find_if(links.begin(), links.end(),
                               [&key](const CommunicationLink& l) { return l.key == key; });
        if (it == links.end()) {
            links.push_back({key, communicationLinkTransportName(t.link), 0.0, 0.0});
            it = links.end() - 1;
        }
        it->sizeMb += taskMb(t);
        it->timeMs += taskMs(t);
    }
    return links;
}

}  // namespace ascendsim

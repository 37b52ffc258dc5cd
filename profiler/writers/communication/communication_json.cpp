#include "profiler/writers/communication/communication_json.h"

#include <algorithm>
#include <fstream>
#include <functional>
#include <iterator>

#include "profiler/writers/communication/communication_statistics.h"
#include "profiler/writers/json/json_text.h"

namespace ascendsim {

namespace {

constexpr const char* kTimeInfo = "Communication Time Info";
constexpr const char* kBandwidthInfo = "Communication Bandwidth Info";
constexpr std::size_t kSdma = 3;

double waitRatio(double part, double transit) {
    return part + transit > 0.0 ? pythonRound(part / (part + transit), 4) : 0.0;
}

OrderedJson distributionJson(const TransportStatistics& t) {
    OrderedJson d = OrderedJson::object();
    for (const auto& [size, entry] : t.sizeDistribution)
        d[size] = OrderedJson::array({entry.first, pythonNumberJson(entry.second)});
    return d;
}

OrderedJson opInfoJson(const CommunicationOpStatistics& s) {
    OrderedJson time;
    time["Start Timestamp(us)"] = s.startTimestampUs;
    time["Elapse Time(ms)"] = s.elapseMs;
    time["Transit Time(ms)"] = s.transitMs;
    time["Wait Time(ms)"] = s.waitMs;
    time["Synchronization Time(ms)"] = s.synchronizationMs;
    time["Idle Time(ms)"] = s.elapseMs - s.transitMs - s.waitMs;
    time["Wait Time Ratio"] = waitRatio(s.waitMs, s.transitMs);
    time["Synchronization Time Ratio"] = waitRatio(s.synchronizationMs, s.transitMs);
    OrderedJson bandwidth;
    for (std::size_t i = 0; i < std::size(kCommunicationTransports); ++i) {
        const TransportStatistics& t = s.transports[i];
        const bool used = t.transitTimeMs.isFloat();
        OrderedJson b;
        b["Transit Size(MB)"] = pythonNumberJson(t.transitSizeMb);
        b["Transit Time(ms)"] = pythonNumberJson(t.transitTimeMs);
        if (used)
            b["Bandwidth(GB/s)"] =
                bandwidthGBps(t.transitSizeMb.asDouble(), t.transitTimeMs.asDouble());
        else
            b["Bandwidth(GB/s)"] = 0;
        // Only RDMA packets count as large (msprof); a used SDMA-carried link prints 0.0, SDMA 0.
        if (used && i != kSdma)
            b["Large Packet Ratio"] = 0.0;
        else
            b["Large Packet Ratio"] = 0;
        b["Size Distribution"] = distributionJson(t);
        bandwidth[kCommunicationTransports[i]] = b;
    }
    OrderedJson info;
    info[kTimeInfo] = time;
    info[kBandwidthInfo] = bandwidth;
    return info;
}

// torch_npu's total: sums of every time key but the start and the ratios (ratios recomputed);
// per transport only time, size and the merged size distribution.
OrderedJson totalInfoJson(const std::vector<CommunicationOpStatistics>& ops) {
    double elapse = 0, transit = 0, wait = 0, sync = 0, idle = 0;
    TransportStatistics totals[std::size(kCommunicationTransports)];
    for (const auto& s : ops) {
        elapse += s.elapseMs;
        transit += s.transitMs;
        wait += s.waitMs;
        sync += s.synchronizationMs;
        idle += s.elapseMs - s.transitMs - s.waitMs;
        for (std::size_t i = 0; i < std::size(kCommunicationTransports); ++i) {
            totals[i].transitTimeMs += s.transports[i].transitTimeMs;
            totals[i].transitSizeMb += s.transports[i].transitSizeMb;
            for (const auto& entry : s.transports[i].sizeDistribution) {
                auto it = std::find_if(totals[i].sizeDistribution.begin(),
                                       totals[i].sizeDistribution.end(),
                                       [&entry](const auto& e) { return e.first == entry.first; });
                if (it == totals[i].sizeDistribution.end()) {
                    totals[i].sizeDistribution.push_back(entry);
                } else {
                    it->second.first += entry.second.first;
                    it->second.second += entry.second.second;
                }
            }
        }
    }
    OrderedJson time;
    time["Elapse Time(ms)"] = elapse;
    time["Transit Time(ms)"] = transit;
    time["Wait Time(ms)"] = wait;
    time["Synchronization Time(ms)"] = sync;
    time["Idle Time(ms)"] = idle;
    time["Wait Time Ratio"] = waitRatio(wait, transit);
    time["Synchronization Time Ratio"] = waitRatio(sync, transit);
    OrderedJson bandwidth;
    for (std::size_t i = 0; i < std::size(kCommunicationTransports); ++i) {
        OrderedJson b;
        b["Transit Time(ms)"] = pythonNumberJson(totals[i].transitTimeMs);
        b["Transit Size(MB)"] = pythonNumberJson(totals[i].transitSizeMb);
        b["Size Distribution"] = distributionJson(totals[i]);
        bandwidth[kCommunicationTransports[i]] = b;
    }
    OrderedJson info;
    info[kTimeInfo] = time;
    info[kBandwidthInfo] = bandwidth;
    return info;
}

}  // namespace

bool writesCommunicationFiles(const RunRecord& run, const ProfilerConfig& config) {
    return config.activityNpu && !run.communicationOps.empty() &&
           (config.level == ProfilerLevel::Level1 || config.level == ProfilerLevel::Level2);
}

std::string renderCommunicationSteps(
    const RunRecord& run,
    const std::function<OrderedJson(const std::vector<const CommunicationOpRecord*>&)>&
        collectiveOf) {
    OrderedJson root = OrderedJson::object();
    for (const auto& [stepKey, ops] : communicationOpsByStep(run)) {
        std::vector<const CommunicationOpRecord*> p2p;
        std::vector<const CommunicationOpRecord*> collective;
        for (const CommunicationOpRecord* op : ops)
            (isPointToPointCommunication(*op) ? p2p : collective).push_back(op);
        // [D] e5a31957 test_rank_0: "p2p" holds hcom_send_ ops and their own "Total Op Info";
        // a kind without ops is an empty object.
        OrderedJson step;
        step["p2p"] = p2p.empty() ? OrderedJson::object() : collectiveOf(p2p);
        step["collective"] = collective.empty() ? OrderedJson::object() : collectiveOf(collective);
        root[stepKey] = step;
    }
    return dumpPythonJson(root, false);
}

bool writeCommunicationFile(const std::filesystem::path& path, const std::string& text) {
    if (text.empty()) return false;
    std::ofstream out(path, std::ios::binary);
    out << text;
    return static_cast<bool>(out);
}

std::string renderCommunicationJson(const RunRecord& run, const ProfilerConfig& config) {
    if (!writesCommunicationFiles(run, config)) return {};
    return renderCommunicationSteps(
        run, [&run](const std::vector<const CommunicationOpRecord*>& ops) {
            OrderedJson collective = OrderedJson::object();
            std::vector<CommunicationOpStatistics> stats;
            for (const CommunicationOpRecord* op : ops) {
                stats.push_back(communicationOpStatistics(run, *op));
                collective[communicationOpKey(*op)] = opInfoJson(stats.back());
            }
            collective["Total Op Info"] = totalInfoJson(stats);
            return collective;
        });
}

bool writeCommunicationJson(const std::filesystem::path& outputDir, const RunRecord& run,
                            const ProfilerConfig& config) {
    return writeCommunicationFile(outputDir / "communication.json",
                                  renderCommunicationJson(run, config));
}

}  // namespace ascendsim

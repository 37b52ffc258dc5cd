#include "profiler/writers/db/db_communication_analysis.h"

#include <iterator>
#include <string>

#include "profiler/writers/communication/communication_json.h"
#include "profiler/writers/communication/communication_matrix_selection.h"
#include "profiler/writers/communication/communication_statistics.h"

namespace ascendsim {

namespace {

const std::string kCollective = "collective";  // the model has no p2p ops

}  // namespace

CommunicationAnalysisRows buildCommunicationAnalysisRows(const RunRecord& run,
                                                         const ProfilerConfig& config) {
    CommunicationAnalysisRows rows;
    if (!writesCommunicationFiles(run, config)) return rows;
    for (const auto& [step, ops] : communicationOpsByStep(run)) {
        for (const CommunicationOpRecord* op : ops) {
            const CommunicationOpStatistics s = communicationOpStatistics(run, *op);
            rows.time.push_back({op->name, op->groupName, s.startTimestampUs, s.elapseMs,
                                 s.transitMs, s.waitMs, s.synchronizationMs,
                                 s.elapseMs - s.transitMs - s.waitMs, step, kCollective});
            // One row per packet size of a used transport; SDMA (no distribution) one row of zeros.
            for (std::size_t i = 0; i < std::size(kCommunicationTransports); ++i) {
                const TransportStatistics& t = s.transports[i];
                if (!t.transitTimeMs.isFloat()) continue;
                const double sizeMb = t.transitSizeMb.asDouble();
                const double timeMs = t.transitTimeMs.asDouble();
                auto row = [&](double packageMb, std::int64_t count, double totalMs) {
                    rows.bandwidth.push_back(
                        {op->name, op->groupName, std::string(kCommunicationTransports[i]), sizeMb,
                         timeMs, bandwidthGBps(sizeMb, timeMs), std::int64_t{0}, packageMb, count,
                         totalMs, step, kCollective});
                };
                if (t.sizeDistribution.empty()) row(0.0, 0, 0.0);
                for (const auto& [size, entry] : t.sizeDistribution)
                    row(std::stod(size), entry.first, entry.second.asDouble());
            }
        }
        for (const MatrixSelection& selection : communicationMatrixSelections(ops)) {
            for (const MatrixRecord& r : selection.links) {
                const std::size_t dash = r.link.key.find('-');
                rows.matrix.push_back({selection.name, selection.group, r.link.key.substr(0, dash),
                                       r.link.key.substr(dash + 1), r.link.transport, r.link.sizeMb,
                                       r.link.timeMs, r.bandwidth, step, kCollective, r.opName});
            }
        }
    }
    return rows;
}

void writeCommunicationAnalysisTables(DbFile& db, const CommunicationAnalysisRows& rows) {
    db.execute(
        "CREATE TABLE CommAnalyzerBandwidth (hccl_op_name TEXT, group_name TEXT, transport_type "
        "TEXT, "
        "transit_size NUMERIC, transit_time NUMERIC, bandwidth NUMERIC, large_packet_ratio "
        "NUMERIC, "
        "package_size NUMERIC, count NUMERIC, total_duration NUMERIC, step TEXT, type TEXT)");
    db.execute(
        "CREATE TABLE CommAnalyzerMatrix (hccl_op_name TEXT, group_name TEXT, src_rank TEXT, "
        "dst_rank TEXT, "
        "transport_type TEXT, transit_size NUMERIC, transit_time NUMERIC, bandwidth NUMERIC, step "
        "TEXT, "
        "type TEXT, op_name TEXT)");
    db.execute(
        "CREATE TABLE CommAnalyzerTime (hccl_op_name TEXT, group_name TEXT, start_timestamp "
        "NUMERIC, "
        "elapse_time NUMERIC, transit_time NUMERIC, wait_time NUMERIC, synchronization_time "
        "NUMERIC, "
        "idle_time NUMERIC, step TEXT, type TEXT)");
    db.insertRows("CommAnalyzerBandwidth", rows.bandwidth);
    db.insertRows("CommAnalyzerMatrix", rows.matrix);
    db.insertRows("CommAnalyzerTime", rows.time);
}

}  // namespace ascendsim

#include "profiler/writers/memory/memory_record.h"

#include <algorithm>
#include <optional>

#include "profiler/format/number_format.h"
#include "profiler/format/time_format.h"

namespace ascendsim {

namespace {

constexpr double kBytesPerMb = 1048576.0;  // torch_npu divides byte totals by 2^20
constexpr double kKbPerMb = 1024.0;        // and CANN KB values by 1024

std::string mb(double value) { return pythonFloatRepr(value); }

struct Totals {
    double allocatedMb = 0.0, reservedMb = 0.0, activeMb = 0.0;
    std::uint64_t streamPtr = 0;
};

}  // namespace

std::string npuDeviceText(const RunRecord& run) { return "NPU:" + std::to_string(run.deviceId); }

CsvRow memoryRecordHeader() {
    return {"Component", "Timestamp(us)", "Total Allocated(MB)", "Total Reserved(MB)", "Total Active(MB)",
            "Stream Ptr", "Device Type"};
}

CsvTable buildMemoryRecord(const RunRecord& run) {
    CsvTable table;
    table.header = memoryRecordHeader();
    const std::string device = npuDeviceText(run);
    auto ts = [&run](std::uint64_t simNs) { return nsToUsStringWithTab(run.epochNs + simNs); };

    for (const auto& app : run.appMemory) {
        const double kb = static_cast<double>(app.bytes) / 1024.0;
        table.rows.push_back({"APP", ts(app.timeNs), "", mb(kb / kKbPerMb), "", "", device});
    }

    // Merge PTA (and workspace) events with GE samples by time; PTA first on equal times.
    std::size_t p = 0, g = 0;
    std::optional<Totals> lastPta, lastGe;
    while (p < run.memoryEvents.size() || g < run.geMemory.size()) {
        const bool takePta = g >= run.geMemory.size() ||
                             (p < run.memoryEvents.size() && run.memoryEvents[p].timeNs <= run.geMemory[g].timeNs);
        if (takePta) {
            const auto& e = run.memoryEvents[p++];
            const Totals t{static_cast<double>(e.totalAllocated) / kBytesPerMb,
                           static_cast<double>(e.totalReserved) / kBytesPerMb,
                           static_cast<double>(e.totalActive) / kBytesPerMb, e.streamPtr};
            const bool workspace = e.component == MemoryComponent::Workspace;
            table.rows.push_back({workspace ? "WORKSPACE" : "PTA", ts(e.timeNs), mb(t.allocatedMb), mb(t.reservedMb),
                                  mb(t.activeMb), std::to_string(t.streamPtr), device});
            if (workspace) continue;
            lastPta = t;
            const double ge = lastGe ? lastGe->allocatedMb : 0.0;
            const double geReserved = lastGe ? lastGe->reservedMb : 0.0;
            table.rows.push_back({"PTA+GE", ts(e.timeNs), mb(lastGe ? t.allocatedMb + ge : t.allocatedMb),
                                  mb(lastGe ? t.reservedMb + geReserved : t.reservedMb), mb(t.activeMb),
                                  std::to_string(t.streamPtr), device});
        } else {
            const auto& s = run.geMemory[g++];
            const Totals t{static_cast<double>(s.totalAllocatedBytes) / 1024.0 / kKbPerMb,
                           static_cast<double>(s.totalReservedBytes) / 1024.0 / kKbPerMb, 0.0, 0};
            table.rows.push_back({"GE", ts(s.timeNs), mb(t.allocatedMb), mb(t.reservedMb), "", "", device});
            lastGe = t;
            if (lastPta) {
                table.rows.push_back({"PTA+GE", ts(s.timeNs), mb(lastPta->allocatedMb + t.allocatedMb),
                                      mb(lastPta->reservedMb + t.reservedMb), mb(lastPta->activeMb),
                                      std::to_string(lastPta->streamPtr), device});
            } else {
                table.rows.push_back({"PTA+GE", ts(s.timeNs), mb(t.allocatedMb), mb(t.reservedMb), "", "", device});
            }
        }
    }
    return table;
}

}  // namespace ascendsim

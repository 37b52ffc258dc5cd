#include "profiler/writers/memory/operator_memory.h"

#include <map>

#include "profiler/format/number_format.h"
#include "profiler/format/time_format.h"
#include "profiler/writers/memory/memory_record.h"

namespace ascendsim {

namespace {

constexpr double kBytesPerMb = 1048576.0;

std::string mb(std::int64_t bytes) { return pythonFloatRepr(static_cast<double>(bytes) / kBytesPerMb); }
std::string kbFromKbBytes(std::int64_t bytes) { return pythonFloatRepr(static_cast<double>(bytes) / 1024.0 / 1024.0); }

}  // namespace

std::vector<PtaAllocation> ptaAllocations(const RunRecord& run) {
    std::vector<PtaAllocation> allocations;
    std::map<std::uint64_t, std::size_t> openByPtr;
    for (const auto& e : run.memoryEvents) {
        if (e.component != MemoryComponent::PtaCaching) continue;
        if (e.kind == MemoryEventKind::Malloc) {
            openByPtr[e.ptr] = allocations.size();
            allocations.push_back({&e, nullptr, nullptr});
            continue;
        }
        const auto it = openByPtr.find(e.ptr);
        if (it == openByPtr.end()) continue;
        PtaAllocation& a = allocations[it->second];
        if (e.kind == MemoryEventKind::Free && !a.free) a.free = &e;
        if (e.kind == MemoryEventKind::BlockFree && !a.blockFree) a.blockFree = &e;
        if (a.free && a.blockFree) openByPtr.erase(it);
    }
    return allocations;
}

std::string causingOpName(const RunRecord& run, const MemoryEventRecord& event) {
    return event.hostOpIndex >= 0 && static_cast<std::size_t>(event.hostOpIndex) < run.hostOps.size()
               ? run.hostOps[static_cast<std::size_t>(event.hostOpIndex)].name
               : "";
}

CsvRow operatorMemoryHeader() {
    return {"Name", "Size(KB)", "Allocation Time(us)", "Release Time(us)", "Active Release Time(us)", "Duration(us)",
            "Active Duration(us)", "Allocation Total Allocated(MB)", "Allocation Total Reserved(MB)",
            "Allocation Total Active(MB)", "Release Total Allocated(MB)", "Release Total Reserved(MB)",
            "Release Total Active(MB)", "Stream Ptr", "Device Type"};
}

CsvTable buildOperatorMemory(const RunRecord& run) {
    CsvTable table;
    table.header = operatorMemoryHeader();
    const std::string device = npuDeviceText(run);
    auto ts = [&run](std::uint64_t simNs) { return nsToUsStringWithTab(run.epochNs + simNs); };

    for (const PtaAllocation& a : ptaAllocations(run)) {
        const auto& m = *a.malloc;
        CsvRow row{causingOpName(run, m), pythonFloatRepr(static_cast<double>(m.allocSize) / 1024.0), ts(m.timeNs)};
        row.push_back(a.free ? ts(a.free->timeNs) : "");
        row.push_back(a.blockFree ? ts(a.blockFree->timeNs) : "");
        row.push_back(a.free ? nsToUsStringWithTab(a.free->timeNs - m.timeNs) : "");
        row.push_back(a.blockFree ? nsToUsStringWithTab(a.blockFree->timeNs - m.timeNs) : "");
        row.push_back(mb(m.totalAllocated));
        row.push_back(mb(m.totalReserved));
        row.push_back(mb(m.totalActive));
        row.push_back(a.free ? mb(a.free->totalAllocated) : "");
        row.push_back(a.free ? mb(a.free->totalReserved) : "");
        row.push_back(a.free ? mb(a.free->totalActive) : "");
        row.push_back(std::to_string(m.streamPtr));
        row.push_back(device);
        table.rows.push_back(std::move(row));
    }

    for (const auto& ge : run.geOpMemory) {
        table.rows.push_back({"cann::" + ge.name, pythonFloatRepr(static_cast<double>(ge.sizeBytes) / 1024.0),
                              ts(ge.allocationNs), ts(ge.allocationNs + ge.durationNs), "",
                              pythonFloatRepr(static_cast<double>(ge.durationNs) / 1000.0), "",
                              kbFromKbBytes(ge.allocationTotalAllocated), kbFromKbBytes(ge.allocationTotalReserved), "",
                              kbFromKbBytes(ge.releaseTotalAllocated), kbFromKbBytes(ge.releaseTotalReserved), "", "",
                              device});
    }
    return table;
}

}  // namespace ascendsim

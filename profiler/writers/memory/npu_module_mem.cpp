#include "profiler/writers/memory/npu_module_mem.h"

#include <algorithm>

#include "profiler/format/number_format.h"
#include "profiler/format/time_format.h"
#include "profiler/writers/memory/memory_record.h"

namespace ascendsim {

CsvRow npuModuleMemHeader(FormatVersion version) {
    CsvRow header{"Component", "Timestamp(us)", "Total Reserved(MB)", "Device"};
    if (version == FormatVersion::Cann83) header.insert(header.begin(), "Device_id");
    return header;
}

CsvTable buildNpuModuleMem(const RunRecord& run, FormatVersion version) {
    CsvTable table;
    table.header = npuModuleMemHeader(version);
    std::vector<std::string> componentOrder;
    for (const auto& s : run.moduleMemory) {
        if (std::find(componentOrder.begin(), componentOrder.end(), s.component) == componentOrder.end())
            componentOrder.push_back(s.component);
    }
    std::vector<const ModuleMemorySample*> samples;
    for (const auto& s : run.moduleMemory) samples.push_back(&s);
    auto rank = [&componentOrder](const std::string& c) {
        return std::find(componentOrder.begin(), componentOrder.end(), c) - componentOrder.begin();
    };
    std::stable_sort(samples.begin(), samples.end(), [&rank](const ModuleMemorySample* a, const ModuleMemorySample* b) {
        const auto ra = rank(a->component), rb = rank(b->component);
        return ra != rb ? ra < rb : a->timeNs < b->timeNs;
    });
    const std::string device = npuDeviceText(run);
    for (const auto* s : samples) {
        // CANN reports KB; a reservation of -1 KB prints as -0.0009765625.
        const double kb = s->reservedBytes < 0 ? static_cast<double>(s->reservedBytes)
                                                : static_cast<double>(s->reservedBytes / 1024);
        CsvRow row{s->component, nsToUsStringWithTab(run.epochNs + s->timeNs), pythonFloatRepr(kb / 1024.0), device};
        if (version == FormatVersion::Cann83) row.insert(row.begin(), std::to_string(run.deviceId));
        table.rows.push_back(std::move(row));
    }
    return table;
}

}  // namespace ascendsim

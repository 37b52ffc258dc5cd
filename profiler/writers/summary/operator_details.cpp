#include "profiler/writers/summary/operator_details.h"

#include <functional>

#include "profiler/writers/json/json_python_number.h"
#include "profiler/writers/timeline/msprof_timeline.h"
#include "profiler/writers/summary/torch_op_text.h"

namespace ascendsim {

namespace {

// float(ns / 1000) for a small ns: exact ns, one correctly rounded division.
std::string usText(std::int64_t ns) { return PythonNumber::ofFloat(static_cast<double>(ns) / 1000.0).text(); }

struct DeviceTime {
    PythonNumber all, aiCore;
};

}  // namespace

CsvRow operatorDetailsHeader() {
    return {"Name", "Input Shapes", "Call Stack", "Host Self Duration(us)", "Host Total Duration(us)",
            "Device Self Duration(us)", "Device Total Duration(us)", "Device Self Duration With AICore(us)",
            "Device Total Duration With AICore(us)"};
}

CsvTable buildOperatorDetails(const RunRecord& run, const ProfilerConfig& config) {
    CsvTable table;
    table.header = operatorDetailsHeader();
    const std::size_t n = run.hostOps.size();
    std::vector<std::vector<std::size_t>> children(n);
    std::vector<std::size_t> roots;
    for (std::size_t i = 0; i < n; ++i) {
        const auto parent = run.hostOps[i].parent;
        if (parent >= 0 && static_cast<std::size_t>(parent) < n) children[static_cast<std::size_t>(parent)].push_back(i);
        else roots.push_back(i);
    }
    std::vector<DeviceTime> self(n);
    for (const auto& k : run.kernels) {
        if (k.hostOpIndex < 0 || static_cast<std::size_t>(k.hostOpIndex) >= n) continue;
        const auto dur = PythonNumber::ofFloat(static_cast<double>(k.device.endNs - k.device.startNs) / 1000.0);
        auto& t = self[static_cast<std::size_t>(k.hostOpIndex)];
        t.all += dur;
        if (hardwareTaskTypeArg(k.device.type, config) == "AI_CORE") t.aiCore += dur;
    }
    std::vector<DeviceTime> total(n);
    std::function<void(std::size_t)> accumulate = [&](std::size_t i) {
        total[i] = self[i];
        for (std::size_t c : children[i]) {
            accumulate(c);
            total[i].all += total[c].all;
            total[i].aiCore += total[c].aiCore;
        }
    };
    for (std::size_t r : roots) accumulate(r);

    std::function<void(std::size_t)> emit = [&](std::size_t i) {
        const auto& op = run.hostOps[i];
        if (!op.name.starts_with("ProfilerStep#")) {
            std::int64_t childNs = 0;
            for (std::size_t c : children[i])
                childNs += static_cast<std::int64_t>(run.hostOps[c].endNs - run.hostOps[c].startNs);
            const auto durNs = static_cast<std::int64_t>(op.endNs - op.startNs);
            table.rows.push_back({op.name, torchOpBeanText(op.inputDims), torchOpBeanText(op.callStack),
                                  usText(durNs - childNs), usText(durNs), self[i].all.text(), total[i].all.text(),
                                  self[i].aiCore.text(), total[i].aiCore.text()});
        }
        for (std::size_t c : children[i]) emit(c);
    };
    for (std::size_t r : roots) emit(r);
    return table;
}

}  // namespace ascendsim

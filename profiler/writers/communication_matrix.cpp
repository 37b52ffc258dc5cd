#include "profiler/writers/communication_matrix.h"

#include <fstream>

#include "profiler/writers/communication_json.h"
#include "profiler/writers/communication_matrix_selection.h"
#include "profiler/writers/communication_statistics.h"
#include "profiler/writers/json_text.h"

namespace ascendsim {

namespace {

OrderedJson linkJson(const MatrixRecord& r, bool withOpName) {
    OrderedJson j;
    j["Transport Type"] = r.link.transport;
    j["Transit Size(MB)"] = r.link.sizeMb;
    j["Transit Time(ms)"] = r.link.timeMs;
    j["Bandwidth(GB/s)"] = r.bandwidth;
    if (withOpName) j["Op Name"] = r.opName;
    return j;
}

}  // namespace

std::string renderCommunicationMatrixJson(const RunRecord& run, const ProfilerConfig& config) {
    if (!writesCommunicationFiles(run, config)) return {};
    OrderedJson root = OrderedJson::object();
    for (const auto& [stepKey, ops] : communicationOpsByStep(run)) {
        OrderedJson collective = OrderedJson::object();
        for (const MatrixSelection& selection : communicationMatrixSelections(ops)) {
            OrderedJson links = OrderedJson::object();
            for (const MatrixRecord& r : selection.links)
                links[r.link.key] = linkJson(r, !selection.total);
            collective[selection.name + "@" + selection.group] = links;
        }
        OrderedJson step;
        step["p2p"] = OrderedJson::object();
        step["collective"] = collective;
        root[stepKey] = step;
    }
    return dumpPythonJson(root, false);
}

bool writeCommunicationMatrixJson(const std::filesystem::path& outputDir, const RunRecord& run,
                                  const ProfilerConfig& config) {
    const std::string text = renderCommunicationMatrixJson(run, config);
    if (text.empty()) return false;
    std::ofstream out(outputDir / "communication_matrix.json", std::ios::binary);
    out << text;
    return static_cast<bool>(out);
}

}  // namespace ascendsim

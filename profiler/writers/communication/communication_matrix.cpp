#include "profiler/writers/communication/communication_matrix.h"

#include "profiler/writers/communication/communication_json.h"
#include "profiler/writers/communication/communication_matrix_selection.h"
#include "profiler/writers/communication/communication_statistics.h"
#include "profiler/writers/json/json_text.h"

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
    return renderCommunicationSteps(run, [](const std::vector<const CommunicationOpRecord*>& ops) {
        OrderedJson collective = OrderedJson::object();
        for (const MatrixSelection& selection : communicationMatrixSelections(ops)) {
            OrderedJson links = OrderedJson::object();
            for (const MatrixRecord& r : selection.links)
                links[r.link.key] = linkJson(r, !selection.total);
            collective[selection.name + "@" + selection.group] = links;
        }
        return collective;
    });
}

bool writeCommunicationMatrixJson(const std::filesystem::path& outputDir, const RunRecord& run,
                                  const ProfilerConfig& config) {
    return writeCommunicationFile(outputDir / "communication_matrix.json",
                                  renderCommunicationMatrixJson(run, config));
}

}  // namespace ascendsim

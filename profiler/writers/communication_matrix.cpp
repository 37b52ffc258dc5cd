#include "profiler/writers/communication_matrix.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <functional>
#include <map>
#include <regex>

#include "profiler/writers/communication_json.h"
#include "profiler/writers/communication_statistics.h"
#include "profiler/writers/json_text.h"

namespace ascendsim {

namespace {

struct LinkRecord {
    CommunicationLink link;
    std::string opName;
    double bandwidth = 0.0;
};

OrderedJson linkJson(const LinkRecord& r, bool withOpName) {
    OrderedJson j;
    j["Transport Type"] = r.link.transport;
    j["Transit Size(MB)"] = r.link.sizeMb;
    j["Transit Time(ms)"] = r.link.timeMs;
    j["Bandwidth(GB/s)"] = r.bandwidth;
    if (withOpName) j["Op Name"] = r.opName;
    return j;
}

// One (type, group) of one step: its links in first-seen order, each with its ops' records.
struct TypeGroup {
    std::string type, group;
    std::vector<std::string> linkOrder;
    std::map<std::string, std::vector<LinkRecord>> records;
};

void addSelection(OrderedJson& collective, const TypeGroup& g, const char* label,
                  std::size_t minOps, const std::function<std::size_t(std::size_t)>& pick) {
    OrderedJson links = OrderedJson::object();
    for (const auto& key : g.linkOrder) {
        const auto& records = g.records.at(key);
        if (records.size() < minOps) continue;
        links[key] = linkJson(records[pick(records.size())], true);
    }
    if (!links.empty()) collective[g.type + "-" + label + "@" + g.group] = links;
}

OrderedJson collectiveJson(const std::vector<const CommunicationOpRecord*>& ops) {
    std::vector<TypeGroup> groups;
    for (const CommunicationOpRecord* op : ops) {
        const std::string type = communicationTypeOf(op->name);
        auto g = std::find_if(groups.begin(), groups.end(), [&](const TypeGroup& t) {
            return t.type == type && t.group == op->groupName;
        });
        if (g == groups.end()) {
            groups.push_back({type, op->groupName, {}, {}});
            g = groups.end() - 1;
        }
        for (const CommunicationLink& link : communicationLinks(*op)) {
            if (!g->records.contains(link.key)) g->linkOrder.push_back(link.key);
            g->records[link.key].push_back(
                {link, op->name, bandwidthGBps(link.sizeMb, link.timeMs)});
        }
    }
    OrderedJson collective = OrderedJson::object();
    for (TypeGroup& g : groups) {
        for (auto& [key, records] : g.records)
            std::stable_sort(
                records.begin(), records.end(),
                [](const LinkRecord& a, const LinkRecord& b) { return a.bandwidth > b.bandwidth; });
        addSelection(collective, g, "top1", 1, [](std::size_t) { return std::size_t{0}; });
        addSelection(collective, g, "middle", 1, [](std::size_t n) { return n / 2; });
        addSelection(collective, g, "bottom1", 1, [](std::size_t n) { return n - 1; });
        OrderedJson total = OrderedJson::object();
        for (const auto& key : g.linkOrder) {
            LinkRecord sum;
            sum.link = g.records.at(key).front().link;
            sum.link.sizeMb = 0.0;
            sum.link.timeMs = 0.0;
            for (const auto& r : g.records.at(key)) {
                sum.link.sizeMb += r.link.sizeMb;
                sum.link.timeMs += r.link.timeMs;
            }
            sum.bandwidth =
                sum.link.timeMs < 1e-15 ? 0.0 : pythonRound(sum.link.sizeMb / sum.link.timeMs, 4);
            total[key] = linkJson(sum, false);
        }
        collective[g.type + "-total@" + g.group] = total;
        addSelection(collective, g, "bottom2", 2, [](std::size_t n) { return n - 2; });
        addSelection(collective, g, "bottom3", 3, [](std::size_t n) { return n - 3; });
    }
    return collective;
}

}  // namespace

std::string communicationTypeOf(const std::string& opName) {
    static const std::regex kTypes(
        "send|reduce|invalid|broadcast|allreduce|receive|allgather|reducescatter|scatter|alltoall|"
        "alltoallv|"
        "alltoallvc|batchsendrecv");
    std::string lower = opName;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    std::smatch match;
    return std::regex_search(lower, match, kTypes) ? match.str() : "invalid";
}

std::string renderCommunicationMatrixJson(const RunRecord& run, const ProfilerConfig& config) {
    if (!writesCommunicationFiles(run, config)) return {};
    OrderedJson root = OrderedJson::object();
    for (const auto& [stepKey, ops] : communicationOpsByStep(run)) {
        OrderedJson step;
        step["p2p"] = OrderedJson::object();
        step["collective"] = collectiveJson(ops);
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

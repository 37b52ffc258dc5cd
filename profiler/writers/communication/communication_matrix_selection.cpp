#include "profiler/writers/communication/communication_matrix_selection.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <regex>

namespace ascendsim {

namespace {

// One (type, group) of one step: its links in first-seen order, each with its ops' records.
struct TypeGroup {
    std::string type, group;
    std::vector<std::string> linkOrder;
    std::map<std::string, std::vector<MatrixRecord>> records;
};

void addSelection(std::vector<MatrixSelection>& out, const TypeGroup& g, const char* label,
                  std::size_t minOps, const std::function<std::size_t(std::size_t)>& pick) {
    MatrixSelection s{g.type + "-" + label, g.group, false, {}};
    for (const auto& key : g.linkOrder) {
        const auto& records = g.records.at(key);
        if (records.size() >= minOps) s.links.push_back(records[pick(records.size())]);
    }
    if (!s.links.empty()) out.push_back(std::move(s));
}

MatrixSelection totalOf(const TypeGroup& g) {
    MatrixSelection s{g.type + "-total", g.group, true, {}};
    for (const auto& key : g.linkOrder) {
        MatrixRecord sum;
        sum.link = g.records.at(key).front().link;
        sum.link.sizeMb = 0.0;
        sum.link.timeMs = 0.0;
        for (const auto& r : g.records.at(key)) {
            sum.link.sizeMb += r.link.sizeMb;
            sum.link.timeMs += r.link.timeMs;
        }
        sum.bandwidth =
            sum.link.timeMs < 1e-15 ? 0.0 : pythonRound(sum.link.sizeMb / sum.link.timeMs, 4);
        s.links.push_back(std::move(sum));
    }
    return s;
}

}  // namespace

std::vector<MatrixSelection> communicationMatrixSelections(
    const std::vector<const CommunicationOpRecord*>& ops) {
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
                {link, bandwidthGBps(link.sizeMb, link.timeMs), op->name});
        }
    }
    std::vector<MatrixSelection> out;
    for (TypeGroup& g : groups) {
        for (auto& [key, records] : g.records)
            std::stable_sort(records.begin(), records.end(),
                             [](const MatrixRecord& a, const MatrixRecord& b) {
                                 return a.bandwidth > b.bandwidth;
                             });
        addSelection(out, g, "top1", 1, [](std::size_t) { return std::size_t{0}; });
        addSelection(out, g, "middle", 1, [](std::size_t n) { return n / 2; });
        addSelection(out, g, "bottom1", 1, [](std::size_t n) { return n - 1; });
        out.push_back(totalOf(g));
        addSelection(out, g, "bottom2", 2, [](std::size_t n) { return n - 2; });
        addSelection(out, g, "bottom3", 3, [](std::size_t n) { return n - 3; });
    }
    return out;
}

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

}  // namespace ascendsim

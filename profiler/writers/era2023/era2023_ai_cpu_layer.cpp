#include "profiler/writers/era2023/era2023_ai_cpu_layer.h"

#include <optional>
#include <set>
#include <string>
#include <utility>

namespace ascendsim {

namespace {

constexpr std::uint32_t kSortIndexShift = 5;  // formatTracePid: (pid << 10) | (sort << 5) | device

OrderedJson meta(const char* name, std::uint32_t pid, std::uint64_t tid, const char* key, const OrderedJson& value) {
    OrderedJson m;
    m["name"] = name;
    m["pid"] = pid;
    m["tid"] = tid;
    m["args"][key] = value;
    m["ph"] = "M";
    return m;
}

}  // namespace

std::vector<OrderedJson> withAiCpuLayer(std::vector<OrderedJson> events, const char* taskSchedulerName) {
    std::optional<std::uint32_t> scheduler;
    std::uint32_t sortIndex = 0;
    for (const OrderedJson& e : events) {
        if (e.value("ph", "") != "M" || !e.contains("args")) continue;
        if (e.value("name", "") == "process_name" && e["args"].value("name", "") == taskSchedulerName)
            scheduler = e["pid"].get<std::uint32_t>();
    }
    if (!scheduler) return events;
    for (const OrderedJson& e : events)
        if (e.value("ph", "") == "M" && e.value("name", "") == "process_sort_index" && e["pid"] == *scheduler)
            sortIndex = e["args"].value("sort_index", 0U);
    const std::uint32_t aiCpu = *scheduler + (1U << kSortIndexShift);

    // The AI CPU tasks, and the flow ends at their starts (same stream, same time).
    std::set<std::uint64_t> streams;
    std::set<std::pair<std::uint64_t, std::string>> starts;
    for (OrderedJson& e : events) {
        if (e.value("ph", "") != "X" || e["pid"] != *scheduler || !e.contains("args") ||
            e["args"].value("Task Type", "") != "AI_CPU")
            continue;
        e["pid"] = aiCpu;
        streams.insert(e["tid"].get<std::uint64_t>());
        starts.emplace(e["tid"].get<std::uint64_t>(), e["ts"].dump());
    }
    if (streams.empty()) return events;
    for (OrderedJson& e : events)
        if (e.value("ph", "") == "f" && e["pid"] == *scheduler && starts.contains({e["tid"].get<std::uint64_t>(), e["ts"].dump()}))
            e["pid"] = aiCpu;

    std::vector<OrderedJson> layer;
    layer.push_back(meta("process_name", aiCpu, 0, "name", kEra2023AiCpuLayerName));
    for (std::uint64_t stream : streams) {
        layer.push_back(meta("thread_name", aiCpu, stream, "name", "Stream " + std::to_string(stream)));
        layer.push_back(meta("thread_sort_index", aiCpu, stream, "sort_index", stream));
    }
    layer.push_back(meta("process_labels", aiCpu, 0, "labels", "NPU"));
    layer.push_back(meta("process_sort_index", aiCpu, 0, "sort_index", sortIndex + 1));
    // Right after the Task Scheduler's metadata, so the layers stay in their order.
    std::size_t at = 0;
    for (std::size_t i = 0; i < events.size(); ++i)
        if (events[i].value("ph", "") == "M" && events[i]["pid"] == *scheduler) at = i + 1;
    events.insert(events.begin() + static_cast<std::ptrdiff_t>(at), layer.begin(), layer.end());
    return events;
}

}  // namespace ascendsim

#include "sim/replay/input/hccl_transfer_reader.h"

#include <algorithm>
#include <map>
#include <string>

#include "sim/replay/input/export_file.h"
#include "sim/replay/input/trace_view_json.h"

namespace ascendsim {

namespace {

using trace_json::argOf;
using trace_json::arrayObjects;
using trace_json::integerOf;
using trace_json::valueOf;

bool isTransferTask(std::string_view name) { return name == "Memcpy" || name == "Reduce_Inline"; }

}  // namespace

std::optional<std::int64_t> microsecondsTextToNs(std::string_view text) {
    while (!text.empty() && (text.back() == '\t' || text.back() == ' ')) text.remove_suffix(1);
    const std::size_t dot = text.find('.');
    const std::optional<std::int64_t> whole = integerOf(text.substr(0, dot));
    if (!whole || *whole < 0) return std::nullopt;
    std::int64_t fractionNs = 0;
    if (dot != std::string_view::npos) {
        const std::string_view fraction = text.substr(dot + 1);
        if (fraction.empty() || fraction.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
        std::int64_t scale = 100;  // the first fractional digit is 100 ns
        for (std::size_t i = 0; i < fraction.size() && scale > 0; ++i, scale /= 10) fractionNs += (fraction[i] - '0') * scale;
    }
    return *whole * 1000 + fractionNs;
}

std::vector<HcclTransfer> parseTraceViewTransfers(std::string_view json, const std::filesystem::path& source) {
    const std::vector<std::string_view> events = arrayObjects(json);
    std::optional<std::string_view> hcclPid;
    for (std::string_view event : events) {
        if (valueOf(event, "ph") == "M" && valueOf(event, "name") == "process_name" && argOf(event, "name") == "HCCL") {
            hcclPid = valueOf(event, "pid");
            break;
        }
    }
    std::vector<HcclTransfer> transfers;
    if (!hcclPid) return transfers;
    for (std::string_view event : events) {
        if (valueOf(event, "ph") != "X" || valueOf(event, "pid") != hcclPid) continue;
        const std::optional<std::string_view> name = valueOf(event, "name");
        if (!name || !isTransferTask(*name) || valueOf(event, "tid") == "0") continue;
        const auto bad = [&](const char* what) {
            return ReplayInputError(source.string() + ": HCCL " + std::string(*name) + " event: " + what);
        };
        const std::optional<std::string_view> ts = valueOf(event, "ts");
        const std::optional<std::string_view> dur = valueOf(event, "dur");
        const std::optional<std::int64_t> startNs = ts ? microsecondsTextToNs(*ts) : std::nullopt;
        if (!startNs || !dur) throw bad("no ts / dur");
        double durationUs = 0.0;
        try {
            durationUs = std::stod(std::string(*dur));
        } catch (const std::exception&) {
            throw bad("dur is not a number");
        }
        const std::optional<std::string_view> size = argOf(event, "size(Byte)");
        const std::optional<std::int64_t> bytes = size ? integerOf(*size) : std::nullopt;
        if (!bytes || *bytes < 0) throw bad("no size(Byte)");
        HcclTransfer transfer;
        transfer.startNs = *startNs;
        transfer.endNs = *startNs + static_cast<std::int64_t>(durationUs * 1000.0 + 0.5);
        transfer.bytes = static_cast<std::uint64_t>(*bytes);
        transfer.reduces = *name == "Reduce_Inline";
        transfer.link = std::string(argOf(event, "link type").value_or(""));
        transfers.push_back(std::move(transfer));
    }
    return transfers;
}

std::vector<HcclTransfer> readTraceViewTransfers(const std::filesystem::path& kernelDetails) {
    const std::filesystem::path trace = kernelDetails.parent_path() / "trace_view.json";
    if (!std::filesystem::is_regular_file(trace)) return {};
    return parseTraceViewTransfers(readExportFile(trace), trace);
}

std::vector<HcclTransfer> readDbTransfers(const SqliteReader& db) {
    std::vector<HcclTransfer> transfers;
    if (!db.hasTable("COMMUNICATION_TASK_INFO") || !db.hasTable("TASK") || !db.hasTable("STRING_IDS")) return transfers;
    std::map<std::int64_t, std::string> links;
    if (db.hasTable("ENUM_HCCL_LINK_TYPE"))
        db.query("SELECT id, name FROM ENUM_HCCL_LINK_TYPE", [&](const SqliteRow& row) { links[row.integer(0)] = row.text(1); });
    db.query(
        "SELECT s.value, c.size, c.linkType, t.startNs, t.endNs FROM COMMUNICATION_TASK_INFO c "
        "JOIN STRING_IDS s ON s.id = c.taskType JOIN TASK t ON t.globalTaskId = c.globalTaskId "
        "WHERE s.value IN ('Memcpy', 'Reduce_Inline') ORDER BY t.startNs",
        [&](const SqliteRow& row) {
            HcclTransfer transfer;
            transfer.reduces = row.text(0) == "Reduce_Inline";
            transfer.bytes = static_cast<std::uint64_t>(std::max<std::int64_t>(row.integer(1), 0));
            const auto link = links.find(row.integer(2));
            transfer.link = link == links.end() ? "" : link->second;
            transfer.startNs = row.integer(3);
            transfer.endNs = row.integer(4);
            transfers.push_back(std::move(transfer));
        });
    return transfers;
}

}  // namespace ascendsim

#include "sim/replay/input/profiler_db_reader.h"

#include <cstdint>
#include <optional>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "sim/replay/input/autograd_links.h"
#include "sim/replay/input/hccl_transfer_reader.h"
#include "sim/replay/input/kernel_details_reader.h"
#include "sim/replay/input/block_count.h"
#include "sim/replay/input/sqlite_reader.h"

namespace ascendsim {

namespace {

namespace fs = std::filesystem;

constexpr double kNsPerUs = 1000.0;

void requireTables(const SqliteReader& db, const fs::path& file) {
    for (const char* table : {"TASK", "COMPUTE_TASK_INFO", "STRING_IDS"}) {
        if (!db.hasTable(table)) {
            throw ReplayInputError(file.string() + ": no table " + table + " (not a torch_npu profiler DB export)");
        }
    }
}

std::unordered_map<std::int64_t, std::string> stringIds(const SqliteReader& db) {
    std::unordered_map<std::int64_t, std::string> ids;
    db.query("SELECT id, value FROM STRING_IDS", [&](const SqliteRow& row) { ids[row.integer(0)] = row.text(1); });
    return ids;
}

// profiler_info_*.json of the same *_ascend_pt directory names torch_npu's version only in 8.3.
bool statesVersions(const fs::path& dbFile) {
    const fs::path resultDir = dbFile.parent_path().parent_path();
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(resultDir, ec)) {
        const std::string name = entry.path().filename().string();
        if (!name.starts_with("profiler_info") || !name.ends_with(".json")) continue;
        std::ifstream in(entry.path());
        std::ostringstream text;
        text << in.rdbuf();
        if (text.str().find("torch_npu_version") != std::string::npos) return true;
    }
    return false;
}

void readPmu(const SqliteReader& db, const std::unordered_map<std::int64_t, std::string>& ids,
             std::unordered_map<std::int64_t, RealKernel*>& byTask) {
    if (!db.hasTable("TASK_PMU_INFO")) return;
    std::unordered_map<std::int64_t, std::unordered_map<std::string, double>> values;
    db.query("SELECT globalTaskId, name, value FROM TASK_PMU_INFO", [&](const SqliteRow& row) {
        const auto name = ids.find(row.integer(1));
        if (name != ids.end()) values[row.integer(0)][name->second] = row.number(2);
    });
    for (auto& [task, metrics] : values) {
        const auto kernel = byTask.find(task);
        if (kernel == byTask.end()) continue;
        for (const auto& [name, value] : metrics) {
            if (isPipeColumn(name)) kernel->second->pipeRatios[name] = value;
        }
        for (const char* prefix : {"aic_", "aiv_", ""}) {
            const std::string p(prefix);
            const auto cycles = metrics.find(p + "total_cycles");
            const auto time = metrics.find(p + "total_time");
            if (cycles != metrics.end() && cycles->second <= 0.0) kernel->second->idleSides.push_back(p);
            if (cycles == metrics.end() || time == metrics.end() || cycles->second <= 0.0 || time->second <= 0.0)
                continue;
            kernel->second->sides.push_back({p, cycles->second, time->second / kNsPerUs});
        }
        dropIdleSideRatios(*kernel->second);
    }
}

}  // namespace

RealProfile readProfilerDb(const fs::path& file) {
    const SqliteReader db(file);
    requireTables(db, file);
    RealProfile profile;
    profile.source = file;
    profile.exportType = "db";
    if (db.hasTable("NPU_INFO")) {
        db.query("SELECT name FROM NPU_INFO LIMIT 1", [&](const SqliteRow& row) { profile.npuName = row.text(0); });
    }
    profile.era = statesVersions(file)                  ? FormatVersion::Cann83
                  : profile.npuName.starts_with("Ascend910A") ? FormatVersion::Era2024
                                                        : FormatVersion::Cann80;
    const auto ids = stringIds(db);
    const auto lookup = [&](std::int64_t id) {
        const auto it = ids.find(id);
        return it == ids.end() ? std::string("N/A") : unquoteCell(it->second);
    };
    db.query(
        "SELECT c.globalTaskId, c.name, c.opType, c.taskType, c.blockDim, c.mixBlockDim, c.inputShapes, "
        "c.inputDataTypes, c.inputFormats, c.outputShapes, c.outputDataTypes, c.outputFormats, "
        "MIN(t.startNs), MAX(t.endNs), MIN(t.streamId) FROM COMPUTE_TASK_INFO c JOIN TASK t ON t.globalTaskId = c.globalTaskId "
        "GROUP BY c.globalTaskId ORDER BY MIN(t.startNs), c.globalTaskId",
        [&](const SqliteRow& row) {
            RealKernel kernel;
            kernel.sourceLine = static_cast<std::size_t>(row.integer(0));
            kernel.name = lookup(row.integer(1));
            kernel.type = lookup(row.integer(2));
            kernel.acceleratorCore = lookup(row.integer(3));
            // A block count outside 0 .. 2^32 - 1 is a corrupt row, not one to wrap.
            const auto blocks = [&](int column, const char* field) {
                const std::int64_t value = row.integer(column);
                const std::optional<std::uint32_t> count = blockCountFrom(static_cast<double>(value));
                if (!count)
                    throw ReplayInputError(file.string() + ": COMPUTE_TASK_INFO globalTaskId " +
                                           std::to_string(row.integer(0)) + ": " + field + " " +
                                           std::to_string(value) + " is not a block count");
                return *count;
            };
            kernel.blockDim = blocks(4, "blockDim");
            kernel.mixBlockDim = blocks(5, "mixBlockDim");
            kernel.inputShapes = lookup(row.integer(6));
            kernel.inputDtypes = lookup(row.integer(7));
            kernel.inputFormats = lookup(row.integer(8));
            kernel.outputShapes = lookup(row.integer(9));
            kernel.outputDtypes = lookup(row.integer(10));
            kernel.outputFormats = lookup(row.integer(11));
            kernel.durationUs = static_cast<double>(row.integer(13) - row.integer(12)) / kNsPerUs;
            kernel.startNs = row.integer(12);
            kernel.stream = std::to_string(row.integer(14));
            profile.kernels.push_back(std::move(kernel));
        });
    profile.hasShapes = false;
    for (const auto& kernel : profile.kernels) profile.hasShapes |= kernel.type != "N/A";
    std::unordered_map<std::int64_t, RealKernel*> byTask;
    for (auto& kernel : profile.kernels) byTask[static_cast<std::int64_t>(kernel.sourceLine)] = &kernel;
    readPmu(db, ids, byTask);
    profile.hcclTransfers = readDbTransfers(db);
    readDbAutogradLinks(db, profile.kernels);
    if (db.hasTable("COMMUNICATION_OP")) {
        db.query("SELECT count(*), COALESCE(SUM(endNs - startNs), 0) FROM COMMUNICATION_OP", [&](const SqliteRow& row) {
            profile.communicationTasks = static_cast<std::uint64_t>(row.integer(0));
            profile.communicationUs = row.number(1) / kNsPerUs;
        });
    }
    return profile;
}

}  // namespace ascendsim

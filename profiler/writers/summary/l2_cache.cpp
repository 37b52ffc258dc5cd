#include "profiler/writers/summary/l2_cache.h"

#include <algorithm>
#include <numeric>

#include "profiler/format/number_format.h"

namespace ascendsim {

namespace {
constexpr int kRateDigits = 6;
}

L2CacheRates l2CacheRates(const TaskResult& task, const ChipConfig& chip) {
    PmuCounters c = task.cubeSum;
    c += task.vectorSum;
    const std::uint64_t hits = c[PmuEvent::L2WriteHit] + c[PmuEvent::L2R0ReadHit] + c[PmuEvent::L2R1ReadHit];
    const std::uint64_t misses = c[PmuEvent::L2WriteMissAllocate] + c[PmuEvent::L2R0ReadMissAllocate] +
                                 c[PmuEvent::L2R1ReadMissAllocate];
    L2CacheRates rates;
    rates.accesses = hits + misses;
    if (rates.accesses == 0) return rates;
    rates.hitRate = static_cast<double>(hits) / static_cast<double>(rates.accesses);
    if (chip.l2.lineBytes != 0) {
        const double victimLines = static_cast<double>(c[PmuEvent::MainMemWrite]) *
                                   pmuEventInfo(PmuEvent::MainMemWrite).bytesPerCount / chip.l2.lineBytes;
        rates.victimRate = victimLines / static_cast<double>(rates.accesses);
    }
    return rates;
}

CsvTable buildL2CacheTable(const RunRecord& run, const ProfilerConfig& config) {
    CsvTable table;
    if (!config.l2Cache || config.level == ProfilerLevel::LevelNone || !config.activityNpu) return table;
    if (run.chip == nullptr) return table;
    const bool deviceIdColumn = config.formatVersion == FormatVersion::Cann83;
    const bool hitRateShown = run.chip->organisation != CoreOrganisation::Split;
    if (deviceIdColumn) table.header.emplace_back("Device_id");
    for (const char* name : {"Stream Id", "Task Id", "Hit Rate", "Victim Rate", "Op Name"}) {
        table.header.emplace_back(name);
    }
    std::vector<std::size_t> order(run.kernels.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return run.kernels[a].device.startNs < run.kernels[b].device.startNs;
    });
    for (std::size_t index : order) {
        const KernelRecord& kernel = run.kernels[index];
        if (kernel.device.type == TaskType::AiCpu) continue;
        const L2CacheRates rates = l2CacheRates(kernel.device, *run.chip);
        CsvRow row;
        if (deviceIdColumn) row.push_back(std::to_string(run.deviceId));
        row.push_back(std::to_string(kernel.device.streamId));
        row.push_back(std::to_string(kernel.taskId));
        row.push_back(hitRateShown ? pythonFloatRepr(sqliteRound(rates.hitRate, kRateDigits)) : "N/A");
        row.push_back(pythonFloatRepr(sqliteRound(rates.victimRate, kRateDigits)));
        row.push_back(kernel.name);
        table.rows.push_back(std::move(row));
    }
    return table;
}

std::string renderL2CacheCsv(const RunRecord& run, const ProfilerConfig& config) {
    return renderCsv(buildL2CacheTable(run, config), CsvDialect::Cann);
}

bool writeL2CacheCsv(const std::filesystem::path& outputDir, const RunRecord& run, const ProfilerConfig& config) {
    return writeCsvFile(outputDir / "l2_cache.csv", buildL2CacheTable(run, config), CsvDialect::Cann);
}

}  // namespace ascendsim

#include "profiler/metrics/task_metrics.h"

#include <algorithm>
#include <cmath>

namespace ascendsim {

namespace {

constexpr double kHzPerMhz = 1e6;
// Each cube MAC computes a multiply and an add: two floating-point operations.
constexpr double kOpsPerMac = 2.0;

std::uint64_t sumEvents(const PmuCounters& counters, const std::vector<PmuEvent>& events) {
    std::uint64_t total = 0;
    for (PmuEvent e : events) total += counters[e];
    return total;
}

double ratioOf(std::uint64_t count, std::uint64_t totalCycles) {
    return totalCycles == 0 ? 0.0 : static_cast<double>(count) / static_cast<double>(totalCycles);
}

}  // namespace

bool blockOnSide(const BlockResult& block, CoreSide side) {
    switch (side) {
    case CoreSide::Aic: return block.coreKind == CoreKind::Cube || block.coreKind == CoreKind::Coupled;
    case CoreSide::Aiv: return block.coreKind == CoreKind::Vector;
    case CoreSide::Coupled: return block.coreKind != CoreKind::Vector;
    }
    return false;
}

std::vector<CoreSide> chipCoreSides(const ChipConfig& chip) {
    if (chip.organisation == CoreOrganisation::Split) return {CoreSide::Aic, CoreSide::Aiv};
    return {CoreSide::Coupled};
}

SideCounters sideCounters(const TaskResult& task, const ChipConfig& chip, CoreSide side) {
    SideCounters result;
    const bool vector = side == CoreSide::Aiv;
    result.counters = vector ? task.vectorSum : task.cubeSum;
    result.freqMhz = vector && chip.vectorCoreFreqMhz > 0 ? chip.vectorCoreFreqMhz : chip.aiCoreFreqMhz;
    result.coreCount = vector ? chip.vectorCoreCount : chip.aiCoreCount;
    for (const BlockResult& block : task.blocks) {
        if (blockOnSide(block, side)) ++result.blockCount;
    }
    if (result.blockCount == 0 && result.counters.totalCycles != 0) {
        // Counters without per-block detail: the task's block dims say how many blocks ran.
        const bool mainSideIsVector =
            task.type == TaskType::AiVectorCore || task.type == TaskType::MixAiv;
        result.blockCount = std::max<std::uint32_t>(
            1, vector == mainSideIsVector ? task.blockDim : task.mixBlockDim);
    }
    return result;
}

double coreTimeUs(const SideCounters& side) {
    if (side.blockCount == 0 || side.freqMhz <= 0.0) return 0.0;
    const double blocks = side.blockCount;
    const double waves = side.coreCount == 0 ? 1.0 : std::ceil(blocks / side.coreCount);
    return static_cast<double>(side.counters.totalCycles) / side.freqMhz / blocks * waves;
}

double evaluateMetric(const MetricColumn& column, const SideCounters& side, const ChipConfig& chip) {
    const PmuCounters& c = side.counters;
    const std::uint64_t cycles = c.totalCycles;
    switch (column.formula) {
    case MetricFormula::TotalTime: return coreTimeUs(side);
    case MetricFormula::TotalCycles: return static_cast<double>(cycles);
    case MetricFormula::Ratio: return ratioOf(sumEvents(c, column.events), cycles);
    case MetricFormula::PipeTime: return coreTimeUs(side) * ratioOf(sumEvents(c, column.events), cycles);
    case MetricFormula::MissRate: {
        const std::uint64_t requests = c[column.events.at(1)];
        return requests == 0 ? 0.0 : static_cast<double>(c[column.events.at(0)]) / requests;
    }
    case MetricFormula::BandwidthGiBps: {
        if (cycles == 0 || side.freqMhz <= 0.0) return 0.0;
        double bytes = 0.0;
        for (PmuEvent e : column.events) {
            bytes += static_cast<double>(c[e]) * pmuEventInfo(e).bytesPerCount;
        }
        const double seconds = static_cast<double>(cycles) / (side.freqMhz * kHzPerMhz);
        return bytes / seconds / kBytesPerGiB;
    }
    case MetricFormula::DataKiB: {
        double bytes = 0.0;
        for (PmuEvent e : column.events) {
            bytes += static_cast<double>(c[e]) * pmuEventInfo(e).bytesPerCount;
        }
        return bytes / kBytesPerKiB;
    }
    case MetricFormula::Count: return static_cast<double>(sumEvents(c, column.events));
    case MetricFormula::CubeFops: {
        // mac_fp16_ratio × task_cyc × 16·16·16·2 + mac_int8_ratio × task_cyc × 16·16·32·2, i.e.
        // one busy cycle = one fractal (hardware.md §3.2); the fractal shape is the chip's.
        const double fp16Fractal = kOpsPerMac * chip.cube.fractalM * chip.cube.fractalK * chip.cube.fractalN;
        const double int8Fractal = kOpsPerMac * chip.cube.fractalM * chip.cube.int8FractalK * chip.cube.fractalN;
        return static_cast<double>(c[column.events.at(0)]) * fp16Fractal +
               static_cast<double>(c[column.events.at(1)]) * int8Fractal;
    }
    case MetricFormula::MemoryBound: {
        const double mte2 = ratioOf(c[column.events.at(0)], cycles);
        const double compute = std::max(ratioOf(c[column.events.at(1)], cycles),
                                        ratioOf(c[column.events.at(2)], cycles));
        return compute == 0.0 ? 0.0 : mte2 / compute;
    }
    }
    return 0.0;
}

std::vector<double> evaluateGroup(AicMetrics group, CoreSide side, const SideCounters& counters,
                                  const ChipConfig& chip) {
    std::vector<double> values;
    for (const MetricColumn& column : metricColumns(group, side)) {
        values.push_back(evaluateMetric(column, counters, chip));
    }
    return values;
}

double cubeUtilizationPercent(const TaskResult& task, const ChipConfig& chip, double durationUs) {
    if (durationUs <= 0.0 || chip.aiCoreFreqMhz <= 0.0 || chip.aiCoreCount == 0) return 0.0;
    const double cycles = static_cast<double>(task.cubeSum.totalCycles);
    return cycles / (chip.aiCoreFreqMhz * chip.aiCoreCount) * 100.0 / durationUs;
}

}  // namespace ascendsim

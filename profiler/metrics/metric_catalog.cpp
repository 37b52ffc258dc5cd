#include "profiler/metrics/metric_catalog.h"

#include <algorithm>
#include <map>
#include <set>

namespace ascendsim {

namespace {

using F = MetricFormula;
using E = PmuEvent;

MetricColumn time(std::string_view name, std::vector<PmuEvent> events) {
    return {name, F::PipeTime, std::move(events)};
}
MetricColumn ratio(std::string_view name, std::vector<PmuEvent> events) {
    return {name, F::Ratio, std::move(events)};
}
MetricColumn bw(std::string_view name, PmuEvent event) { return {name, F::BandwidthGiBps, {event}}; }
MetricColumn count(std::string_view name, PmuEvent event) { return {name, F::Count, {event}}; }
MetricColumn datas(std::string_view name, PmuEvent event) { return {name, F::DataKiB, {event}}; }

const MetricColumn kTotalTime{"total_time", F::TotalTime, {}};
const MetricColumn kTotalCycles{"total_cycles", F::TotalCycles, {}};
const MetricColumn kIcacheMissRate{"icache_miss_rate", F::MissRate, {E::IcacheMiss, E::IcacheReq}};

std::vector<MetricColumn> withTotals(std::vector<MetricColumn> columns) {
    columns.insert(columns.begin(), {kTotalTime, kTotalCycles});
    return columns;
}

// PipeUtilization. 910B AIC is the "PipeUtilizationExct" event set: mac = mac_fp + mac_int,
// mte1 = 0x302 (hardware.md §3.4).
std::vector<MetricColumn> pipeUtilization(CoreSide side) {
    switch (side) {
    case CoreSide::Aic:
        return withTotals({time("mac_time", {E::MacFp, E::MacInt}),
                           ratio("mac_ratio", {E::MacFp, E::MacInt}),
                           time("scalar_time", {E::ScalarBusy}), ratio("scalar_ratio", {E::ScalarBusy}),
                           time("mte1_time", {E::Mte1BusyExtra}), ratio("mte1_ratio", {E::Mte1BusyExtra}),
                           time("mte2_time", {E::Mte2Busy}), ratio("mte2_ratio", {E::Mte2Busy}),
                           time("fixpipe_time", {E::FixpipeBusy}), ratio("fixpipe_ratio", {E::FixpipeBusy}),
                           kIcacheMissRate});
    case CoreSide::Aiv:
        return withTotals({time("vec_time", {E::VecBusy}), ratio("vec_ratio", {E::VecBusy}),
                           time("scalar_time", {E::ScalarBusy}), ratio("scalar_ratio", {E::ScalarBusy}),
                           time("mte2_time", {E::Mte2Busy}), ratio("mte2_ratio", {E::Mte2Busy}),
                           time("mte3_time", {E::Mte3Busy}), ratio("mte3_ratio", {E::Mte3Busy}),
                           kIcacheMissRate});
    case CoreSide::Coupled:
        return withTotals({time("vec_time", {E::VecBusy}), ratio("vec_ratio", {E::VecBusy}),
                           time("mac_time", {E::MacBusy}), ratio("mac_ratio", {E::MacBusy}),
                           time("scalar_time", {E::ScalarBusy}), ratio("scalar_ratio", {E::ScalarBusy}),
                           time("mte1_time", {E::Mte1Busy}), ratio("mte1_ratio", {E::Mte1Busy}),
                           time("mte2_time", {E::Mte2Busy}), ratio("mte2_ratio", {E::Mte2Busy}),
                           time("mte3_time", {E::Mte3Busy}), ratio("mte3_ratio", {E::Mte3Busy}),
                           kIcacheMissRate,
                           {"memory_bound", F::MemoryBound, {E::Mte2Busy, E::MacBusy, E::VecBusy}}});
    }
    return {};
}

std::vector<MetricColumn> arithmeticUtilization(CoreSide side) {
    const MetricColumn macFp16 = ratio("mac_fp16_ratio", {E::MacFp16});
    const MetricColumn macInt8 = ratio("mac_int8_ratio", {E::MacInt8});
    const MetricColumn cubeFops{"cube_fops", F::CubeFops, {E::MacFp16, E::MacInt8}};
    const MetricColumn vecFp32 = ratio("vec_fp32_ratio", {E::VecFp32});
    const MetricColumn vecFp16 = ratio("vec_fp16_ratio", {E::VecFp16_128Lane, E::VecFp16_64Lane});
    const MetricColumn vecInt32 = ratio("vec_int32_ratio", {E::VecInt32});
    const MetricColumn vecMisc = ratio("vec_misc_ratio", {E::VecMisc});
    // vector_fops: the simulator counts vector element operations directly (VectorOps).
    const MetricColumn vectorFops = count("vector_fops", E::VectorOps);
    switch (side) {
    case CoreSide::Aic: return withTotals({macFp16, macInt8, cubeFops});
    case CoreSide::Aiv: return withTotals({vecFp32, vecFp16, vecInt32, vecMisc, vectorFops});
    case CoreSide::Coupled:
        return withTotals({macFp16, macInt8, vecFp32, vecFp16, vecInt32, vecMisc, cubeFops, vectorFops});
    }
    return {};
}

std::vector<MetricColumn> memory(CoreSide side) {
    const MetricColumn ubRead = bw("ub_read_bw", E::UbRead), ubWrite = bw("ub_write_bw", E::UbWrite);
    const MetricColumn l1Read = bw("l1_read_bw", E::L1Read), l1Write = bw("l1_write_bw", E::L1Write);
    const MetricColumn mainRead = bw("main_mem_read_bw", E::MainMemRead);
    const MetricColumn mainWrite = bw("main_mem_write_bw", E::MainMemWrite);
    const MetricColumn l2Read = bw("l2_read_bw", E::L2Read), l2Write = bw("l2_write_bw", E::L2Write);
    switch (side) {
    case CoreSide::Aic: return withTotals({l1Read, l1Write, mainRead, mainWrite, l2Read, l2Write});
    case CoreSide::Aiv: return withTotals({ubRead, ubWrite, mainRead, mainWrite, l2Read, l2Write});
    case CoreSide::Coupled:
        return withTotals({ubRead, ubWrite, l1Read, l1Write, l2Read, l2Write, mainRead, mainWrite});
    }
    return {};
}

std::vector<MetricColumn> memoryL0(CoreSide side) {
    const std::vector<MetricColumn> cube = {
        bw("l0a_read_bw", E::L0aRead), bw("l0a_write_bw", E::L0aWrite),
        bw("l0b_read_bw", E::L0bRead), bw("l0b_write_bw", E::L0bWrite),
        bw("l0c_read_bw_cube", E::L0cReadCube), bw("l0c_write_bw_cube", E::L0cWriteCube)};
    const std::vector<MetricColumn> vector = {bw("l0c_read_bw", E::L0cRead), bw("l0c_write_bw", E::L0cWrite)};
    switch (side) {
    case CoreSide::Aic: return withTotals(cube);
    case CoreSide::Aiv: return withTotals(vector);
    case CoreSide::Coupled: {
        std::vector<MetricColumn> all = cube;
        all.insert(all.begin() + 4, vector.begin(), vector.end());
        return withTotals(all);
    }
    }
    return {};
}

std::vector<MetricColumn> memoryUb(CoreSide side) {
    const MetricColumn readScalar = bw("ub_read_bw_scalar", E::UbReadScalar);
    const MetricColumn writeScalar = bw("ub_write_bw_scalar", E::UbWriteScalar);
    const MetricColumn readVector = bw("ub_read_bw_vector", E::UbReadVector);
    const MetricColumn writeVector = bw("ub_write_bw_vector", E::UbWriteVector);
    switch (side) {
    case CoreSide::Aic: return withTotals({readScalar, writeScalar});
    case CoreSide::Aiv:
    case CoreSide::Coupled: return withTotals({readVector, writeVector, readScalar, writeScalar});
    }
    return {};
}

std::vector<MetricColumn> resourceConflict(CoreSide side) {
    const std::vector<MetricColumn> conflicts = {
        ratio("vec_bankgroup_cflt_ratio", {E::VecBankGroupConflict}),
        ratio("vec_bank_cflt_ratio", {E::VecBankConflict}),
        ratio("vec_resc_cflt_ratio", {E::VecResourceConflict})};
    switch (side) {
    case CoreSide::Aic: return withTotals({});
    case CoreSide::Aiv: return withTotals(conflicts);
    case CoreSide::Coupled: {
        std::vector<MetricColumn> all = conflicts;
        const std::vector<MetricColumn> queues = {
            ratio("mte1_iq_full_ratio", {E::Mte1QueueFull}), ratio("mte2_iq_full_ratio", {E::Mte2QueueFull}),
            ratio("mte3_iq_full_ratio", {E::Mte3QueueFull}), ratio("cube_iq_full_ratio", {E::CubeQueueFull}),
            ratio("vec_iq_full_ratio", {E::VecQueueFull}),
            ratio("iq_full_ratio", {E::Mte1QueueFull, E::Mte2QueueFull, E::Mte3QueueFull,
                                    E::CubeQueueFull, E::VecQueueFull})};
        all.insert(all.end(), queues.begin(), queues.end());
        return withTotals(all);
    }
    }
    return {};
}

std::vector<MetricColumn> l2Cache(CoreSide) {
    return withTotals({count("write_cache_hit", E::L2WriteHit),
                       count("write_cache_miss_allocate", E::L2WriteMissAllocate),
                       count("r0_read_cache_hit", E::L2R0ReadHit),
                       count("r0_read_cache_miss_allocate", E::L2R0ReadMissAllocate),
                       count("r1_read_cache_hit", E::L2R1ReadHit),
                       count("r1_read_cache_miss_allocate", E::L2R1ReadMissAllocate)});
}

std::vector<MetricColumn> memoryAccess(CoreSide) {
    return withTotals({datas("read_main_memory_datas", E::BytesMainMemRead),
                       datas("write_main_memory_datas", E::BytesMainMemWrite),
                       datas("GM_to_L1_datas", E::BytesGmToL1), datas("L0C_to_L1_datas", E::BytesL0cToL1),
                       datas("L0C_to_GM_datas", E::BytesL0cToGm), datas("GM_to_UB_datas", E::BytesGmToUb),
                       datas("UB_to_GM_datas", E::BytesUbToGm)});
}

std::vector<MetricColumn> buildColumns(AicMetrics group, CoreSide side) {
    switch (group) {
    case AicMetrics::None: return {};
    case AicMetrics::PipeUtilization: return pipeUtilization(side);
    case AicMetrics::ArithmeticUtilization: return arithmeticUtilization(side);
    case AicMetrics::Memory: return memory(side);
    case AicMetrics::MemoryL0: return memoryL0(side);
    case AicMetrics::MemoryUB: return memoryUb(side);
    case AicMetrics::ResourceConflictRatio: return resourceConflict(side);
    case AicMetrics::L2Cache: return l2Cache(side);
    case AicMetrics::MemoryAccess: return memoryAccess(side);
    }
    return {};
}

bool contains(std::string_view text, std::string_view part) {
    return text.find(part) != std::string_view::npos;
}

}  // namespace

const std::vector<MetricColumn>& metricColumns(AicMetrics group, CoreSide side) {
    static const std::map<std::pair<AicMetrics, CoreSide>, std::vector<MetricColumn>> kCatalog = [] {
        std::map<std::pair<AicMetrics, CoreSide>, std::vector<MetricColumn>> catalog;
        for (int g = 0; g <= static_cast<int>(AicMetrics::MemoryAccess); ++g) {
            for (CoreSide s : {CoreSide::Aic, CoreSide::Aiv, CoreSide::Coupled}) {
                catalog[{static_cast<AicMetrics>(g), s}] = buildColumns(static_cast<AicMetrics>(g), s);
            }
        }
        return catalog;
    }();
    return kCatalog.at({group, side});
}

const std::vector<MetricColumn>& metricColumns(AicMetrics group, CoreSide side, MetricEdition edition) {
    if (edition == MetricEdition::Current || group != AicMetrics::MemoryL0) return metricColumns(group, side);
    static const std::map<CoreSide, std::vector<MetricColumn>> kCann6MemoryL0 = [] {
        std::map<CoreSide, std::vector<MetricColumn>> columns;
        for (CoreSide s : {CoreSide::Aic, CoreSide::Aiv, CoreSide::Coupled}) {
            std::vector<MetricColumn> list = memoryL0(s);
            // After total_time, total_cycles: both core kinds run a scalar unit.
            list.insert(list.begin() + 2,
                        {ratio("scalar_ld_ratio", {E::ScalarLoad}), ratio("scalar_st_ratio", {E::ScalarStore})});
            columns[s] = std::move(list);
        }
        return columns;
    }();
    return kCann6MemoryL0.at(side);
}

std::string metricHeaderName(const MetricColumn& column, CoreSide side) {
    if (column.formula == MetricFormula::TotalTime) {
        return side == CoreSide::Aiv ? "aiv_time(us)" : "aicore_time(us)";
    }
    std::string name = side == CoreSide::Aic ? "aic_" : side == CoreSide::Aiv ? "aiv_" : "";
    name += column.name;
    if (contains(column.name, "datas")) return name + "(KB)";
    if (contains(column.name, "_bw")) return name + "(GB/s)";
    if (contains(column.name, "time")) return name + "(us)";
    return name;
}

std::vector<PmuEvent> profiledEvents(AicMetrics group, CoreSide side) {
    // The vector cores program PipeUtilization's classic eight events although they have no cube
    // or MTE1 pipe (those read 0, and kernel_details shows no aiv_mac/aiv_mte1 column): msprof's
    // analysis expects all eight under "PipeUtilization" (csrc pipeut_calculator.h; the 910B test
    // sample.json of Ascend/msprof's Python tests lists aiv_profiling_events
    // "0x8,0xa,0x9,0xb,0xc,0xd,0x54,0x55").
    if (group == AicMetrics::PipeUtilization && side == CoreSide::Aiv)
        return {PmuEvent::VecBusy, PmuEvent::MacBusy, PmuEvent::ScalarBusy, PmuEvent::Mte1Busy,
                PmuEvent::Mte2Busy, PmuEvent::Mte3Busy, PmuEvent::IcacheReq, PmuEvent::IcacheMiss};
    std::vector<PmuEvent> events;
    std::set<std::uint16_t> seen;
    for (const MetricColumn& column : metricColumns(group, side)) {
        std::vector<PmuEvent> sorted = column.events;
        std::sort(sorted.begin(), sorted.end(), [](PmuEvent a, PmuEvent b) {
            return pmuEventInfo(a).hardwareId < pmuEventInfo(b).hardwareId;
        });
        for (PmuEvent e : sorted) {
            const std::uint16_t id = pmuEventInfo(e).hardwareId;
            if (id != 0 && seen.insert(id).second) events.push_back(e);
        }
    }
    return events;
}

}  // namespace ascendsim

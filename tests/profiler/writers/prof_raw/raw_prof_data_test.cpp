// The raw PROF data (profiler/writers/prof_raw): record sizes and fields as msprof's parsers read
// them (Ascend/msprof prof_common.h, msparser/data_struct_size_constant.py), the dictionaries that
// name them, and the profileConfig flags that select them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include "profiler/writers/communication/communication_timeline.h"
#include "profiler/writers/communication_test_support.h"
#include "profiler/writers/csv_table_test_support.h"
#include "profiler/writers/era2023/e2e_test_config.h"
#include "profiler/metrics/metric_catalog.h"
#include "profiler/writers/prof_raw/raw_device_data.h"
#include "profiler/writers/prof_raw/raw_hccl_data.h"
#include "profiler/writers/prof_raw/raw_host_data.h"
#include "profiler/writers/prof_raw/raw_l2_cache_data.h"
#include "profiler/writers/prof_raw/raw_msproftx.h"
#include "profiler/writers/prof_raw/raw_prof_data.h"
#include "profiler/writers/summary/l2_cache.h"
#include "profiler/writers/tree/profiler_info.h"
#include "support/scratch_dir.h"

namespace ascendsim {
namespace {

namespace fs = std::filesystem;
using namespace testing_support;

template <typename T>
T field(const std::string& bytes, std::size_t offset) {
    T v{};
    std::memcpy(&v, bytes.data() + offset, sizeof v);  // the test host is little-endian, as CANN's
    return v;
}

// threeKernelRun with the host calls that launched its kernels: one AscendCL call and, inside
// it, GE's Node@launch per kernel on thread 7.
RunRecord launchedRun(const ChipConfig& chip) {
    RunRecord run = threeKernelRun(chip);
    std::uint64_t t = 4000000;
    for (KernelRecord& k : run.kernels) {
        k.taskId = static_cast<std::uint32_t>(&k - run.kernels.data()) + 10;
        ApiRecord acl{ApiLevel::Acl, "aclnnAdd", t, t + 30000, 7, 0};
        ApiRecord launch{ApiLevel::Node, "launch", t + 10000, t + 20000, 7, k.correlationId};
        run.apis.push_back(acl);
        run.apis.push_back(launch);
        t += 100000;
    }
    return run;
}

TEST(RawProfData, ApiEventsAre40ByteMsprofApiRecordsInHostSystemCounts) {
    static const ChipConfig chip = splitChip();
    const RunRecord run = launchedRun(chip);
    RawTypeDictionary dict;
    const auto files = rawHostDataFiles(run, e2eConfig(), dict);
    const std::string& api = files.at("unaging.api_event.data.slice_0");
    ASSERT_EQ(api.size(), 40u * run.apis.size());
    EXPECT_EQ(field<std::uint16_t>(api, 0), 0x5A5A);
    EXPECT_EQ(field<std::uint16_t>(api, 2), kRawLevelAcl);
    EXPECT_EQ(field<std::uint32_t>(api, 4), 0x050000u);  // the first aclnn API of the ACL_NN family
    EXPECT_EQ(field<std::uint32_t>(api, 8), 7u);
    // 100 MHz counter: (1e12 ns + 4 ms) / 10.
    EXPECT_EQ(field<std::uint64_t>(api, 16), (kMonotonicAtStartNs + 4000000) / 10);
    EXPECT_EQ(field<std::uint64_t>(api, 24), (kMonotonicAtStartNs + 4030000) / 10);
    // The Node@launch record names its kernel through hash_dic.
    EXPECT_EQ(field<std::uint16_t>(api, 40 + 2), kRawLevelNode);
    EXPECT_EQ(field<std::uint32_t>(api, 40 + 4), 5u);  // MSPROF_REPORT_NODE_LAUNCH_TYPE
    const std::uint64_t item = field<std::uint64_t>(api, 40 + 32);
    EXPECT_NE(dict.hashText().find(std::to_string(item) + ":" + run.kernels[0].name + "\n"), std::string::npos);
    EXPECT_NE(dict.typeInfoText().find("20000_327680:aclnnAdd\n"), std::string::npos);
    EXPECT_NE(dict.typeInfoText().find("10000_5:launch\n"), std::string::npos);
}

TEST(RawProfData, NodeBasicInfoAndTaskTrackAre64ByteCompactRecordsInsideTheLaunch) {
    static const ChipConfig chip = splitChip();
    const RunRecord run = launchedRun(chip);
    RawTypeDictionary dict;
    const auto files = rawHostDataFiles(run, e2eConfig(), dict);
    const std::string& nodes = files.at("aging.compact.node_basic_info.slice_0");
    const std::string& tracks = files.at("aging.compact.task_track.slice_0");
    ASSERT_EQ(nodes.size(), 64u * 3);
    ASSERT_EQ(tracks.size(), 64u * 3);
    const std::uint64_t launchStart = (kMonotonicAtStartNs + 4010000) / 10;
    const std::uint64_t launchEnd = (kMonotonicAtStartNs + 4020000) / 10;
    EXPECT_EQ(field<std::uint16_t>(nodes, 2), kRawLevelNode);
    EXPECT_EQ(field<std::uint32_t>(nodes, 12), 29u);  // sizeof(MsprofNodeBasicInfo)
    EXPECT_EQ(field<std::uint64_t>(nodes, 16), launchStart);
    EXPECT_EQ(field<std::uint32_t>(nodes, 24 + 8), 2u);  // the Add kernel is an AI_VECTOR_CORE task
    // The MIX kernel (third): block dim 20, mix block dim 40 = 20 × ratio 2 in the high half.
    EXPECT_EQ(field<std::uint32_t>(nodes, 128 + 24 + 20), 20u | (2u << 16));
    EXPECT_EQ(field<std::uint32_t>(nodes, 128 + 24 + 8), 4u);  // MIX_AIC
    EXPECT_EQ(field<std::uint16_t>(tracks, 2), kRawLevelRuntime);
    EXPECT_EQ(field<std::uint64_t>(tracks, 16), launchEnd);
    EXPECT_EQ(field<std::uint16_t>(tracks, 26), run.kernels[0].device.streamId);
    EXPECT_EQ(field<std::uint32_t>(tracks, 28), run.kernels[0].taskId);
    EXPECT_NE(dict.typeInfoText().find("_" + std::to_string(field<std::uint64_t>(tracks, 32)) + ":KERNEL_AIVEC\n"),
              std::string::npos);
    // The MIX kernel's track is KERNEL_MIX_AIC, and GE reports its FFTS+ context id 0 beside its
    // node info: a 256 B context_id_info record (level 10000, type 4), op name id, 1 id, id 0.
    EXPECT_NE(dict.typeInfoText().find("_" + std::to_string(field<std::uint64_t>(tracks, 128 + 32)) +
                                       ":KERNEL_MIX_AIC\n"),
              std::string::npos);
    const std::string& ids = files.at("unaging.additional.context_id_info.slice_0");
    ASSERT_EQ(ids.size(), 256u);
    EXPECT_EQ(field<std::uint16_t>(ids, 2), kRawLevelNode);
    EXPECT_EQ(field<std::uint32_t>(ids, 4), 4u);
    EXPECT_EQ(field<std::uint64_t>(ids, 16), field<std::uint64_t>(nodes, 128 + 16));
    EXPECT_EQ(field<std::uint64_t>(ids, 24), field<std::uint64_t>(nodes, 128 + 24));  // the op name id
    EXPECT_EQ(field<std::uint32_t>(ids, 32), 1u);
    EXPECT_EQ(field<std::uint32_t>(ids, 36), 0u);
}

TEST(RawProfData, StarsLogHasAStartAndAnEndPerTaskInTimeOrder) {
    static const ChipConfig chip = splitChip();
    const RunRecord run = launchedRun(chip);
    const auto files = rawDeviceDataFiles(run, e2eConfig());
    const std::string& log = files.at("stars_soc.data.0.slice_0");
    ASSERT_EQ(log.size(), 64u * 8);  // the MIX task adds its FFTS+ sub-task's start and end
    std::uint64_t last = 0;
    for (std::size_t at = 0; at < log.size(); at += 64) {
        EXPECT_EQ(field<std::uint16_t>(log, at + 2), 0x6BD3);
        EXPECT_GE(field<std::uint64_t>(log, at + 8), last);
        last = field<std::uint64_t>(log, at + 8);
    }
    // The first record starts the Add kernel: func type 0, SQE AIV (2), its stream and task.
    EXPECT_EQ(field<std::uint16_t>(log, 0), 2u << 10);
    EXPECT_EQ(field<std::uint16_t>(log, 4), run.kernels[0].device.streamId);
    EXPECT_EQ(field<std::uint16_t>(log, 6), run.kernels[0].taskId);
    EXPECT_EQ(field<std::uint64_t>(log, 8), (kMonotonicAtStartNs + run.kernels[0].device.startNs) / 10);
    EXPECT_TRUE(rawDeviceDataFiles(run, e2eConfig({.taskTime = false})).empty());
}

// The 910A logs the same starts and ends in its HWTS log: 64-byte records, log type 0 start / 1 end
// with a 4-bit counter, task type, task id, system count and stream id (HWTS_LOG_FMT "BBHHHQ12I").
TEST(RawProfData, The910AsHwtsLogHasAStartAndAnEndPerTaskWithACounter) {
    static const ChipConfig coupled = coupledChip();
    const RunRecord run = launchedRun(coupled);
    const auto files = rawDeviceDataFiles(run, e2eConfig());
    EXPECT_EQ(files.count("stars_soc.data.0.slice_0"), 0u);
    ASSERT_EQ(files.count("hwts.data.0.slice_0"), 1u);
    const std::string& log = files.at("hwts.data.0.slice_0");
    ASSERT_EQ(log.size(), 64u * 2 * run.kernels.size());
    for (std::size_t i = 0; i < log.size() / 64; ++i)
        EXPECT_EQ(field<std::uint8_t>(log, 64 * i) >> 4, i % 16) << i;  // msprof checks the counter
    EXPECT_EQ(field<std::uint8_t>(log, 0) & 7u, 0u);  // the first record starts the first task
    EXPECT_EQ(field<std::uint16_t>(log, 6), run.kernels[0].taskId);
    EXPECT_EQ(field<std::uint64_t>(log, 8), (kMonotonicAtStartNs + run.kernels[0].device.startNs) / 10);
    EXPECT_EQ(field<std::uint32_t>(log, 16), run.kernels[0].device.streamId);
    EXPECT_TRUE(rawDeviceDataFiles(run, e2eConfig({.taskTime = false})).empty());
}

// The 910A's AI Core PMU records (aicore.data, AIC_PMU_FMT "BBHHHII10Q8I"): one per AI Core task,
// by end time, with a 4-bit counter, task id, total cycles, the coupled side's counts in
// sample.json's order and the stream id; no ffts_profile.
TEST(RawProfData, The910AsAicorePmuRecordsCarryTheCoupledCountersWithACounter) {
    static const ChipConfig coupled = coupledChip();
    RunRecord run = launchedRun(coupled);
    run.kernels.resize(2);  // Add and MatMulV3 as the 910A's AI Core tasks
    for (KernelRecord& k : run.kernels) {
        k.device.type = TaskType::AiCore;
        for (BlockResult& b : k.device.blocks) b.coreKind = CoreKind::Coupled;
        k.device.cubeSum += k.device.vectorSum;
        k.device.vectorSum = PmuCounters{};
    }
    const auto files = rawDeviceDataFiles(run, e2eConfig());
    EXPECT_EQ(files.count("ffts_profile.data.0.slice_0"), 0u);
    const std::string& pmu = files.at("aicore.data.0.slice_0");
    ASSERT_EQ(pmu.size(), 128u * 2);
    const std::vector<PmuEvent> events = profiledEvents(AicMetrics::PipeUtilization, CoreSide::Coupled);
    ASSERT_EQ(events.size(), 8u);
    for (std::size_t i = 0; i < 2; ++i) {
        const KernelRecord& k = run.kernels[i];  // Add ends first
        const std::size_t at = 128 * i;
        EXPECT_EQ(field<std::uint8_t>(pmu, at) >> 4, i);  // msprof's AicPmuBean checks the counter
        EXPECT_EQ(field<std::uint16_t>(pmu, at + 6), k.taskId & 0xFFFF);
        EXPECT_EQ(field<std::uint64_t>(pmu, at + 16), k.device.cubeSum.totalCycles);
        for (std::size_t e = 0; e < events.size(); ++e)
            EXPECT_EQ(field<std::uint64_t>(pmu, at + 32 + 8 * e), k.device.cubeSum[events[e]]) << i << " " << e;
        EXPECT_EQ(field<std::uint32_t>(pmu, at + 96), k.device.streamId);
    }
    EXPECT_EQ(rawDeviceDataFiles(run, e2eConfig({.aicoreMetrics = false})).count("aicore.data.0.slice_0"), 0u);
}

// The FFTS PMU records msprof's FftsPmuCalculator reads: one 128-byte context record per task, by
// end time, carrying the side's summed counters in sample.json's event order; a MIX task's context
// record (its main side) follows one block record per block of its second side.
TEST(RawProfData, PmuRecordsCarryEachTasksSideCountersInSampleJsonOrder) {
    static const ChipConfig chip = splitChip();
    const RunRecord run = launchedRun(chip);  // Add (AIV), MatMulV3 (AIC), FlashAttentionScore (MIX_AIC)
    const auto files = rawDeviceDataFiles(run, e2eConfig());
    const std::string& pmu = files.at("ffts_profile.data.0.slice_0");
    ASSERT_EQ(pmu.size(), 128u * (2 + 40 + 1));  // Add, MatMulV3, the MIX task's 40 vector blocks and itself
    // Add ends first: func type 0b101000, counter 0, FFTS type 2 (AIV), its stream and task.
    EXPECT_EQ(field<std::uint16_t>(pmu, 0), 0b101000);
    EXPECT_EQ(field<std::uint16_t>(pmu, 4), run.kernels[0].device.streamId);
    EXPECT_EQ(field<std::uint16_t>(pmu, 6), run.kernels[0].taskId);
    EXPECT_EQ(field<std::uint16_t>(pmu, 20) >> 13, 2);
    EXPECT_EQ(field<std::uint64_t>(pmu, 32), run.kernels[0].device.vectorSum.totalCycles);
    const std::vector<PmuEvent> aiv = profiledEvents(AicMetrics::PipeUtilization, CoreSide::Aiv);
    ASSERT_EQ(aiv.size(), 8u);
    for (std::size_t i = 0; i < aiv.size(); ++i)
        EXPECT_EQ(field<std::uint64_t>(pmu, 48 + 8 * i), run.kernels[0].device.vectorSum[aiv[i]]) << i;
    EXPECT_EQ(field<std::uint64_t>(pmu, 120), (kMonotonicAtStartNs + run.kernels[0].device.endNs) / 10);
    // MatMulV3: counter 1, FFTS type 0 (a plain AI Core task), the cube side's counters.
    EXPECT_EQ(field<std::uint16_t>(pmu, 128), 0b101000 | (1 << 6));
    EXPECT_EQ(field<std::uint16_t>(pmu, 128 + 20) >> 13, 0);
    EXPECT_EQ(field<std::uint64_t>(pmu, 128 + 32), run.kernels[1].device.cubeSum.totalCycles);
    const std::vector<PmuEvent> aic = profiledEvents(AicMetrics::PipeUtilization, CoreSide::Aic);
    for (std::size_t i = 0; i < aic.size(); ++i)
        EXPECT_EQ(field<std::uint64_t>(pmu, 128 + 48 + 8 * i), run.kernels[1].device.cubeSum[aic[i]]) << i;
    // FlashAttentionScore (MIX_AIC, ends last): FFTS+ (type 4), sub-task type 6, context 0; its 40
    // vector blocks as block records (func 0b101001, core type 1 AIV, block id), then its cube
    // side as the context record.
    const KernelRecord& mix = run.kernels[2];
    const auto vecBusy = std::find(aiv.begin(), aiv.end(), PmuEvent::VecBusy) - aiv.begin();
    ASSERT_LT(static_cast<std::size_t>(vecBusy), aiv.size());
    for (std::size_t b = 0; b < 40; ++b) {
        const std::size_t at = 128 * (2 + b);
        EXPECT_EQ(field<std::uint16_t>(pmu, at) & 0x3F, 0b101001) << b;
        EXPECT_EQ(field<std::uint16_t>(pmu, at + 6), mix.taskId & 0xFFFF) << b;
        EXPECT_EQ(field<std::uint16_t>(pmu, at + 16) & 0xFF, 6) << b;
        EXPECT_EQ(field<std::uint16_t>(pmu, at + 18), 0) << b;
        EXPECT_EQ(static_cast<unsigned char>(pmu[at + 20]) & 1, 1) << b;
        EXPECT_EQ(static_cast<unsigned char>(pmu[at + 21]) >> 5, 4) << b;
        EXPECT_EQ(field<std::uint16_t>(pmu, at + 30), b);
        EXPECT_EQ(field<std::uint64_t>(pmu, at + 32), mix.device.blocks[20 + b].counters.totalCycles) << b;
        EXPECT_EQ(field<std::uint64_t>(pmu, at + 48 + 8 * static_cast<std::size_t>(vecBusy)), 709000u) << b;
    }
    const std::size_t ctx = 128 * 42;
    EXPECT_EQ(field<std::uint16_t>(pmu, ctx) & 0x3F, 0b101000);
    EXPECT_EQ(field<std::uint16_t>(pmu, ctx + 16) & 0xFF, 6);
    EXPECT_EQ(field<std::uint16_t>(pmu, ctx + 20) >> 13, 4);
    EXPECT_EQ(field<std::uint64_t>(pmu, ctx + 32), mix.device.cubeSum.totalCycles);
    // The STARS log nests the MIX task's FFTS+ sub-task start and end (func 34, 35) in its own.
    const std::string& log = files.at("stars_soc.data.0.slice_0");
    std::vector<std::uint16_t> mixFuncs;
    for (std::size_t at = 0; at < log.size(); at += 64)
        if (field<std::uint16_t>(log, at + 6) == (mix.taskId & 0xFFFF)) mixFuncs.push_back(field<std::uint16_t>(log, at) & 0x3F);
    EXPECT_EQ(mixFuncs, (std::vector<std::uint16_t>{0, 0b100010, 0b100011, 1}));
    // No AI Core metrics (ACL_PROF_AICORE_METRICS off), no PMU records.
    EXPECT_EQ(rawDeviceDataFiles(run, e2eConfig({.aicoreMetrics = false})).count("ffts_profile.data.0.slice_0"), 0u);
}

// launchedRun plus an input copy before the kernels and a record/wait pair after them, each
// launched by its AscendCL call on thread 7 (the runtime tasks of a step with a collective).
RunRecord runWithRuntimeTasks(const ChipConfig& chip) {
    RunRecord run = launchedRun(chip);
    run.memcpyTasks.push_back({1000000, 1500000, 2, 1, 901, 4096, true});
    run.apis.push_back({ApiLevel::Acl, "aclrtMemcpyAsync", 500000, 600000, 7, 901});
    const std::uint64_t end = run.kernels.back().device.endNs;
    run.eventTasks.push_back({StreamEventKind::Record, end + 1000, end + 1020, 2, 40, 902});
    run.eventTasks.push_back({StreamEventKind::Wait, end + 1020, end + 9000, 4, 41, 903});
    run.apis.push_back({ApiLevel::Acl, "aclrtRecordEvent", end - 5000, end - 4000, 7, 902});
    run.apis.push_back({ApiLevel::Acl, "aclrtStreamWaitEvent", end - 3000, end - 2000, 7, 903});
    return run;
}

TEST(RawProfData, CopiesAndStreamEventsAreTrackedAndLoggedWithTheirSqeTypes) {
    static const ChipConfig chip = splitChip();
    const RunRecord run = runWithRuntimeTasks(chip);
    RawTypeDictionary dict;
    const auto host = rawHostDataFiles(run, e2eConfig(), dict);
    const std::string& tracks = host.at("aging.compact.task_track.slice_0");
    ASSERT_EQ(tracks.size(), 64u * 6);  // three kernels, one copy, one record, one wait
    std::map<std::string, std::pair<std::uint16_t, std::uint32_t>> trackedByType;  // type -> stream, task
    for (std::size_t at = 0; at < tracks.size(); at += 64) {
        const std::string type = std::to_string(field<std::uint64_t>(tracks, at + 32));
        const std::string text = dict.typeInfoText();
        const std::size_t pos = text.find("_" + type + ":");
        ASSERT_NE(pos, std::string::npos);
        const std::string name = text.substr(pos + type.size() + 2, text.find('\n', pos) - pos - type.size() - 2);
        trackedByType[name] = {field<std::uint16_t>(tracks, at + 26), field<std::uint32_t>(tracks, at + 28)};
    }
    EXPECT_EQ(trackedByType.at("MEMCPY_ASYNC"), std::make_pair(std::uint16_t{2}, 1u));
    EXPECT_EQ(trackedByType.at("EVENT_RECORD"), std::make_pair(std::uint16_t{2}, 40u));
    EXPECT_EQ(trackedByType.at("EVENT_WAIT"), std::make_pair(std::uint16_t{4}, 41u));
    // The STARS log: a start and an end per task, SQE types PCIE_DMA 17, EVENT_RECORD 4, EVENT_WAIT 5
    // (msmodel/sqe_type_map.py), each on its stream with its task id.
    const auto device = rawDeviceDataFiles(run, e2eConfig());
    const std::string& log = device.at("stars_soc.data.0.slice_0");
    ASSERT_EQ(log.size(), 64u * 14);
    std::map<std::uint16_t, int> recordsBySqe;
    for (std::size_t at = 0; at < log.size(); at += 64) {
        const std::uint16_t sqe = field<std::uint16_t>(log, at) >> 10;
        ++recordsBySqe[sqe];
        if (sqe == 5) {
            EXPECT_EQ(field<std::uint16_t>(log, at + 4), 4u);
            EXPECT_EQ(field<std::uint16_t>(log, at + 6), 41u);
        }
    }
    EXPECT_EQ(recordsBySqe[17], 2);
    EXPECT_EQ(recordsBySqe[4], 2);
    EXPECT_EQ(recordsBySqe[5], 2);
}

TEST(RawProfData, MstxMarkersAre256ByteMsprofTxExRecordsWithLongMessagesSplit) {
    static const ChipConfig chip = splitChip();
    RunRecord run = launchedRun(chip);
    run.processId = 4242;
    const std::string longMessage(200, 'r');
    run.mstxEvents.push_back({MstxEventKind::Mark, "loss ready", "default", 3000000, 3000000, 7, 0});
    run.mstxEvents.push_back({MstxEventKind::Range, longMessage, "train", 3500000, 4200000, 7, 1});
    RawTypeDictionary dict;
    const std::string tx = rawMsprofTxRecords(run, dict);
    ASSERT_EQ(tx.size(), 256u * 3);  // the 200-byte message takes two segments (155 + 45)
    EXPECT_EQ(field<std::uint16_t>(tx, 0), 0x5A5A);
    EXPECT_EQ(field<std::uint16_t>(tx, 2), 20500);  // MSPROF_REPORT_TX_LEVEL
    EXPECT_EQ(field<std::uint16_t>(tx, 24), 1u);     // infoType MarkEx
    EXPECT_EQ(field<std::uint32_t>(tx, 36), 4242u);  // processId
    EXPECT_EQ(field<std::uint32_t>(tx, 40), 7u);     // threadId
    EXPECT_EQ(field<std::uint32_t>(tx, 48), 3u);     // marker_ex
    EXPECT_EQ(field<std::uint64_t>(tx, 64), (kMonotonicAtStartNs + 3000000) / 10);
    EXPECT_EQ(field<std::uint64_t>(tx, 72), field<std::uint64_t>(tx, 64));
    EXPECT_EQ(std::string(tx.data() + 100), "loss ready");
    // The range: start/end, its mark id on both segments, segment indexes 0 and 1.
    EXPECT_EQ(field<std::uint32_t>(tx, 256 + 48), 2u);
    EXPECT_EQ(field<std::uint64_t>(tx, 256 + 72), (kMonotonicAtStartNs + 4200000) / 10);
    EXPECT_EQ(field<std::uint64_t>(tx, 256 + 80), 1u);
    EXPECT_EQ(field<std::uint64_t>(tx, 512 + 80), 1u);
    EXPECT_EQ(field<std::uint16_t>(tx, 256 + 26), 0u);
    EXPECT_EQ(field<std::uint16_t>(tx, 512 + 26), 1u);
    EXPECT_EQ(std::string(tx.data() + 256 + 100) + std::string(tx.data() + 512 + 100), longMessage);
    const std::uint64_t domain = field<std::uint64_t>(tx, 256 + 88);
    EXPECT_NE(dict.hashText().find(std::to_string(domain) + ":train\n"), std::string::npos);
    EXPECT_TRUE(rawMsprofTxRecords(launchedRun(chip), dict).empty());
}

TEST(RawProfData, AclApiFlagRemovesOnlyTheAscendClRecords) {
    static const ChipConfig chip = splitChip();
    const RunRecord run = launchedRun(chip);
    RawTypeDictionary on, off;
    const auto with = rawHostDataFiles(run, e2eConfig(), on);
    const auto without = rawHostDataFiles(run, e2eConfig({.aclApi = false}), off);
    EXPECT_EQ(with.at("unaging.api_event.data.slice_0").size(), 40u * 6);
    EXPECT_EQ(without.at("unaging.api_event.data.slice_0").size(), 40u * 3);
    EXPECT_EQ(off.typeInfoText().find("aclnnAdd"), std::string::npos);
    EXPECT_EQ(with.at("aging.compact.task_track.slice_0"), without.at("aging.compact.task_track.slice_0"));
}

// launchedRun with one collective launched as ProcessGroupHCCL launches it on thread 7:
// AscendCL@hcom_allReduce_ and its Node@launch of the same span, HCCL's Launch_Ffts inside.
RunRecord runWithLaunchedCollective(const ChipConfig& chip) {
    RunRecord run = launchedRun(chip);
    CommunicationOpRecord op = allReduceOp(6000000, 0);
    op.correlationId = 900;
    op.streamId = 4;
    op.taskId = 2;
    for (std::size_t i = 0; i < op.tasks.size(); ++i) op.tasks[i].contextId = static_cast<std::uint32_t>(i);
    run.communicationOps.push_back(op);
    run.apis.push_back({ApiLevel::Acl, "hcom_allReduce_", 5000000, 5893350, 7, 899});
    run.apis.push_back({ApiLevel::Node, "launch", 5000000, 5893350, 7, 900});
    run.apis.push_back({ApiLevel::Communication, "Launch_Ffts", 5675770, 5804310, 7, 901});
    return run;
}

TEST(RawProfData, CollectivesHcclRecordsHangOnTheHcclLevelCallInsideTheirLaunch) {
    // msprof draws an HCCL task only under a level-5500 API event that encloses, on the same
    // thread, the task's hccl_info, HCCL's context range and the task_track of the collective's
    // FFTS+ task (tree_builder.cpp; cann_analysis_gear.py add_hccl_task): all three sit inside
    // Launch_Ffts, which sits inside the Node@launch that carries GE's node and hccl_op_info.
    static const ChipConfig chip = splitChip();
    const RunRecord run = runWithLaunchedCollective(chip);
    RawTypeDictionary dict;
    std::map<std::string, std::string> host = rawHostDataFiles(run, e2eConfig(), dict);
    for (auto& [name, bytes] : rawHcclDataFiles(run, e2eConfig(), dict)) host[name] += bytes;
    RawRecordReader apiIn("api_event", host.at("unaging.api_event.data.slice_0"));
    const RawApiEvent* hcclCall = nullptr;
    const RawApiEvent* launch = nullptr;
    const auto apis = decodeAll<RawApiEvent>(apiIn);
    for (const RawApiEvent& a : apis) {
        if (a.level == kRawLevelHccl) hcclCall = &a;
        if (a.level == kRawLevelNode && a.itemId == dict.hashOf(run.communicationOps[0].name)) launch = &a;
    }
    ASSERT_NE(hcclCall, nullptr);
    ASSERT_NE(launch, nullptr);
    EXPECT_EQ(hcclCall->threadId, 7u);
    EXPECT_TRUE(launch->begin < hcclCall->begin && hcclCall->end < launch->end);
    const auto inside = [&](std::uint32_t thread, std::uint64_t count) {
        return thread == hcclCall->threadId && hcclCall->begin <= count && count <= hcclCall->end;
    };

    RawRecordReader infoIn("hccl_info", host.at("unaging.additional.hccl_info.slice_0"));
    const auto infos = decodeAll<RawHcclInfo>(infoIn);
    ASSERT_EQ(infos.size(), 7u);
    for (std::size_t i = 0; i < infos.size(); ++i) {
        EXPECT_TRUE(inside(infos[i].header.threadId, infos[i].header.timestamp)) << i;
        EXPECT_EQ(infos[i].itemId, dict.hashOf(hcclTaskName(run.communicationOps[0].tasks[i].kind))) << i;
    }
    RawRecordReader ctxIn("context_id_info", host.at("unaging.additional.context_id_info.slice_0"));
    std::size_t hcclContexts = 0;
    for (const RawContextIdInfo& c : decodeAll<RawContextIdInfo>(ctxIn)) {
        if (c.header.level != RawContextIdInfo::kHcclLevel) continue;
        ++hcclContexts;
        EXPECT_TRUE(inside(c.header.threadId, c.header.timestamp));
        EXPECT_EQ(c.contextIds, (std::vector<std::uint32_t>{0, 6}));  // first and last context
    }
    EXPECT_EQ(hcclContexts, 1u);
    RawRecordReader trackIn("task_track", host.at("aging.compact.task_track.slice_0"));
    std::size_t collectiveTracks = 0;
    for (const RawTaskTrack& t : decodeAll<RawTaskTrack>(trackIn)) {
        if (t.kernelName != dict.hashOf(run.communicationOps[0].name)) continue;
        ++collectiveTracks;
        EXPECT_TRUE(inside(t.header.threadId, t.header.timestamp));
        EXPECT_EQ(t.streamId, 4u);
        EXPECT_EQ(t.taskId, 2u);
    }
    EXPECT_EQ(collectiveTracks, 1u);
    RawRecordReader opIn("hccl_op_info", host.at("aging.compact.hccl_op_info.slice_0"));
    const auto opInfos = decodeAll<RawHcclOpInfo>(opIn);
    ASSERT_EQ(opInfos.size(), 1u);
    EXPECT_EQ(opInfos[0].header.timestamp, launch->begin);  // GE's records at the node's launch

    // Without ACL_PROF_HCCL_TRACE there is no HCCL call, hccl_info or HCCL context range.
    RawTypeDictionary off;
    const auto without = rawHcclDataFiles(run, e2eConfig({.hcclTrace = false}), off);
    EXPECT_EQ(without.count("unaging.additional.hccl_info.slice_0"), 0u);
    EXPECT_EQ(without.count("unaging.additional.context_id_info.slice_0"), 0u);
}

TEST(RawProfData, HcclTraceFlagRemovesOnlyTheHcclApiRecords) {
    static const ChipConfig chip = splitChip();
    RunRecord run = launchedRun(chip);
    run.apis.push_back({ApiLevel::Communication, "hcom_allReduce__586_0_1", 4500000, 4600000, 7, 0});
    RawTypeDictionary on, off;
    const std::string with = rawHostDataFiles(run, e2eConfig(), on).at("unaging.api_event.data.slice_0");
    const std::string without =
        rawHostDataFiles(run, e2eConfig({.hcclTrace = false}), off).at("unaging.api_event.data.slice_0");
    ASSERT_EQ(with.size(), 40u * 7);
    ASSERT_EQ(without.size(), 40u * 6);
    std::size_t hccl = 0;
    for (std::size_t at = 0; at < with.size(); at += 40) hccl += field<std::uint16_t>(with, at + 2) == kRawLevelHccl;
    EXPECT_EQ(hccl, 1u);  // level 5500, the op named through hash_dic
    for (std::size_t at = 0; at < without.size(); at += 40) EXPECT_NE(field<std::uint16_t>(without, at + 2), kRawLevelHccl);
    EXPECT_NE(on.hashText().find(":hcom_allReduce__586_0_1\n"), std::string::npos);
}

TEST(RawProfData, TaskTimeFlagRemovesTheTaskTracks) {
    static const ChipConfig chip = splitChip();
    const RunRecord run = launchedRun(chip);
    RawTypeDictionary dict;
    const auto files = rawHostDataFiles(run, e2eConfig({.taskTime = false}), dict);
    EXPECT_EQ(files.count("aging.compact.task_track.slice_0"), 0u);
    EXPECT_EQ(files.count("aging.compact.node_basic_info.slice_0"), 1u);
}

TEST(RawProfData, TaskTimeFlagAlsoRemovesTheTensorShapes) {
    static const ChipConfig chip = splitChip();
    RunRecord run = launchedRun(chip);
    for (KernelRecord& k : run.kernels) k.inputs.push_back({"8,16", "FLOAT16", "ND"});
    RawTypeDictionary on, off;
    const auto with = rawHostDataFiles(run, e2eConfig(), on);
    const auto without = rawHostDataFiles(run, e2eConfig({.taskTime = false}), off);
    // One 256-byte tensor_info per kernel (one input each), at the start of its launch.
    EXPECT_EQ(with.at("unaging.additional.tensor_info.slice_0").size(), 256u * run.kernels.size());
    EXPECT_EQ(without.count("unaging.additional.tensor_info.slice_0"), 0u);
}

TEST(RawProfData, AiCpuFlagIsTheAiCpuRecords) {
    static const ChipConfig chip = splitChip();
    RunRecord run = launchedRun(chip);
    run.kernels.back().device.type = TaskType::AiCpu;
    run.kernels.back().device.submitNs = run.kernels.back().device.startNs - 1000;
    const auto with = rawDeviceDataFiles(run, e2eConfig());
    const auto without = rawDeviceDataFiles(run, e2eConfig({.aicpu = false}));
    ASSERT_EQ(with.count("aicpu.data.0.slice_0"), 1u);
    EXPECT_EQ(with.at("aicpu.data.0.slice_0").size(), 256u);  // one AICPU_NODE record
    EXPECT_EQ(field<std::uint16_t>(with.at("aicpu.data.0.slice_0"), 2), 6000u);  // level AICPU
    EXPECT_EQ(without.count("aicpu.data.0.slice_0"), 0u);
    // Everything else is the same.
    auto rest = with;
    rest.erase("aicpu.data.0.slice_0");
    EXPECT_EQ(rest, without);
}

// ACL_PROF_L2CACHE adds l2_cache.data: one 72-byte record per AI Core / AI Vector task, by start,
// holding the sums msprof's formula of the chip groups (l2_cache_config.py), in sample.json's order.
TEST(RawProfData, L2CacheFlagIsTheL2CacheRecordsInTheEventsOfTheChip) {
    static const ChipConfig chip = splitChip();
    RunRecord run = launchedRun(chip);
    TaskResult& first = run.kernels[0].device;
    first.cubeSum = PmuCounters{};
    first.vectorSum = PmuCounters{};
    first.vectorSum[PmuEvent::L2R0ReadHit] = 30;
    first.vectorSum[PmuEvent::L2R1ReadMissAllocate] = 10;
    first.vectorSum[PmuEvent::L2WriteHit] = 5;
    first.vectorSum[PmuEvent::L2WriteMissAllocate] = 15;
    first.vectorSum[PmuEvent::MainMemWrite] = 3 * chip.l2.lineBytes / 8;  // three lines written back
    const auto with = rawDeviceDataFiles(run, e2eConfig({.l2cache = true}));
    const auto without = rawDeviceDataFiles(run, e2eConfig());
    ASSERT_EQ(with.count("l2_cache.data.0.slice_0"), 1u);
    const std::string& l2 = with.at("l2_cache.data.0.slice_0");
    ASSERT_EQ(l2.size(), 72u * run.kernels.size());
    EXPECT_EQ(field<std::uint16_t>(l2, 2), run.kernels[0].device.streamId);
    EXPECT_EQ(field<std::uint16_t>(l2, 4), run.kernels[0].taskId);
    // 0xfb reads 40, 0xfc writes 20, 0x90 read hits 30, 0x91 write hits 5, 0x9c victims 3.
    const std::uint64_t want[] = {40, 20, 30, 5, 3, 0, 0, 0};
    for (std::size_t i = 0; i < 8; ++i) EXPECT_EQ(field<std::uint64_t>(l2, 8 + 8 * i), want[i]) << i;
    EXPECT_EQ(l2CacheProfilingEvents(chip), "0xfb,0xfc,0x90,0x91,0x9c");
    EXPECT_EQ(without.count("l2_cache.data.0.slice_0"), 0u);
    auto rest = with;
    rest.erase("l2_cache.data.0.slice_0");
    EXPECT_EQ(rest, without);
    // Read back, the record gives the task the same hit and victim rates.
    RawRecordReader in("l2", l2);
    TaskResult back;
    back.type = first.type;
    ASSERT_TRUE(applyRawL2Cache(decodeRaw<RawL2Cache>(in), chip, back));
    EXPECT_DOUBLE_EQ(l2CacheRates(back, chip).hitRate, l2CacheRates(first, chip).hitRate);
    EXPECT_DOUBLE_EQ(l2CacheRates(back, chip).victimRate, l2CacheRates(first, chip).victimRate);
    // The 910A writes them too, in its own three events (request, hit, victim).
    static const ChipConfig coupled = coupledChip();
    const RunRecord run910a = launchedRun(coupled);
    EXPECT_EQ(l2CacheProfilingEvents(coupled), "0x59,0x5b,0x5c");
    EXPECT_EQ(rawDeviceDataFiles(run910a, e2eConfig({.l2cache = true})).count("l2_cache.data.0.slice_0"), 1u);
}

// ACL_PROF_TRAINING_TRACE adds ts_track.data: a step start (tag 60000) and end (60001) mark per
// step, 40 bytes each, carrying the step number as msprof's index id.
TEST(RawProfData, TrainingTraceFlagIsTheStepMarks) {
    static const ChipConfig chip = splitChip();
    RunRecord run = launchedRun(chip);
    ASSERT_EQ(run.steps.size(), 1u);
    const auto with = rawDeviceDataFiles(run, e2eConfig({.trainingTrace = true}));
    const auto without = rawDeviceDataFiles(run, e2eConfig({.trainingTrace = false}));
    ASSERT_EQ(with.count("ts_track.data.0.slice_0"), 1u);
    const std::string& marks = with.at("ts_track.data.0.slice_0");
    ASSERT_EQ(marks.size(), 80u);
    EXPECT_EQ(field<std::uint8_t>(marks, 1), 10u);  // TsTrackTag.STEP_TRACE
    EXPECT_EQ(field<std::uint64_t>(marks, 8), (kMonotonicAtStartNs + run.steps[0].startNs) / 10);
    EXPECT_EQ(field<std::uint64_t>(marks, 16), run.steps[0].stepNumber);
    EXPECT_EQ(field<std::uint16_t>(marks, 36), 60000u);
    EXPECT_EQ(field<std::uint64_t>(marks, 40 + 8), (kMonotonicAtStartNs + run.steps[0].endNs) / 10);
    EXPECT_EQ(field<std::uint16_t>(marks, 40 + 36), 60001u);
    EXPECT_EQ(without.count("ts_track.data.0.slice_0"), 0u);
    auto rest = with;
    rest.erase("ts_track.data.0.slice_0");
    EXPECT_EQ(rest, without);
}

TEST(RawProfData, WrittenUnderHostAndDeviceDataWithTheDictionaries) {
    static const ChipConfig chip = splitChip();
    const RunRecord run = launchedRun(chip);
    const fs::path root = testing_scratch::scratchDir("raw_prof_data") / "PROF";
    fs::remove_all(root);
    writeRawProfData(root, run, e2eConfig());
    for (const char* name : {"host/data/unaging.api_event.data.slice_0", "host/data/aging.compact.task_track.slice_0",
                             "host/data/aging.compact.node_basic_info.slice_0",
                             "host/data/unaging.additional.type_info_dic.slice_0",
                             "host/data/unaging.additional.hash_dic.slice_0", "device_0/data/stars_soc.data.0.slice_0"})
        EXPECT_TRUE(fs::is_regular_file(root / name)) << name;
    fs::remove_all(root.parent_path());
}

}  // namespace
}  // namespace ascendsim

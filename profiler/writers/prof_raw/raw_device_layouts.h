#pragma once
// The binary layouts of CANN's device raw records (PROF_*/device_{id}/data/), each stated once as
// a field list that the writer and the reader archives visit (raw_archive.h). Sources as in
// raw_host_layouts.h, plus the STARS and PMU parsers named at each record.
#include <array>
#include <cstdint>

#include "profiler/writers/prof_raw/raw_host_layouts.h"

namespace ascendsim {

// SQE types of the STARS task log (Ascend/msprof msmodel/sqe_type_map.py StarsSqeType).
inline constexpr std::uint16_t kSqeAiCore = 0, kSqeAiCpu = 1, kSqeAiv = 2, kSqeEventRecord = 4, kSqeEventWait = 5,
                               kSqePcieDma = 17;

// A STARS log record of stars_soc.data.{id} (64 B; msparser/stars/stars_log_parser.py checks the
// magic 0x6BD3 of every record and dispatches on the func type, msconfig/stars_config.py):
//   ACSQ task log (ACSQ_TASK_FMT "4HQHH11L", profiling_bean/stars/acsq_task.py): func type 0 start
//     or 1 end (bits 0-5) | SQE type (bits 10-15), magic, stream id, task id, system count, a u16 0,
//     acsq id (bits 6-12 of the next u16)
//   FFTS+ sub-task log (FFTS_PLUS_LOG_FMT "4HQ4H10L", profiling_bean/stars/ffts_plus_log.py): func
//     type 0b100010 start or 0b100011 end | SQE type, magic, stream id, task id, system count,
//     sub-task type (low 8 bits: 6 MIX_AIC, 7 MIX_AIV, StarsConstant.SUBTASK_TYPE), sub-task
//     (context) id, FFTS type (bits 13-15: 4 FFTS+), thread id
struct RawStarsLog {
    static constexpr std::size_t kBytes = 64;
    static constexpr std::uint16_t kMagic = 0x6BD3;  // STARS_MAGIC_NUM
    static constexpr std::uint16_t kFuncStart = 0, kFuncEnd = 1;                    // ACSQ
    static constexpr std::uint16_t kFuncSubtaskStart = 0b100010, kFuncSubtaskEnd = 0b100011;  // FFTS+ log
    // Sub-task types of HCCL's contexts (stars_constant.py SUBTASK_TYPE).
    static constexpr std::uint8_t kSubtaskNotifyWait = 3, kSubtaskWriteValue = 5, kSubtaskSdma = 8;
    std::uint16_t func = 0;
    std::uint16_t sqeType = 0;
    std::uint16_t streamId = 0;
    std::uint16_t taskId = 0;
    std::uint64_t sysCount = 0;
    std::uint16_t acsqId = 0;       // ACSQ records
    std::uint8_t subtaskType = 0;   // FFTS+ sub-task records
    std::uint16_t subtaskId = 0;
    std::uint16_t fftsType = 0;
    std::uint16_t threadId = 0;

    bool subtask() const { return func == kFuncSubtaskStart || func == kFuncSubtaskEnd; }
    bool start() const { return func == kFuncStart || func == kFuncSubtaskStart; }

    template <typename Self, typename Archive>
    static void fields(Self& r, Archive& a) {
        a.record(kBytes, "STARS log", [&] {
            a.template packed<std::uint16_t>(bits(r.func, 0, 6), bits(r.sqeType, 10, 6));
            a.require(r.func == kFuncStart || r.func == kFuncEnd || r.subtask(),
                      "STARS func type is neither an ACSQ (0, 1) nor an FFTS+ sub-task (34, 35) start or end");
            a.magic(kMagic);
            a.fields(r.streamId, r.taskId, r.sysCount);
            if (r.subtask()) {
                a.template packed<std::uint16_t>(bits(r.subtaskType, 0, 8));
                a.field(r.subtaskId);
                a.template packed<std::uint16_t>(bits(r.fftsType, 13, 3));
                a.field(r.threadId);
            } else {
                a.template constant<std::uint16_t>(0);
                a.template packed<std::uint16_t>(bits(r.acsqId, 6, 7));
            }
        });
    }
};

// The 910A's HWTS task log record (64 B in hwts.data.{id}, HWTS_LOG_FMT "BBHHHQ12I",
// profiling_bean/struct_info/hwts_log.py HwtsLogBean, mscalculate/hwts/hwts_calculator.py): log
// type (bits 0-2: 0 start, 1 end) and a 4-bit counter msprof checks for lost records (bits 4-7),
// task type (1 AI CPU, AicpuFromTsCollector.AI_CPU_TYPE), two reserved u16, task id, system
// count, stream id (its low 11 bits, Utils.get_stream_id), then 11 reserved u32.
struct RawHwtsLog {
    static constexpr std::size_t kBytes = 64;
    static constexpr std::uint8_t kStart = 0, kEnd = 1;
    std::uint8_t logType = 0;
    std::uint8_t counter = 0;
    std::uint8_t taskType = 0;
    std::uint16_t taskId = 0;
    std::uint64_t sysCount = 0;
    std::uint32_t streamId = 0;

    template <typename Self, typename Archive>
    static void fields(Self& r, Archive& a) {
        a.record(kBytes, "HWTS log", [&] {
            a.template packed<std::uint8_t>(bits(r.logType, 0, 3), bits(r.counter, 4, 4));
            a.field(r.taskType);
            a.template constant<std::uint16_t>(0);
            a.template constant<std::uint16_t>(0);
            a.fields(r.taskId, r.sysCount, r.streamId);
            a.require(r.logType == kStart || r.logType == kEnd, "HWTS log type is neither start (0) nor end (1)");
        });
    }
};

// An FFTS PMU record of ffts_profile.data.{id} (128 B; mscalculate/stars/ffts_pmu_calculator.py
// dispatches on the func type):
//   context PMU (FFTS_PMU_FMT "4HQ4HQ12Q", profiling_bean/stars/ffts_pmu.py, chip4_pmu_parser_item.h
//     ContextPmu): func type 0b101000 with a 4-bit counter, stream id, task id, sub-task type
//     (bits 0-7; bit 10 overflow), sub-task id, FFTS type (bits 13-15), total cycles, 8 PMU
//     counts, start and end system counts. One per task, of the side that runs it (a MIX task's
//     main side).
//   block PMU (FFTS_BLOCK_PMU_FMT "4HQ2HBBHLHH12Q", profiling_bean/stars/ffts_block_pmu.py): func
//     type 0b101001, the same ids, core type (bit 0 of byte 20: 0 AIC, 1 AIV) and core id (bits
//     1-7), FFTS type (bits 5-7 of byte 21, so bits 13-15 of the same u16), sub-block id and block
//     id (the u16s at bytes 28 and 30), one block's total cycles and counts, start and end. One
//     per block of a MIX task's second side; msprof sums them (_calculate_total_cycle_and_cycle_list).
struct RawFftsPmu {
    static constexpr std::size_t kBytes = 128;
    static constexpr std::uint16_t kFuncContext = 0b101000;  // StarsConstant.FFTS_PMU_TAG
    static constexpr std::uint16_t kFuncBlock = 0b101001;    // StarsConstant.FFTS_BLOCK_PMU_TAG
    // FFTS types (StarsConstant.FFTS_TYPE): 0 a plain AI Core task (NORMAL_TASK); 2 a plain AI
    // Vector task (assumed: its SQE type; msprof reads any value but 0, 4 and 5 as AIV,
    // pmu_accelerator_utils.cpp); 4 FFTS+, whose sub-task type says MIX_AIC (6) or MIX_AIV (7).
    static constexpr std::uint16_t kFftsNormal = 0, kFftsAiv = 2, kFftsPlus = 4;
    static constexpr std::uint8_t kSubtaskMixAic = 6, kSubtaskMixAiv = 7;
    static constexpr std::uint8_t kCoreAic = 0, kCoreAiv = 1;
    std::uint16_t func = kFuncContext;
    std::uint16_t counter = 0;
    std::uint16_t streamId = 0;
    std::uint16_t taskId = 0;
    std::uint8_t subtaskType = 0;
    std::uint16_t subtaskId = 0;
    std::uint8_t coreType = 0;  // block records
    std::uint8_t coreId = 0;
    std::uint16_t fftsType = 0;
    std::uint16_t subBlockId = 0, blockId = 0;  // block records
    std::uint64_t totalCycles = 0;
    std::array<std::uint64_t, 8> pmu{};
    std::uint64_t start = 0, end = 0;

    template <typename Self, typename Archive>
    static void fields(Self& r, Archive& a) {
        a.record(kBytes, "FFTS PMU", [&] {
            a.template packed<std::uint16_t>(bits(r.func, 0, 6), bits(r.counter, 6, 4));
            a.require(r.func == kFuncContext || r.func == kFuncBlock,
                      "FFTS PMU func type is neither a context (40) nor a block (41) record");
            a.template constant<std::uint16_t>(0);
            a.fields(r.streamId, r.taskId);
            a.template constant<std::uint64_t>(0);
            a.template packed<std::uint16_t>(bits(r.subtaskType, 0, 8));  // no overflow (bit 10)
            a.field(r.subtaskId);
            a.template packed<std::uint16_t>(bits(r.coreType, 0, 1), bits(r.coreId, 1, 7), bits(r.fftsType, 13, 3));
            a.template constant<std::uint16_t>(0);
            a.template constant<std::uint32_t>(0);
            a.fields(r.subBlockId, r.blockId, r.totalCycles);
            a.template constant<std::uint64_t>(0);
            for (auto& v : r.pmu) a.field(v);
            a.fields(r.start, r.end);
        });
    }
};

// The 910A's AI Core PMU record (128 B in aicore.data.{id}, AIC_PMU_FMT "BBHHHII10Q8I",
// profiling_bean/struct_info/aic_pmu.py AicPmuBean, mscalculate/aic/aic_calculator.py; read on
// chips 1-4, msconfig/data_calculator_config.py AicCalculator): a 4-bit counter in bits 4-7 of the
// first byte (msprof logs an error when it skips), task id (the third u16), total cycles (the first
// u64), the counts of the 8 events sample.json lists (the third to tenth u64), stream id (the first
// u32 after them; msprof keeps its low 11 bits). The task scheduler reports it at the task's end.
// **Assumed**: the fields msprof does not read (the low 4 bits of the first byte, the second byte,
// two u16, two u32, the second u64, the last seven u32) are 0.
struct RawAicPmu {
    static constexpr std::size_t kBytes = 128;
    std::uint8_t counter = 0;
    std::uint16_t taskId = 0;
    std::uint64_t totalCycles = 0;
    std::array<std::uint64_t, 8> pmu{};
    std::uint32_t streamId = 0;

    template <typename Self, typename Archive>
    static void fields(Self& r, Archive& a) {
        a.record(kBytes, "AI Core PMU", [&] {
            a.template packed<std::uint8_t>(bits(r.counter, 4, 4));
            a.template constant<std::uint8_t>(0);
            a.template constant<std::uint16_t>(0);
            a.template constant<std::uint16_t>(0);
            a.field(r.taskId);
            a.template constant<std::uint32_t>(0);
            a.template constant<std::uint32_t>(0);
            a.field(r.totalCycles);
            a.template constant<std::uint64_t>(0);
            for (auto& v : r.pmu) a.field(v);
            a.field(r.streamId);
        });
    }
};

// An AI CPU task's times (device aicpu.data.{id}: a 256 B MsprofAdditionalInfo at level 6000
// MSPROF_REPORT_AICPU_LEVEL, type 0 AICPU_NODE, holding MsprofAicpuNodeAdditionalData; Python
// format AI_CPU_NODE_ADD_FMT "HHIIIQHHIQQQQQQQIIQQQQIIIHBB14Q", msparser/add_info/aicpu_add_info_bean.py
// AicpuNodeBean): stream and task id, run start/compute/memcpy/run end times in µs, run start and
// end system counts, the thread and device, the submit, schedule, before-run and after-run counts,
// the kernel type, the dispatch and total times in µs.
struct RawAicpuNode {
    static constexpr std::size_t kBytes = kRawAdditionalBytes;
    static constexpr std::uint16_t kLevel = 6000;  // LevelDataType.AICPU (level_type_constant.py)
    static constexpr std::uint32_t kNodeType = 0;  // AicpuAddInfoBean.AICPU_NODE
    std::uint32_t threadId = 0;
    std::uint16_t streamId = 0;
    std::uint16_t taskId = 0;
    std::uint64_t runStartUs = 0, runEndUs = 0;
    std::uint64_t runStartTick = 0, runEndTick = 0;
    std::uint32_t deviceId = 0;
    std::uint64_t submitTick = 0;
    std::uint32_t dispatchUs = 0, totalUs = 0;

    template <typename Self, typename Archive>
    static void fields(Self& r, Archive& a) {
        a.record(kBytes, "AI CPU", [&] {
            std::uint16_t level = kLevel;
            std::uint32_t type = kNodeType;
            a.magic(kRawMagic);
            a.expect(level, kLevel, "AI CPU record level");
            a.expect(type, kNodeType, "AI CPU record type");
            a.field(r.threadId);
            a.template constant<std::uint32_t>(kRawAdditionalDataBytes);
            a.repeat(r.runStartTick);  // the header's timestamp
            a.fields(r.streamId, r.taskId);
            a.template constant<std::uint32_t>(0);  // rev
            a.fields(r.runStartUs, r.runStartTick);
            a.repeat(r.runStartUs);  // computeStartTime: the task computes from its start
            a.repeat(r.runEndUs);    // memcpyStartTime: no copy after the compute
            a.repeat(r.runEndUs);    // memcpyEndTime
            a.fields(r.runEndUs, r.runEndTick);
            a.repeat(r.threadId);
            a.fields(r.deviceId, r.submitTick);
            a.repeat(r.submitTick);    // scheduleTick
            a.repeat(r.runStartTick);  // tickBeforeRun
            a.repeat(r.runEndTick);    // tickAfterRun
            a.template constant<std::uint32_t>(0);  // kernelType
            a.fields(r.dispatchUs, r.totalUs);      // then fftsThreadId, version, reserve: 0
            a.require(r.runEndTick >= r.runStartTick && r.submitTick <= r.runStartTick,
                      "AI CPU task times out of order");
        });
    }
};

// An L2 cache record (72 B, L2_CACHE_STRUCT_FMT "HHHH8Q", msparser/l2_cache/l2_cache_parser.py,
// profiling_bean/struct_info/l2_cache.py): task type, stream id, task id, a reserved u16, then the
// counts of the (up to 8) events sample.json lists as l2CacheTaskProfilingEvents, in that order.
struct RawL2Cache {
    static constexpr std::size_t kBytes = 72;
    std::uint16_t taskType = 0;
    std::uint16_t streamId = 0;
    std::uint16_t taskId = 0;
    std::array<std::uint64_t, 8> events{};

    template <typename Self, typename Archive>
    static void fields(Self& r, Archive& a) {
        a.record(kBytes, "L2 cache", [&] {
            a.fields(r.taskType, r.streamId, r.taskId);
            a.template constant<std::uint16_t>(0);
            for (auto& v : r.events) a.field(v);
        });
    }
};

// A step trace record of the task scheduler's track (40 B in ts_track.data.{id}, STEP_TRACE_FMT
// "BBHLQQQHHHH", msparser/step_trace/ts_track_parser.py, profiling_bean/struct_info/step_trace.py):
// mode, tag 10 (TsTrackTag.STEP_TRACE), buffer size, reserved, system count, index (step) id, model
// id, stream id, task id, step trace tag id (StepTraceConstant: 60000 step start, 60001 step end).
struct RawStepTrace {
    static constexpr std::size_t kBytes = 40;
    static constexpr std::uint8_t kTrackTag = 10;  // TsTrackTag.STEP_TRACE
    static constexpr std::uint16_t kStepStart = 60000, kStepEnd = 60001;
    std::uint64_t timestamp = 0;
    std::uint64_t indexId = 0;
    std::uint64_t modelId = 0;
    std::uint16_t streamId = 0;
    std::uint16_t taskId = 0;
    std::uint16_t tagId = 0;

    template <typename Self, typename Archive>
    static void fields(Self& r, Archive& a) {
        a.record(kBytes, "step trace", [&] {
            std::uint8_t tag = kTrackTag;
            a.template constant<std::uint8_t>(0);  // mode
            a.expect(tag, kTrackTag, "ts_track tag (10: step trace)");
            a.template constant<std::uint16_t>(kBytes);  // assumed: the record's size
            a.template constant<std::uint32_t>(0);
            a.fields(r.timestamp, r.indexId, r.modelId, r.streamId, r.taskId, r.tagId);
            a.template constant<std::uint16_t>(0);
        });
    }
};

}  // namespace ascendsim

#pragma once
// The torch_npu.npu.mstx calls of the steps (HostStep::markers) as CANN's MsprofTx records them:
// each mark or range on the Python thread at the host time of its op boundary, numbered in call
// order. torch_npu records them only while the profiler runs with msprof_tx=True and the NPU
// activity (MstxMgr::isMstxEnable: NPU trace and MsprofTx on); an E2E collection without
// use_e2e_profiler has no framework data, so no markers either.
//
// Assumed: a host-only mstx call costs no modelled host time (no measurement of it exists here;
// it is a C call into CANN's mstx library, far below the Python gap between two torch calls).
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "profiler/config/profiler_config.h"
#include "profiler/record/run_record.h"
#include "sim/host/framework_op.h"

namespace ascendsim {

// Whether `config` records mstx markers in a step that is profiled.
bool mstxRecorded(const ProfilerConfig& config);

class MstxRecorder {
public:
    // Starts a step: markers are recorded on `threadId` when `enabled`.
    void beginStep(bool enabled, std::uint32_t threadId);
    // The markers of `markers` at the boundary of ops [firstOp, endOp): those before the ops
    // (beforeOps) or after them, at host time `nowNs`.
    void fire(const std::vector<StepMarker>& markers, std::uint32_t firstOp, std::uint32_t endOp, bool beforeOps,
              std::uint64_t nowNs);
    // The recorded events by start time (ties: call order).
    std::vector<MstxEventRecord> take();

private:
    bool enabled_ = false;
    std::uint32_t threadId_ = 0;
    std::uint64_t nextMarkId_ = 0;
    std::vector<MstxEventRecord> events_;
    std::unordered_map<std::uint32_t, std::size_t> openRanges_;  // rangeSlot -> index in events_
};

}  // namespace ascendsim

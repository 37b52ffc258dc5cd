#pragma once
// The instruction timeline of selected kernels: what each pipe of each core did, and when. For
// learners and kernel authors who want to see the DaVinci core at work (docs/core-trace.md); the
// profiler files only show a kernel's totals.
//
// Recording is opt-in per kernel (KernelTask::instructionTrace): an untraced block pays one
// predictable branch per instruction. Spans arrive in the order the core model produces them,
// which is not time order (issue and pipes run ahead of simulated time where nothing observes
// it, ai_core.h); readers sort.
#include <cstdint>
#include <utility>
#include <vector>

#include "models/isa/instruction.h"
#include "models/isa/pipe.h"

namespace ascendsim {

enum class TraceSpanKind : std::uint8_t {
    Execute,     // the instruction occupies its pipe (ScalarWork: the scalar unit)
    WaitFlag,    // a pipe (or the scalar unit) blocked on a wait_flag / cross-core wait / barrier
    IssueStall,  // the scalar unit could not issue: the target pipe's queue was full
};

struct TraceSpan {
    std::uint64_t taskId = 0;
    CoreKind coreKind = CoreKind::Cube;
    std::uint32_t coreId = 0;
    std::uint32_t blockIdx = 0;
    std::uint32_t subBlockIdx = 0;
    Pipe pipe = Pipe::Scalar;        // where the span is drawn
    Pipe stalledOn = Pipe::Scalar;   // IssueStall: the pipe whose queue was full
    TraceSpanKind kind = TraceSpanKind::Execute;
    std::uint64_t programIndex = 0;  // position of the instruction in the block's program
    std::uint64_t startPs = 0;
    std::uint64_t endPs = 0;
    std::uint64_t cycles = 0;        // of the core's clock (AIVs may run at another clock)
    Instruction instruction;         // a copy: the core drops its program as it goes
};

class InstructionTraceSink {
public:
    virtual ~InstructionTraceSink() = default;
    virtual void record(const TraceSpan& span) = 0;
};

// Keeps every span in memory (a traced kernel is one launch: thousands to a few million spans).
class InstructionTraceRecorder final : public InstructionTraceSink {
public:
    void record(const TraceSpan& span) override { spans_.push_back(span); }
    const std::vector<TraceSpan>& spans() const { return spans_; }
    std::vector<TraceSpan> takeSpans() { return std::move(spans_); }

private:
    std::vector<TraceSpan> spans_;
};

}  // namespace ascendsim

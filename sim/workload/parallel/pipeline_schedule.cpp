#include "sim/workload/parallel/pipeline_schedule.h"

#include <algorithm>

namespace ascendsim {

std::vector<PipelineStep> oneForwardOneBackward(std::uint32_t stage, std::uint32_t stages,
                                                std::uint32_t microBatches) {
    const bool first = stage == 0, last = stage + 1 == stages;
    std::vector<PipelineStep> steps;
    const auto add = [&](PipelineStepKind kind, std::uint32_t microBatch, bool exists) {
        if (exists) steps.push_back({kind, microBatch});
    };
    // Two transfers to and from one neighbour in one call: both exist or neither does.
    const auto call = [&](PipelineStep a, PipelineStep b, bool exists) {
        if (!exists) return;
        a.callWithNext = true;
        steps.push_back(a);
        steps.push_back(b);
    };
    const std::uint32_t warmup = std::min(stages - stage - 1, microBatches);
    const std::uint32_t steady = microBatches - warmup;
    for (std::uint32_t i = 0; i < warmup; ++i) {
        add(PipelineStepKind::RecvForward, i, !first);
        add(PipelineStepKind::Forward, i, true);
        add(PipelineStepKind::SendForward, i, !last);
    }
    if (steady > 0) add(PipelineStepKind::RecvForward, warmup, !first);
    for (std::uint32_t j = 0; j < steady; ++j) {
        const std::uint32_t forward = warmup + j;
        add(PipelineStepKind::Forward, forward, true);
        call({PipelineStepKind::SendForward, forward}, {PipelineStepKind::RecvBackward, j}, !last);
        add(PipelineStepKind::Backward, j, true);
        // send_backward_recv_forward, or send_backward after the last forward
        if (j + 1 < steady)
            call({PipelineStepKind::RecvForward, forward + 1}, {PipelineStepKind::SendBackward, j}, !first);
        else
            add(PipelineStepKind::SendBackward, j, !first);
    }
    for (std::uint32_t i = steady; i < microBatches; ++i) {
        add(PipelineStepKind::RecvBackward, i, !last);
        add(PipelineStepKind::Backward, i, true);
        add(PipelineStepKind::SendBackward, i, !first);
    }
    return steps;
}

}  // namespace ascendsim

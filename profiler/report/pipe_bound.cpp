#include "profiler/report/pipe_bound.h"

namespace ascendsim {

namespace {
constexpr std::array<std::string_view, kBoundPipeCount> kNames = {
    "cube", "vector", "scalar", "mte1", "mte2", "mte3", "fixpipe", "aicpu"};

void addSide(const PmuCounters& c, PipeBusy& busy, bool cubeSide) {
    if (c.totalCycles == 0) return;
    auto add = [&](BoundPipe p, std::uint64_t cycles) {
        busy.busyCycles[static_cast<std::size_t>(p)] += static_cast<double>(cycles);
    };
    add(BoundPipe::Scalar, c[PmuEvent::ScalarBusy]);
    add(BoundPipe::Mte2, c[PmuEvent::Mte2Busy]);
    add(BoundPipe::Mte3, c[PmuEvent::Mte3Busy]);
    if (cubeSide) {
        add(BoundPipe::Cube, c[PmuEvent::MacBusy]);
        add(BoundPipe::Mte1, c[PmuEvent::Mte1Busy]);
        add(BoundPipe::FixPipe, c[PmuEvent::FixpipeBusy]);
    }
    add(BoundPipe::Vector, c[PmuEvent::VecBusy]);
}
}  // namespace

std::string_view boundPipeName(BoundPipe p) { return kNames[static_cast<std::size_t>(p)]; }

PipeBusy pipeBusy(const TaskResult& task) {
    PipeBusy busy;
    addSide(task.cubeSum, busy, true);
    addSide(task.vectorSum, busy, false);
    busy.totalCycles = static_cast<double>(task.cubeSum.totalCycles + task.vectorSum.totalCycles);
    return busy;
}

BoundPipe boundPipeOf(const TaskResult& task) {
    if (task.type == TaskType::AiCpu) return BoundPipe::AiCpu;
    // Compare ratios per side: a pipe's busy cycles over the cycles of the side it lives on.
    double best = -1.0;
    BoundPipe bound = BoundPipe::Scalar;
    auto consider = [&](const PmuCounters& c, bool cubeSide) {
        if (c.totalCycles == 0) return;
        PipeBusy one;
        addSide(c, one, cubeSide);
        for (std::size_t p = 0; p < kBoundPipeCount; ++p) {
            const double ratio = one.busyCycles[p] / static_cast<double>(c.totalCycles);
            if (ratio > best) {
                best = ratio;
                bound = static_cast<BoundPipe>(p);
            }
        }
    };
    consider(task.cubeSum, true);
    consider(task.vectorSum, false);
    return bound;
}

}  // namespace ascendsim

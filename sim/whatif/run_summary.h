#pragma once
// What a what-if job keeps of one simulated run: the per-step time split and each workload op's
// device time with the pipe that bounds it. Small enough to send from a worker process to the
// parent as text (serializeRunSummary) and to compare across sweep points.
#include <cstdint>
#include <string>
#include <vector>

#include "sim/engine/simulation.h"

namespace ascendsim {

// One workload op (all its kernels) averaged over the recorded steps.
struct OpTiming {
    std::string op;       // flattened workload op name, "layer1.0.conv2"
    std::string opType;   // the workload op's type, "Conv2D"
    double deviceUs = 0;  // Σ kernel durations per step
    std::uint32_t blockDim = 0;  // of its longest kernel
    std::string bound;    // bound pipe of its longest kernel ("cube", "mte2", ...)
    std::string core;     // task type of its longest kernel ("AI_CORE", "AI_VECTOR_CORE", ...)
};

struct RunSummary {
    std::string chip;
    std::uint32_t aiCoreCount = 0, vectorCoreCount = 0;  // of the chip simulated
    std::uint32_t stepsRecorded = 0;
    // Per recorded step, averaged: the step's span (host ProfilerStep start to the later of its end
    // and its last kernel's end), split like step_trace_time.csv.
    double stepUs = 0, computingUs = 0, communicationUs = 0, freeUs = 0;
    double deviceUs = 0;  // Σ kernel durations per step
    std::vector<OpTiming> ops;  // in workload order, ops that launched a kernel in a recorded step
};

// Throws std::runtime_error when the run recorded no step (nothing to summarize).
RunSummary summarizeRun(const SimulationResult& result);

const OpTiming* findOpTiming(const RunSummary& summary, const std::string& op);

// Line-oriented text: deserializeRunSummary(serializeRunSummary(s)) == s up to the printed digits
// (17 significant, so doubles round-trip exactly).
std::string serializeRunSummary(const RunSummary& summary);
RunSummary deserializeRunSummary(const std::string& text);

}  // namespace ascendsim

#pragma once
// Private to HostModel (host_model.cpp, host_model_launch.cpp): what one step keeps while it runs.
#include <cstdint>
#include <vector>

#include "sim/host/host_model.h"

namespace ascendsim {

struct HostModel::StepState {
    const HostStep* step = nullptr;
    std::int64_t stepRecord = -1;
    std::int64_t optimizerRecord = -1;  // the open Optimizer.step#X.step record, if any
    bool optimizerOpen = false;
    std::vector<std::int64_t> autogradSequence;  // per op: number its last autograd node took
    std::vector<std::vector<std::uint64_t>> addresses;
    struct PendingFree {
        std::uint64_t ptr;
        bool usedOnOtherStream;
    };
    std::vector<std::vector<PendingFree>> freesAfter;  // per op index
};

}  // namespace ascendsim

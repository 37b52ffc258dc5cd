#pragma once
// The run record of each rank of a data-parallel run. The ranks of one server run the same
// program on the same shapes over a symmetric link mesh, and the collective schedule ends every
// phase on all ranks together, so every rank's compute and collective timing is the same: the
// engine simulates the device once and gives each rank its own identity (rank and device id, a
// process of its own) and the collective tasks the link model plans for that rank (its peers,
// its slice sizes and the waits they cause).
#include <cstdint>

#include "profiler/record/run_record.h"
#include "sim/engine/simulation.h"

namespace ascendsim {

// `rank` in 0..result.ranks-1. Rank r is device r and process pid + r (torch.distributed starts
// one process per device); its thread ids move with its pid.
RunRecord recordOfRank(const SimulationResult& result, std::uint32_t rank);

}  // namespace ascendsim

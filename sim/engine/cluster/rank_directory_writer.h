#pragma once
// Writes the *_ascend_pt directories of a multi-rank run's owned ranks on several host threads.
//
// Each rank's directory depends only on its own record (recordOfRank) and lands under its own
// name, so ranks are independent units of work: the threads take the next unwritten rank in turn
// and the result lists the directories in rank order, whatever thread wrote which. The bytes are
// those of one thread. After the simulation this is most of a large run's time (docs/performance.md
// "Clusters"): the 128-rank Llama step writes 2.3 GB of 128 directories.
#include <cstdint>
#include <vector>

#include "profiler/assembly/output_assembly.h"
#include "sim/engine/cluster/cluster_run.h"

namespace ascendsim {

// The writer threads when the command line names none: the machine's hardware threads shared
// among the processes mpirun started on it (OMPI_COMM_WORLD_LOCAL_SIZE, else every process),
// at least 1.
std::uint32_t defaultWriteThreads(std::uint32_t processes);

// Writes the directories of `ranks` (global rank ids of this process's ranks) with `threads`
// threads. On failure every thread stops taking ranks, and the error of the lowest failed rank is
// rethrown (the caller's output transaction removes what was written).
OutputResult writeRankDirectories(const ClusterResult& cluster, const std::vector<std::uint32_t>& ranks,
                                  const ProfilerConfig& config, const OutputOptions& options, std::uint32_t threads);

}  // namespace ascendsim

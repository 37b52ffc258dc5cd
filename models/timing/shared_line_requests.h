#pragma once
// The wait of a GM read whose lines other cores read at the same time (docs/fidelity.md §111). A
// read asks L2 for the lines its bursts touch, one request a line part; when R cores read the
// same lines at once, each line serves them one after another (l2.same_line_read_cycles a turn,
// line_read_queue.h), so a request waits (R − 1) / 2 turns on average, and with F requests in
// flight (pipes.mte2_line_requests_in_flight) the core's read loses (R − 1) / 2 × turn ÷ F cycles
// a request (Little's law) on top of its single-core curve. R is the move's
// concurrentLineReaders: the cores that queue, its own included.
#include <cstdint>

#include "models/chip/chip_config.h"
#include "models/isa/instruction.h"

namespace ascendsim {

// L2 line requests of a GM read: for each burst, the lines its bytes touch.
std::uint64_t gmLineRequests(const DataMove& move, std::uint32_t lineBytes);

// Cycles the move's line requests wait for the other readers' turns; 0 when it carries no reader
// count (or one), is not a GM read, or the chip keeps no line-request count.
std::uint64_t sharedLineWaitCycles(const ChipConfig& chip, const DataMove& move);

}  // namespace ascendsim

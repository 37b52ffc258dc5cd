#pragma once
// The wait of a GM read whose lines other cores read at the same time (docs/fidelity.md §111). A
// read asks L2 for the lines its bursts touch, one request a line part; when R cores read the
// same lines at once, each line serves them one after another (l2.same_line_read_cycles a turn,
// line_read_queue.h), so a request waits (R − 1) / 2 turns on average, and with F requests in
// flight (pipes.mte2_line_requests_in_flight) the core's read loses (R − 1) / 2 × turn ÷ F cycles
// a request (Little's law) on top of its single-core curve. R is the move's
// concurrentLineReaders: the cores that queue, its own included.
//
// A read whose lines every block of the launch reads at once, in the same order
// (DataMove::linesReadByEveryBlock), moves at most pipes.mte2_shared_line_read_bytes_per_cycle
// a core: the rate the chip's MTE2 shows where a line has ten or more readers (docs/fidelity.md
// §156), below what one core alone gets from L2.
#include <cstdint>

#include "models/chip/chip_config.h"
#include "models/isa/instruction.h"

namespace ascendsim {

// L2 line requests of a GM read: for each burst, the lines its bytes touch.
std::uint64_t gmLineRequests(const DataMove& move, std::uint32_t lineBytes);

// Cycles the move's line requests wait for the other readers' turns; 0 when it carries no reader
// count (or one), is not a GM read, or the chip keeps no line-request count.
std::uint64_t sharedLineWaitCycles(const ChipConfig& chip, const DataMove& move);

// The least cycles of a GM read every block reads at once: its bytes at the chip's shared-line
// rate; 0 when the move is not such a read or the chip sets no rate.
std::uint64_t sharedLineReadCycles(const ChipConfig& chip, const DataMove& move);

}  // namespace ascendsim

#pragma once
// The L2 lines a write covers only in part (docs/fidelity.md §92). A line the write does not fill
// whole and that L2 does not hold has to be read from HBM before the write can merge into it
// (write-allocate of a partial line, l2.partial_write_fill): an L2 line has one valid bit, not
// one per byte, so the bytes the write leaves out must come from memory.
#include <cstdint>
#include <functional>

#include "models/memory/l2_cache.h"

namespace ascendsim {

// Calls `visit(lineIndex)` once for every line of `lineBytes` (a power of two) that the bursts
// touch but do not cover whole, in ascending order. Bytes two bursts put in one line add up; bursts
// are taken as not overlapping (a stride below the burst size counts as back to back).
void forEachPartialLine(const L2Bursts& bursts, std::uint32_t lineBytes,
                        const std::function<void(std::uint64_t)>& visit);

}  // namespace ascendsim

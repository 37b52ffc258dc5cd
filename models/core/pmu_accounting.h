#pragma once
// Where the per-path byte, lane and flop events of one executed instruction are counted
// (hardware.md §3.3/§3.4). Byte events are quantised to their event's unit per instruction
// (rounded up: the hardware counts whole bus beats). Busy-cycle and stall events are counted by
// the pipe that executes the instruction, which knows its duration.
#include <cstdint>

#include "models/isa/instruction.h"
#include "models/pmu/pmu_event.h"

namespace ascendsim {

void addBytes(PmuCounters& counters, PmuEvent event, std::uint64_t bytes);

// Reads/writes of the memories a data move touches, the UB master split and the Bytes* volumes.
// `vectorPipe` marks UB↔UB and L0C→UB moves that the vector unit performs.
void countDataMove(const DataMove& move, bool vectorPipe, PmuCounters& counters);
void countImg2Col(const Img2ColLoad& load, PmuCounters& counters);
// Scalar busy cycles, ld/st instructions and, for a UB memory operand, UB scalar traffic.
// Inline: every ScalarWork passes here, few have a memory operand.
void countScalarMemory(const ScalarWork& work, PmuCounters& counters);
inline void countScalarWork(const ScalarWork& work, PmuCounters& counters) {
    counters[PmuEvent::ScalarBusy] += work.cycles;
    counters[PmuEvent::ScalarLoad] += work.loads;
    counters[PmuEvent::ScalarStore] += work.stores;
    if ((work.bytesRead | work.bytesWritten) != 0) countScalarMemory(work, counters);
}
// L0 traffic, mac cycle classes (not MacBusy: the pipe counts busy cycles) and flops of one mmad taking `cycles` for `fractals` fractals.
void countMmad(const Mmad& mmad, std::uint64_t cycles, std::uint64_t fractals, PmuCounters& counters);
// UB traffic, lane-class cycles and element operations of one vector instruction taking
// `computeCycles` (without bank-conflict stalls).
// `pattern` is ubAccessPatternOf(instr).
struct UbAccessPattern;
void countVector(const VectorInstr& instr, const UbAccessPattern& pattern, std::uint64_t computeCycles,
                 PmuCounters& counters);

}  // namespace ascendsim

#include "models/timing/transfer_timing.h"

namespace ascendsim {

VectorTimingModel::VectorTimingModel(const ChipConfig& chip) : chip_(chip) {}

// Fixed start-up plus a per-repeat cost of the instruction's class (hardware.md §2.6). 32-bit
// element types use the class's fp32 rate where the config gives one (fp32 vexp/vln, u32 gather).
std::uint64_t VectorTimingModel::cycles(const VectorInstr& instr) const {
    const VectorClassTiming& timing =
        chip_.vector.byClass[static_cast<std::size_t>(vectorCostClassOf(instr))];
    const bool wide = bytesOf(instr.dtype) == 4;
    const std::uint64_t perRepeat = (wide && timing.fp32CyclesPerRepeat != 0)
                                        ? timing.fp32CyclesPerRepeat
                                        : timing.cyclesPerRepeat;
    return timing.startupCycles + std::uint64_t{instr.repeats} * perRepeat;
}

}  // namespace ascendsim

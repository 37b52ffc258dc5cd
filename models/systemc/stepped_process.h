#pragma once
// The SystemC face of an event-driven unit (an AI core, the task scheduler): one event and one
// SC_METHOD that calls `unit.step()` under the run's error guard. The unit computes when it next
// has work and calls notifyAt; nothing wakes it per cycle (DESIGN.md decision 1).
// Deliberately never deleted: SystemC objects must die with their simulation context (see
// FreshSimulationContext).
#include <cstdint>
#include <systemc>

#include "models/systemc/simulation_errors.h"

namespace ascendsim {

template <typename Unit>
class SteppedProcess : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(SteppedProcess);
    SteppedProcess(const sc_core::sc_module_name& name, Unit& unit, SimulationErrors& errors)
        : sc_module(name), unit_(unit), errors_(errors) {
        SC_METHOD(run);
        sensitive << wake_;
        dont_initialize();
    }

    // Wakes the unit at absolute simulated time `atPs`, or in this delta cycle if that has passed.
    void notifyAt(std::uint64_t atPs) {
        const std::uint64_t nowPs = sc_core::sc_time_stamp().value();
        wake_.notify(atPs > nowPs ? sc_core::sc_time::from_value(atPs - nowPs) : sc_core::SC_ZERO_TIME);
    }

private:
    void run() {
        errors_.guard([this] { unit_.step(); });
    }

    sc_core::sc_event wake_;
    Unit& unit_;
    SimulationErrors& errors_;
};

}  // namespace ascendsim

#pragma once
// Errors raised inside SystemC processes (buffer overflow, misalignment, bad programs) would be
// wrapped by the SystemC kernel into an sc_report. Processes hand them here instead and stop the
// simulation; Device::runUntilIdle rethrows the original exception.
#include <exception>
#include <systemc>

namespace ascendsim {

struct SimulationErrors {
    std::exception_ptr first;

    template <typename Body>
    void guard(Body body) {
        if (first) return;
        try {
            body();
        } catch (...) {
            first = std::current_exception();
            sc_core::sc_stop();
        }
    }
};

}  // namespace ascendsim

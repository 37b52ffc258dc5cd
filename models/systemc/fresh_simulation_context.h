#pragma once
// SystemC allows one elaboration per simulation context. Holding a FreshSimulationContext gives
// the current thread a new, empty context; the destructor replaces it with another fresh one, so
// a process can build and run many independent simulations one after another (tests,
// microbenchmarks, what-if sweeps). Works with SystemC 2.3.4 (Debian's libsystemc-dev).
namespace ascendsim {

class FreshSimulationContext {
public:
    FreshSimulationContext();
    ~FreshSimulationContext();
    FreshSimulationContext(const FreshSimulationContext&) = delete;
    FreshSimulationContext& operator=(const FreshSimulationContext&) = delete;
};

}  // namespace ascendsim

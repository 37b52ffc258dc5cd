#include "models/systemc/fresh_simulation_context.h"

#include <systemc>

namespace ascendsim {

namespace {
void installFreshContext() {
    // The previous context is deliberately leaked: deleting a context that has elaborated
    // modules runs their destructors against a kernel that no longer expects them.
    auto* context = new sc_core::sc_simcontext();
    sc_core::sc_curr_simcontext = context;
    sc_core::sc_default_global_context = context;
}
}  // namespace

FreshSimulationContext::FreshSimulationContext() { installFreshContext(); }
FreshSimulationContext::~FreshSimulationContext() { installFreshContext(); }

}  // namespace ascendsim

// Fuzz target: a whole workload file through loadWorkload and validateWorkload. Bad input must
// come out as WorkloadError (file:line:column: field: problem), nothing else.
#include <cstdint>
#include <string_view>

#include "fuzz/fuzz_support.h"
#include "sim/workload/workload.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = ascendsim::fuzz::writeScratch(
        "workload.yaml", std::string_view(reinterpret_cast<const char*>(data), size));
    try {
        const ascendsim::Workload w = ascendsim::loadWorkload(path);
        ascendsim::validateWorkload(w, 64ULL << 30);
    } catch (const ascendsim::WorkloadError&) {
    }
    return 0;
}

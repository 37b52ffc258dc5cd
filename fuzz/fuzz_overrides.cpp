// Fuzz target: `--set` and `--chip-set` lists. Lines before an empty line are --set entries for
// the unit matmul workload, lines after it --chip-set entries for Ascend910B1.
#include <cstdint>
#include <string_view>

#include "fuzz/fuzz_support.h"
#include "sim/config/chip_config_loader.h"
#include "sim/config/config_error.h"
#include "sim/workload/workload.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto all = ascendsim::fuzz::lines(std::string_view(reinterpret_cast<const char*>(data), size));
    std::vector<std::string> sets, chipSets;
    bool chip = false;
    for (const auto& line : all) {
        if (line.empty()) chip = true;
        else (chip ? chipSets : sets).push_back(line);
    }
    static const std::string workload = std::string(ASCENDSIM_SOURCE_DIR) + "/workloads/unit/matmul.yaml";
    try {
        const ascendsim::Workload w = ascendsim::loadWorkload(workload, ascendsim::WorkloadOverrides{sets});
        ascendsim::validateWorkload(w, 64ULL << 30);
    } catch (const ascendsim::WorkloadError&) {
    }
    try {
        ascendsim::loadChipByName("Ascend910B1", ascendsim::fuzz::configDir(), chipSets);
    } catch (const ascendsim::ConfigError&) {
    }
    return 0;
}

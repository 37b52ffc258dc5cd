// Fuzz target: a chip YAML file (it may `inherits:` a shipped chip) through the loader and the
// validation. Bad input must come out as ConfigError.
#include <cstdint>
#include <string_view>

#include "fuzz/fuzz_support.h"
#include "sim/config/chip_config_loader.h"
#include "sim/config/config_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = ascendsim::fuzz::writeScratch(
        "chip.yaml", std::string_view(reinterpret_cast<const char*>(data), size));
    try {
        ascendsim::loadChipByName(path, ascendsim::fuzz::configDir());
    } catch (const ascendsim::ConfigError&) {
    }
    return 0;
}

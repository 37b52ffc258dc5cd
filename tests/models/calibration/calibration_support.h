#pragma once
// The shipped chip configs, for calibration tests run on the real Device.
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>

#include "sim/config/chip_config_loader.h"

namespace ascendsim::testing {

inline std::string shippedConfigDir() {
    const char* src = std::getenv("ASCENDSIM_SOURCE_DIR");
    return (std::filesystem::path(src ? src : ".") / "configs").string();
}

inline const ChipConfig& shippedChip(const std::string& name) {
    static std::map<std::string, ChipConfig> cache;
    auto found = cache.find(name);
    if (found == cache.end()) found = cache.emplace(name, loadChipByName(name, shippedConfigDir())).first;
    return found->second;
}

}  // namespace ascendsim::testing

#pragma once
// The source tree's configs/ folder, as the config tests read it.
#include <cstdlib>
#include <filesystem>
#include <string>

namespace ascendsim {

inline std::string shippedConfigDir() {
    const char* src = std::getenv("ASCENDSIM_SOURCE_DIR");
    return (std::filesystem::path(src ? src : ".") / "configs").string();
}

}  // namespace ascendsim

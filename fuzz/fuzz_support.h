#pragma once
// Shared pieces of the libFuzzer targets (docs/reliability.md, scripts/fuzz.sh): a per-process
// scratch file the loaders read (they take paths), and the source tree's configs.
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>
#include <algorithm>

namespace ascendsim::fuzz {

inline std::filesystem::path scratchFile(const std::string& name) {
    static const std::filesystem::path dir = [] {
        auto d = std::filesystem::temp_directory_path() /
                 ("ascendsim_fuzz_" + std::to_string(::getpid()));
        std::filesystem::create_directories(d);
        return d;
    }();
    return dir / name;
}

inline std::string writeScratch(const std::string& name, std::string_view bytes) {
    const auto path = scratchFile(name);
    std::ofstream(path, std::ios::binary | std::ios::trunc).write(bytes.data(),
                                                                  static_cast<std::streamsize>(bytes.size()));
    return path.string();
}

inline std::string configDir() { return std::string(ASCENDSIM_SOURCE_DIR) + "/configs"; }

// Splits fuzz input at '\n' into lines (the --set / --chip-set lists).
inline std::vector<std::string> lines(std::string_view bytes) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= bytes.size() && out.size() < 16) {
        const std::size_t end = std::min(bytes.find('\n', start), bytes.size());
        out.emplace_back(bytes.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

}  // namespace ascendsim::fuzz

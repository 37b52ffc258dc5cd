#pragma once
// The whole text of one file of a profile export, as the CSV readers parse it.
#include <filesystem>
#include <string>

namespace ascendsim {

// Throws std::system_error (errno text, naming the file) when it cannot be read.
std::string readExportFile(const std::filesystem::path& file);

}  // namespace ascendsim

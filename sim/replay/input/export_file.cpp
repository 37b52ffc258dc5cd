#include "sim/replay/input/export_file.h"

#include <cerrno>
#include <fstream>
#include <sstream>
#include <system_error>

namespace ascendsim {

std::string readExportFile(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw std::system_error(errno, std::generic_category(), "cannot read " + file.string());
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace ascendsim

#include "profiler/report/html/html_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace ascendsim {

void writeHtmlFile(const std::string& path, const std::function<void(std::ostream&)>& produce) {
    const std::filesystem::path temporary = path + ".partial";
    try {
        std::ofstream file(temporary);
        if (!file) throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
        produce(file);
        if (!file.flush()) throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
    } catch (...) {
        std::error_code ignored;
        std::filesystem::remove(temporary, ignored);
        throw;
    }
    std::error_code error;
    std::filesystem::rename(temporary, path, error);
    if (error) {
        std::filesystem::remove(temporary, error);
        throw std::runtime_error("cannot write '" + path + "': " + error.message());
    }
}

}  // namespace ascendsim

#include "profiler/writers/era2023/era2023_file_names.h"

namespace ascendsim {

std::string era2023FileSuffix(std::uint32_t deviceId, std::optional<std::uint32_t> modelId,
                              std::uint32_t iterationId) {
    std::string suffix = std::to_string(deviceId);
    if (modelId) suffix.append(1, '_').append(std::to_string(*modelId));
    suffix.append(1, '_').append(std::to_string(iterationId));
    return suffix;
}

std::string era2023FileName(std::string_view name, std::string_view suffix, std::string_view extension) {
    std::string file;
    file.reserve(name.size() + suffix.size() + extension.size() + 2);
    file.append(name).append(1, '_').append(suffix).append(1, '.').append(extension);
    return file;
}

}  // namespace ascendsim

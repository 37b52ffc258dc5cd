#include "profiler/assembly/output_permissions.h"

namespace ascendsim {

void applyOutputPermissions(const std::filesystem::path& root) {
    namespace fs = std::filesystem;
    const auto apply = [](const fs::path& p, bool directory) {
        fs::permissions(p, directory ? kOutputDirectoryPerms : kOutputFilePerms, fs::perm_options::replace);
    };
    if (!fs::is_directory(root)) {
        apply(root, false);
        return;
    }
    apply(root, true);
    for (const auto& entry : fs::recursive_directory_iterator(root))
        apply(entry.path(), entry.is_directory());
}

}  // namespace ascendsim

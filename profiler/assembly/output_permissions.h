#pragma once
// Output permissions (issue 4): directories rwxr-x--- (0750), files rw-r----- (0640), as the
// real profiler's FileManager creates them.
#include <filesystem>

namespace ascendsim {

inline constexpr std::filesystem::perms kOutputDirectoryPerms = std::filesystem::perms(0750);
inline constexpr std::filesystem::perms kOutputFilePerms = std::filesystem::perms(0640);

// Applies the permissions to `root` and everything below it. Throws on failure.
void applyOutputPermissions(const std::filesystem::path& root);

}  // namespace ascendsim

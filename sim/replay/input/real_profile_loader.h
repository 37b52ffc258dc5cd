#pragma once
// Finds and reads the kernel rows of a real profile directory: a *_ascend_pt directory, its
// ASCEND_PROFILER_OUTPUT folder, or a folder holding exactly one *_ascend_pt. The text export
// (kernel_details.csv) is read when present, else the DB export (ascend_pytorch_profiler_*.db);
// `source` can insist on one.
#include <filesystem>
#include <string_view>

#include "sim/replay/input/real_profile.h"

namespace ascendsim {

enum class ProfileSource : std::uint8_t { Auto, Text, Db };
bool parseProfileSource(std::string_view text, ProfileSource& out);  // "auto", "text", "db"

// Throws ReplayInputError for a directory that is not a profile or lacks the export asked for.
RealProfile loadRealProfile(const std::filesystem::path& dir, ProfileSource source = ProfileSource::Auto);

}  // namespace ascendsim

#pragma once
// Where the long-tier replay tests find the real sample profiles (reference/real-profiles README):
// $ASCENDSIM_REAL_PROFILES, else /work/shared/reference/real-profiles. The tests skip when it is
// not a directory, so CI without the samples passes.
#include <cstdlib>
#include <filesystem>

namespace ascendsim {

inline std::filesystem::path realSamplesRoot() {
    if (const char* env = std::getenv("ASCENDSIM_REAL_PROFILES")) return env;
    return "/work/shared/reference/real-profiles";
}

}  // namespace ascendsim

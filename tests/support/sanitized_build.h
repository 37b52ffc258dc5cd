#pragma once
// Whether this test binary is built with AddressSanitizer (scripts/run_sanitized_tests.sh, the
// Sanitize build type: -Og and every memory access checked). Its code runs several times slower
// than the Release build, so a wall-clock bound that states the Release build's speed does not
// apply there; the test still runs and asserts everything else.
namespace ascendsim::test {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitizedBuild = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kSanitizedBuild = true;
#else
inline constexpr bool kSanitizedBuild = false;
#endif
#else
inline constexpr bool kSanitizedBuild = false;
#endif

}  // namespace ascendsim::test

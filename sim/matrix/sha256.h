#pragma once
// SHA-256 (FIPS 180-4) of a byte string or a file, as lowercase hex: the fixture manifest pins
// every file's content with it, and `sha256sum` checks the same digests.
#include <string>
#include <string_view>

namespace ascendsim {

std::string sha256Hex(std::string_view bytes);

// Throws std::runtime_error naming the file and the errno text when it cannot be read.
std::string sha256OfFile(const std::string& path);

}  // namespace ascendsim

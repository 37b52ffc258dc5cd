#pragma once
// Writing one whole output file. Every writer goes through here so that a failure anywhere
// (ENOSPC at close, EACCES at open, EISDIR) becomes one std::system_error that names the file
// and carries the errno reason ("cannot write x.csv: No space left on device").
#include <filesystem>
#include <string>
#include <string_view>

namespace ascendsim {

// Creates or truncates `path` and writes `bytes`; checks open, every write and close.
void writeFileBytes(const std::filesystem::path& path, std::string_view bytes);

// Throws std::system_error(errno) "<what>: <strerror>"; for a failed system call just made.
[[noreturn]] void throwErrno(const std::string& what);

}  // namespace ascendsim

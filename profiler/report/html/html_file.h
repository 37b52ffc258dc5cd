#pragma once
// Writes an HTML report whole or not at all: the page is produced into a temporary file next to
// `path` and renamed over it, so a failure leaves no partial report.
#include <functional>
#include <ostream>
#include <string>

namespace ascendsim {

// Throws std::runtime_error naming the path (with the errno text) when it cannot be written.
void writeHtmlFile(const std::string& path, const std::function<void(std::ostream&)>& produce);

}  // namespace ascendsim
